import { useEffect, useState } from "react";
import { Alert, Box, Button, Card, CardContent, CardHeader, Table, TableBody, TableCell, TableRow, TextField, Typography } from "@mui/material";
import { Loading, Title, useTranslate } from "react-admin";
import { apiUrl, getJson, TOKEN_KEY, type AdminJson } from "../http.ts";

type Figures = AdminJson<"/admin/api/transparency">;
export type TimeToAction = Figures["time_to_action"];

const SECTIONS = [
  "reports_by_reason",
  "reports_by_source",
  "reports_by_outcome",
  "decisions_by_action",
  "decisions_by_ground",
  "decisions_by_automation",
  "appeals_by_outcome",
] as const;

/** Seconds as hours with one decimal, the unit the 48-hour target is stated in. */
export const hoursOf = (s: number | null) => (s === null ? "-" : (s / 3600).toFixed(1));

/** Median, p90 and breaches of the 48-hour target: the transparency page and the dashboard show the same card. */
export function TimeToActionCard({ tta, title }: { tta: TimeToAction; title: string }) {
  const translate = useTranslate();
  const rows: [string, string | number][] = [
    [translate("console.notices.resolved"), tta.resolved],
    [translate("console.notices.median"), hoursOf(tta.median_seconds)],
    [translate("console.notices.p90"), hoursOf(tta.p90_seconds)],
    [translate("console.notices.breaches", { hours: tta.target_hours }), tta.breaches],
    [translate("console.notices.openBreaching"), tta.open_breaching],
  ];
  return (
    <Card sx={{ flex: "1 1 320px", minWidth: 0 }} data-card="time-to-action">
      <CardHeader title={title} titleTypographyProps={{ variant: "subtitle1" }} />
      <CardContent>
        <Table size="small">
          <TableBody>
            {rows.map(([k, v]) => (
              <TableRow key={k}>
                <TableCell>{k}</TableCell>
                <TableCell
                  align="right"
                  sx={{
                    fontWeight: 600,
                    color: k.startsWith(translate("console.notices.breaches", { hours: tta.target_hours })) && Number(v) > 0 ? "error.main" : undefined,
                  }}
                >
                  {v}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Transparency (issue 19 item 7): counts by reason, source, action, ground and outcome, and the time to action, over
 * any period; the CSV is the server's own export of the same figures.
 */
function TransparencyPage() {
  const translate = useTranslate();
  const [from, setFrom] = useState(() => day(new Date(Date.now() - 30 * 86_400_000)));
  const [to, setTo] = useState(() => day(new Date(Date.now() + 86_400_000)));
  const [figures, setFigures] = useState<Figures | null>(null);
  const [error, setError] = useState<string | null>(null);
  const query = () => new URLSearchParams({ from: new Date(`${from}T00:00:00Z`).toISOString(), to: new Date(`${to}T00:00:00Z`).toISOString() });

  useEffect(() => {
    if (!from || !to) return;
    setError(null);
    getJson<Figures>(`transparency?${query()}`)
      .then(setFigures)
      .catch((e: Error) => setError(e.message));
  }, [from, to]);

  async function exportCsv() {
    const res = await fetch(`${apiUrl}/transparency?${query()}&format=csv`, { headers: { token: localStorage.getItem(TOKEN_KEY) ?? "" } });
    if (!res.ok) return setError(res.statusText);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await res.blob());
    link.download = `transparency-${from}-${to}.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
  }

  return (
    <Box sx={{ mt: 2 }} data-page="transparency">
      <Title title={translate("console.notices.transparency")} />
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2, alignItems: "center", mb: 2 }}>
        <TextField
          type="date"
          size="small"
          sx={{ width: 190 }}
          label={translate("console.notices.from")}
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-input": "from" } }}
        />
        <TextField
          type="date"
          size="small"
          sx={{ width: 190 }}
          label={translate("console.notices.to")}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-input": "to" } }}
        />
        <Button variant="outlined" onClick={() => void exportCsv()} data-action="transparency-csv">
          {translate("console.notices.csv")}
        </Button>
      </Box>
      {error && <Alert severity="error">{error}</Alert>}
      {!figures ? (
        <Loading />
      ) : (
        <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2 }}>
          <TimeToActionCard tta={figures.time_to_action} title={translate("console.notices.timeToAction")} />
          {SECTIONS.map((s) => (
            <Card key={s} sx={{ flex: "1 1 260px", minWidth: 0 }} data-card={s}>
              <CardHeader title={translate(`console.notices.section.${s}`)} titleTypographyProps={{ variant: "subtitle1" }} />
              <CardContent>
                {figures[s].length === 0 ? (
                  <Typography color="text.secondary">{translate("console.dashboard.empty")}</Typography>
                ) : (
                  <Table size="small">
                    <TableBody>
                      {figures[s].map((c) => (
                        <TableRow key={c.key}>
                          <TableCell>{c.key}</TableCell>
                          <TableCell align="right">{c.count}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                )}
              </CardContent>
            </Card>
          ))}
        </Box>
      )}
    </Box>
  );
}

export const transparency = { list: TransparencyPage };
