import { Alert, Box, Card, CardContent, CardHeader, Chip, Typography } from "@mui/material";
import { Loading, Title, useTranslate } from "react-admin";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { LEDGER_DIRECTIONS, METRIC, NOTIFICATION_OUTCOMES, QUEUE_STATES } from "../../../server/src/contract/metrics.ts";
import { usePolling } from "../common/usePolling.ts";
import { apiUrl, type AdminJson } from "../http.ts";

type Figures = AdminJson<"/admin/api/operations">;

const REFRESH_MS = 5000;

/** The sum of a figure's samples whose labels match `where`. */
function total(f: Figures, name: string, where: Record<string, string> = {}): number {
  return f.series.filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);
}

function Figure({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <Box sx={{ minWidth: 120 }} data-testid={testId}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6">{value}</Typography>
    </Box>
  );
}

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card sx={{ flex: "1 1 300px", minWidth: 0 }}>
      <CardHeader title={title} titleTypographyProps={{ variant: "subtitle1" }} />
      <CardContent sx={{ display: "flex", flexWrap: "wrap", gap: 2 }}>{children}</CardContent>
    </Card>
  );
}

/** The figures /metrics serves, read every few seconds, for staff who run no Prometheus. */
function OperationsPage() {
  const t = useTranslate();
  const { value: figures, error } = usePolling<Figures>(`${apiUrl}/operations`, REFRESH_MS);
  if (error && !figures) return <Alert severity="error">{error}</Alert>;
  if (!figures) return <Loading />;
  const engines = figures.series.filter((s) => s.name === METRIC.engineUp);
  // the server keeps the last ten minutes of request rates: the chart shows them from the first read (issue 46 item 19)
  const points = figures.recent.map((p) => ({ ...p, time: p.at.slice(11, 19) }));
  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2, mt: 1 }} data-testid="operations-page">
      <Title title="console.operations.title" />
      {error && <Alert severity="warning">{error}</Alert>}
      <Card sx={{ flex: "1 1 100%", minWidth: 0 }}>
        <CardHeader title={t("console.operations.requests")} titleTypographyProps={{ variant: "subtitle1" }} />
        <CardContent sx={{ height: 240 }} data-testid="requests-chart" data-points={points.length}>
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={points}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="time" fontSize={11} />
              <YAxis fontSize={11} />
              <Tooltip />
              <Legend />
              <Line dataKey="requests" name={t("console.operations.perSecond")} stroke="#1976d2" dot={false} isAnimationActive={false} />
              <Line dataKey="errors" name={t("console.operations.errorsPerSecond")} stroke="#d32f2f" dot={false} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </CardContent>
      </Card>
      <Panel title={t("console.operations.queue")}>
        {QUEUE_STATES.map((state) => (
          <Figure key={state} testId={`queue-${state}`} label={t(`console.operations.state.${state}`)} value={total(figures, METRIC.queueJobs, { state })} />
        ))}
        <Figure label={t("console.operations.oldestWaiting")} value={`${Math.round(total(figures, METRIC.queueOldest, { state: "queued" }))} s`} />
      </Panel>
      <Panel title={t("console.operations.engines")}>
        {engines.map((s) => (
          <Chip
            key={`${s.labels.engine}-${s.labels.server}`}
            color={s.value === 1 ? "success" : "error"}
            label={`${s.labels.engine}${s.labels.server ? ` ${s.labels.server}` : ""}: ${t(s.value === 1 ? "console.operations.up" : "console.operations.down")}`}
          />
        ))}
        <Figure label={t("console.operations.jobsFailed")} value={total(figures, METRIC.jobs, { outcome: "failed" })} />
      </Panel>
      <Panel title={t("console.operations.chat")}>
        <Figure label={t("console.operations.streaming")} value={total(figures, METRIC.chatStreaming)} />
        <Figure label={t("console.operations.backendErrors")} value={total(figures, METRIC.chatErrors)} />
      </Panel>
      <Panel title={t("console.operations.payments")}>
        {NOTIFICATION_OUTCOMES.map((outcome) => (
          <Figure key={outcome} label={t(`console.operations.outcome.${outcome}`)} value={total(figures, METRIC.notifications, { outcome })} />
        ))}
      </Panel>
      <Panel title={t("console.operations.ledger")}>
        {LEDGER_DIRECTIONS.map((direction) => (
          <Figure key={direction} label={t(`console.operations.direction.${direction}`)} value={total(figures, METRIC.ledger, { direction })} />
        ))}
      </Panel>
      <Panel title={t("console.operations.outbox")}>
        <Figure label={t("console.operations.waiting")} value={total(figures, METRIC.outbox)} />
        <Figure label={t("console.operations.oldestWaiting")} value={`${Math.round(total(figures, METRIC.outboxOldest))} s`} />
      </Panel>
    </Box>
  );
}

export const operations = { list: OperationsPage };
