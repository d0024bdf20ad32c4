import { useEffect, useState, type ReactNode } from "react";
import { Alert, Box, Button, Card, CardActions, CardContent, CardHeader } from "@mui/material";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Link, Loading, Title, useCanAccess, useTranslate } from "react-admin";
import { apiUrl, getJson, httpClient, type AdminJson } from "../http.ts";
import { TimeToActionCard, type TimeToAction } from "../transparency/index.tsx";
import { PricedBelowCost } from "./PricedBelowCost.tsx";

type Summary = AdminJson<"/admin/api/dashboard">;

const COLORS = ["#1976d2", "#2e7d32", "#ed6c02", "#9c27b0", "#d32f2f", "#0288d1", "#795548", "#607d8b"];

/** Rows of (key, series, value) as one object per key with a property per series, every key present. */
function pivot<R>(rows: R[], keys: string[], keyOf: (r: R) => string, seriesOf: (r: R) => string, amountOf: (r: R) => number) {
  const series = [...new Set(rows.map(seriesOf))].sort();
  const byKey = new Map(keys.map((k) => [k, Object.fromEntries([["key", k], ...series.map((s) => [s, 0])]) as Record<string, string | number>]));
  for (const r of rows) {
    const row = byKey.get(keyOf(r));
    if (row) row[seriesOf(r)] = (row[seriesOf(r)] as number) + amountOf(r);
  }
  return { data: [...byKey.values()], series };
}

function daysFrom(since: string, days: number): string[] {
  const start = new Date(since).getTime();
  return Array.from({ length: days }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}

function Chart({
  title,
  data,
  series,
  kind = "bar",
  stacked = true,
  footer,
}: {
  title: string;
  data: Record<string, string | number>[];
  series: string[];
  kind?: "bar" | "line";
  stacked?: boolean;
  /** what staff do about the figures, under the chart */
  footer?: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Card sx={{ flex: "1 1 460px", minWidth: 0 }} data-chart={title}>
      <CardHeader title={title} titleTypographyProps={{ variant: "subtitle1" }} />
      <CardContent sx={{ height: 260 }}>
        {series.length === 0 ? (
          <Box sx={{ color: "text.secondary" }}>{translate("console.dashboard.empty")}</Box>
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            {kind === "line" ? (
              <LineChart data={data}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="key" fontSize={11} />
                <YAxis fontSize={11} allowDecimals={false} />
                <Tooltip />
                <Legend />
                {series.map((s, i) => (
                  <Line key={s} dataKey={s} stroke={COLORS[i % COLORS.length]} dot={false} isAnimationActive={false} />
                ))}
              </LineChart>
            ) : (
              <BarChart data={data}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="key" fontSize={11} />
                <YAxis fontSize={11} allowDecimals={false} />
                <Tooltip />
                <Legend />
                {series.map((s, i) => (
                  <Bar key={s} dataKey={s} stackId={stacked ? "a" : undefined} fill={COLORS[i % COLORS.length]} isAnimationActive={false} />
                ))}
              </BarChart>
            )}
          </ResponsiveContainer>
        )}
      </CardContent>
      {footer}
    </Card>
  );
}

/**
 * Where a figure that looks wrong is acted on: the tips list reverses a fraudulent tip, the referrals list a fraudulent
 * referral, and the gifts page has the day's detail (decisions 302, 304); each link only for whoever may open it.
 */
function ActivityLinks() {
  const translate = useTranslate();
  const links = [
    { resource: "tips", label: "console.dashboard.reviewTips", can: useCanAccess({ action: "list", resource: "tips" }).canAccess },
    { resource: "referrals", label: "console.dashboard.reviewReferrals", can: useCanAccess({ action: "list", resource: "referrals" }).canAccess },
    { resource: "reward-days", label: "console.dashboard.giftDays", can: useCanAccess({ action: "list", resource: "reward-days" }).canAccess },
  ].filter((l) => l.can);
  if (!links.length) return null;
  return (
    <CardActions sx={{ flexWrap: "wrap", px: 2, pb: 1.5 }} data-testid="activity-links">
      {links.map((l) => (
        <Button key={l.resource} size="small" component={Link} to={`/${l.resource}`} data-link={l.resource}>
          {translate(l.label)}
        </Button>
      ))}
    </CardActions>
  );
}

/** Figures come aggregated from GET /admin/api/dashboard; nothing here lists rows. */
export function Dashboard() {
  const translate = useTranslate();
  // measured GPU cost is read with the templates' permission (GET /admin/api/engines/costs)
  const seesCosts = useCanAccess({ action: "list", resource: "templates" }).canAccess;
  const [summary, setSummary] = useState<Summary | null>(null);
  const [error, setError] = useState<string | null>(null);
  // time to action over the same 30 days, for those who may read reports (issue 19)
  const [tta, setTta] = useState<TimeToAction | null>(null);
  useEffect(() => {
    httpClient(`${apiUrl}/dashboard?days=30`)
      .then(({ json }) => setSummary(json as Summary))
      .catch((e: Error) => setError(e.message));
    getJson<{ time_to_action: TimeToAction }>(`transparency?from=${new Date(Date.now() - 30 * 86_400_000).toISOString()}`)
      .then((f) => setTta(f.time_to_action))
      .catch(() => setTta(null));
  }, []);
  if (error) return <Alert severity="error">{error}</Alert>;
  if (!summary) return <Loading />;

  const days = daysFrom(summary.since, summary.days);
  const short = (rows: Record<string, string | number>[]) => rows.map((r) => ({ ...r, key: String(r.key).slice(5) }));
  const revenue = pivot(
    summary.revenue,
    days,
    (r) => r.day,
    (r) => `${r.provider} (${r.currency})`,
    (r) => r.amountMinor / 100,
  );
  const orders = pivot(
    summary.ordersByStatus,
    [...new Set(summary.ordersByStatus.map((r) => r.status))],
    (r) => r.status,
    () => translate("console.dashboard.total"),
    (r) => r.count,
  );
  const generations = pivot(
    summary.generations,
    days,
    (r) => r.day,
    (r) => r.status,
    (r) => r.count,
  );
  const modes = pivot(
    summary.generations,
    [...new Set(summary.generations.map((r) => r.mode))].sort(),
    (r) => r.mode,
    (r) => r.status,
    (r) => r.count,
  );
  const signups = pivot(
    summary.signups,
    days,
    (r) => r.day,
    (r) => r.loginType,
    (r) => r.count,
  );
  const reports = pivot(
    summary.openReports,
    summary.ageBuckets,
    (r) => r.bucket,
    (r) => r.reason,
    (r) => r.count,
  );
  const reportData = reports.data.map((r) => ({ ...r, key: translate(`console.age.${r.key}`) }));
  const { newPages, requests } = summary.creators;
  const creatorGrowth = pivot(
    newPages,
    days,
    (r) => r.day,
    () => translate("console.dashboard.newPages"),
    (r) => r.count,
  );
  // every series the server lists, each under its translated name (a series without one shows its own name)
  const seriesName = (s: string) => translate(`console.dashboard.series.${s}`, { _: s });
  const activity = pivot(
    summary.activity,
    days,
    (r) => r.day,
    (r) => seriesName(r.series),
    (r) => r.count,
  );
  // counts and credits differ by orders of magnitude: one chart each, so the counts stay readable
  const requestCount = pivot(
    requests,
    days,
    (r) => r.day,
    () => translate("console.dashboard.requestCount"),
    (r) => r.count,
  );
  const requestCredits = pivot(
    requests,
    days,
    (r) => r.day,
    () => translate("console.dashboard.requestCredits"),
    (r) => r.credits,
  );

  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2, mt: 2 }}>
      <Title title={`${translate("console.dashboard.title")} · ${translate("console.dashboard.days", { days: summary.days })}`} />
      {seesCosts && <PricedBelowCost />}
      <Chart title={translate("console.dashboard.revenue")} data={short(revenue.data)} series={revenue.series} />
      <Chart title={translate("console.dashboard.orders")} data={orders.data} series={orders.series} />
      <Chart title={translate("console.dashboard.generations")} data={short(generations.data)} series={generations.series} />
      <Chart title={translate("console.dashboard.modes")} data={modes.data} series={modes.series} />
      <Chart title={translate("console.dashboard.signups")} data={short(signups.data)} series={signups.series} kind="line" />
      <Chart title={translate("console.dashboard.reports")} data={reportData} series={reports.series} />
      <Chart title={translate("console.dashboard.activity")} data={short(activity.data)} series={activity.series} kind="line" footer={<ActivityLinks />} />
      <Chart title={translate("console.dashboard.creators")} data={short(creatorGrowth.data)} series={creatorGrowth.series} kind="line" />
      <Chart title={translate("console.dashboard.requests")} data={short(requestCount.data)} series={requestCount.series} />
      <Chart title={translate("console.dashboard.requestVolume")} data={short(requestCredits.data)} series={requestCredits.series} />
      {tta && <TimeToActionCard tta={tta} title={translate("console.notices.timeToAction")} />}
    </Box>
  );
}
