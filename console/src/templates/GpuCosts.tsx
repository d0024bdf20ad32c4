import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslate } from "react-admin";
import { useLocalName } from "../common/fields.tsx";
import { apiUrl, httpClient, type AdminJson } from "../http.ts";

type Rows = AdminJson<"/admin/api/engines/costs">;

/** Measured GPU cost beside price, per template, workflow and resolution (GET /admin/api/engines/costs); null while loading. */
export function useGpuCostRows(): Rows | null {
  const [rows, setRows] = useState<Rows | null>(null);
  useEffect(() => {
    httpClient(`${apiUrl}/engines/costs`).then(
      ({ json }) => setRows(json as Rows),
      () => setRows([]),
    );
  }, []);
  return rows;
}

/**
 * Measured GPU cost beside the price charged, per unit (a started price block of video, or an image), per workflow and
 * resolution (issue 34), with the workflow's tier (issue 45): of one template, or of every template when none is given.
 * A cost above the price is marked; the dashboard lists those (PricedBelowCost).
 */
export function GpuCosts({ templateId }: { templateId?: number }) {
  const translate = useTranslate();
  const named = useLocalName();
  const rows = useGpuCostRows();
  const shown = rows?.filter((r) => templateId === undefined || r.templateId === templateId) ?? [];
  const t = (k: string) => translate(`console.engines.gpuCosts.${k}`);
  return (
    <Box sx={{ overflowX: "auto", width: "100%" }} data-testid="gpu-costs">
      <Typography variant="subtitle2">{t("title")}</Typography>
      {rows && shown.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t("none")}
        </Typography>
      )}
      {shown.length > 0 && (
        <Table size="small">
          <TableHead>
            <TableRow>
              {[...(templateId === undefined ? ["template"] : []), "workflow", "tier", "resolution", "runs", "gpuSeconds", "cost", "price"].map((k) => (
                <TableCell key={k}>{t(k)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((r) => (
              <TableRow key={`${r.templateId}-${r.workflow}-${r.resolution}`} data-loss={r.loss}>
                {templateId === undefined && <TableCell>{r.templateName ? named(r.templateName, r.templateNames) : "—"}</TableCell>}
                <TableCell>{r.workflow}</TableCell>
                <TableCell>{r.tier ? t(`tiers.${r.tier}`) : "—"}</TableCell>
                <TableCell>{r.resolution ?? "—"}</TableCell>
                <TableCell>{r.runs}</TableCell>
                <TableCell>{r.gpuSecondsPerUnit}</TableCell>
                <TableCell sx={r.loss ? { color: "error.main", fontWeight: 600 } : undefined}>{r.costPerUnit}</TableCell>
                <TableCell>{r.pricePerUnit}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
