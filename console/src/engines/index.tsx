import { Alert, Box, Card, CardContent, CardHeader, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { Loading, Title, useTranslate } from "react-admin";
import { useLocalName } from "../common/fields.tsx";
import { usePolling } from "../common/usePolling.ts";
import { apiUrl, type AdminJson } from "../http.ts";
import { GpuCosts } from "../templates/GpuCosts.tsx";
import { GpuCheck } from "./GpuCheck.tsx";

type Report = AdminJson<"/admin/api/engines">;
type EngineStatus = Report["engines"][number];
type ServerStatus = NonNullable<EngineStatus["servers"]>[number];

const REFRESH_MS = 5000;

/** Why workflows are not offered; one line when they all share the reason (a server that never answered). */
function NotOffered({ workflows }: { workflows: ServerStatus["workflows"] }) {
  const translate = useTranslate();
  if (workflows.length > 1 && workflows.every((w) => w.reason === workflows[0].reason)) {
    return <Typography variant="caption" display="block">{`${translate("console.engines.all")}: ${workflows[0].reason ?? ""}`}</Typography>;
  }
  return (
    <>
      {workflows.map((w) => (
        <Typography key={w.name} variant="caption" display="block">{`${w.name}: ${w.reason ?? ""}`}</Typography>
      ))}
    </>
  );
}

const GB = 1024 ** 3;
const gb = (bytes: number) => (bytes / GB).toFixed(1);
/** Below this share of RAM free a server is due for the recycling the README describes. */
const LOW_RAM = 0.1;

/** The server's RAM and each GPU's memory by its last /system_stats: ComfyUI's grows over many runs (issue 44 item 10). */
function Memory({ memory: m }: { memory: NonNullable<ServerStatus["memory"]> }) {
  const translate = useTranslate();
  const low = m.ramTotal > 0 && m.ramFree / m.ramTotal < LOW_RAM;
  return (
    <Box data-testid="server-memory" sx={{ mt: 0.5, wordBreak: "normal", minWidth: 150 }}>
      <Typography variant="caption" display="block" color={low ? "error" : "text.secondary"}>
        {translate("console.engines.ram", { free: gb(m.ramFree), total: gb(m.ramTotal) })}
      </Typography>
      {m.gpus.map((g) => (
        <Typography key={g.name} variant="caption" display="block" color="text.secondary">
          {translate("console.engines.vram", { name: g.name, free: gb(g.vramFree), total: gb(g.vramTotal) })}
        </Typography>
      ))}
      {low && (
        <Typography variant="caption" display="block" color="error">
          {translate("console.engines.memoryLow")}
        </Typography>
      )}
    </Box>
  );
}

function ServersTable({ servers }: { servers: ServerStatus[] }) {
  const translate = useTranslate();
  return (
    <Box sx={{ overflowX: "auto" }}>
      <Table size="small">
        <TableHead>
          <TableRow>
            {["server", "health", "queue", "inFlight", "workflows", "notOffered"].map((k) => (
              <TableCell key={k}>{translate(`console.engines.${k}`)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {servers.map((s) => (
            <TableRow key={s.url} data-server={s.url}>
              <TableCell sx={{ wordBreak: "break-all" }}>
                {s.url}
                {s.lastError && (
                  <Typography variant="caption" color="error" display="block">
                    {s.lastError}
                  </Typography>
                )}
                {s.memory && <Memory memory={s.memory} />}
              </TableCell>
              <TableCell>
                <Chip size="small" color={s.health === "healthy" ? "success" : s.health === "unreachable" ? "error" : "default"} label={s.health} />
              </TableCell>
              <TableCell>{s.queue}</TableCell>
              <TableCell>{s.inFlight}</TableCell>
              <TableCell>
                {s.workflows
                  .filter((w) => w.offered)
                  .map((w) => w.name)
                  .join(", ") || "—"}
              </TableCell>
              <TableCell>
                <NotOffered workflows={s.workflows.filter((w) => !w.offered)} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** Each engine as it reports itself (servers, health, queue, in flight, last errors) and the render figures from the tasks table. */
function EnginesPage() {
  const translate = useTranslate();
  const named = useLocalName();
  const { value: report, error } = usePolling<Report>(`${apiUrl}/engines`, REFRESH_MS);
  if (error && !report) return <Alert severity="error">{error}</Alert>;
  if (!report) return <Loading />;
  const count = (engine: string, status: string) => report.queue.find((q) => q.engine === engine && q.status === status)?.count ?? 0;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2, mt: 1 }} data-testid="engines-page">
      <Title title="console.engines.title" />
      {report.engines.map((e) => (
        <Card key={e.engine} data-engine={e.engine} data-available={e.available}>
          <CardHeader
            title={
              <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
                <span>{`${e.engine} · ${e.label}`}</span>
                {report.default === e.engine && <Chip size="small" label={translate("console.engines.default")} />}
                <Chip
                  size="small"
                  color={e.available ? "success" : "error"}
                  label={translate(e.available ? "console.engines.available" : "console.engines.unavailable")}
                />
              </Box>
            }
            subheader={e.message}
          />
          <CardContent sx={{ pt: 0 }}>
            {e.fix && <Alert severity="warning" sx={{ mb: 2 }}>{`${translate("console.engines.fix")}: ${e.fix}`}</Alert>}
            <Typography variant="body2" sx={{ mb: 1 }}>
              {`${translate("console.engines.tasks")}: ${count(e.engine, "queued")} / ${count(e.engine, "running")}`}
              {e.waiting !== undefined &&
                ` · ${translate("console.engines.waiting")}: ${e.waiting} · ${translate("console.engines.inFlight")}: ${e.inFlight ?? 0}`}
            </Typography>
            {e.servers && e.servers.length > 0 && <ServersTable servers={e.servers} />}
            {e.lastErrors && (
              <Box sx={{ mt: 2 }}>
                <Typography variant="subtitle2">{translate("console.engines.lastErrors")}</Typography>
                {e.lastErrors.length === 0 && (
                  <Typography variant="body2" color="text.secondary">
                    {translate("console.engines.none")}
                  </Typography>
                )}
                {e.lastErrors.map((x) => (
                  <Typography
                    key={x.at + x.message}
                    variant="caption"
                    display="block"
                    sx={{ wordBreak: "break-word" }}
                  >{`${new Date(x.at).toLocaleString()} — ${x.message}`}</Typography>
                ))}
              </Box>
            )}
          </CardContent>
        </Card>
      ))}
      <GpuCheck />
      <Card>
        <CardContent>
          <GpuCosts />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={translate("console.engines.renders")} titleTypographyProps={{ variant: "subtitle1" }} />
        <CardContent sx={{ pt: 0, overflowX: "auto" }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                {["template", "engine", "count", "avg"].map((k) => (
                  <TableCell key={k}>{translate(`console.engines.${k}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {report.renders.length === 0 && (
                <TableRow>
                  <TableCell colSpan={4}>{translate("console.engines.none")}</TableCell>
                </TableRow>
              )}
              {report.renders.map((r) => (
                <TableRow key={`${r.templateId}-${r.engine}`}>
                  <TableCell>
                    {r.templateName
                      ? named(r.templateName, r.templateNames)
                      : translate(r.templateId === null ? "console.engines.noTemplate" : "console.engines.deletedTemplate")}
                  </TableCell>
                  <TableCell>{r.engine}</TableCell>
                  <TableCell>{r.renders}</TableCell>
                  <TableCell>{translate("console.engines.seconds", { n: r.avgSeconds })}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </Box>
  );
}

export const engines = { list: EnginesPage };
