import { Alert, Box, Button, Card, CardContent, CardHeader, Chip, Link, Typography } from "@mui/material";
import { useCallback, useEffect, useState } from "react";
import { useTranslate } from "react-admin";
import { apiUrl, httpClient, type AdminJson } from "../http.ts";

type Reports = AdminJson<"/admin/api/engines/check">;
type WorkflowReport = Reports[number]["workflows"][number];

const gb = (bytes: number) => `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB`;

/** One workflow on one server: runnable, or the nodes and files it lacks with where to fetch each. */
function WorkflowLine({ w }: { w: WorkflowReport }) {
  const translate = useTranslate();
  return (
    <Box sx={{ py: 0.5 }} data-workflow={w.name} data-offered={w.offered}>
      <Box sx={{ display: "flex", gap: 1, alignItems: "center", flexWrap: "wrap" }}>
        <Chip
          size="small"
          color={w.offered ? "success" : "warning"}
          label={translate(w.offered ? "console.engines.gpuCheck.runnable" : "console.engines.gpuCheck.notReady")}
        />
        <Typography variant="body2">{`${w.name} · ${w.title} · ${translate("console.engines.gpuCheck.memory", { gb: w.gpuMemoryGB })}`}</Typography>
        {w.fitsMemory === false && <Chip size="small" color="error" label={translate("console.engines.gpuCheck.tooBig")} />}
      </Box>
      {w.missingNodes && (
        <Typography variant="caption" display="block">
          {translate("console.engines.gpuCheck.missingNodes", { nodes: w.missingNodes.join(", ") })}
          {w.nodesAdvice?.update && ` — ${translate("console.engines.gpuCheck.update", { version: w.nodesAdvice.update })}`}
          {w.nodesAdvice?.packages.map((p) => ` — ${translate("console.engines.gpuCheck.package", { package: p })}`)}
          {w.nodesAdvice?.unloaded.length ? ` — ${translate("console.engines.gpuCheck.unloaded", { nodes: w.nodesAdvice.unloaded.join(", ") })}` : ""}
        </Typography>
      )}
      {w.missingFiles?.map((f) => (
        <Typography key={f.slot} variant="caption" display="block" sx={{ wordBreak: "break-all" }}>
          {`${translate("console.engines.gpuCheck.missingFile")}: models/${f.folder}/${f.file}`}
        </Typography>
      ))}
    </Box>
  );
}

/** Every file a server lacks, once, with the workflows waiting for it, where to get it and the total to fetch. */
function Downloads({ report: r }: { report: Reports[number] }) {
  const translate = useTranslate();
  return (
    <Box sx={{ mt: 1 }} data-testid="gpu-downloads">
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {translate("console.engines.gpuCheck.downloads", { total: gb(r.downloadBytes), smart_count: r.downloads.length })}
        {r.downloadsUnsized > 0 && ` ${translate("console.engines.gpuCheck.unsized", { smart_count: r.downloadsUnsized })}`}
      </Typography>
      {r.downloads.map((d) => (
        <Typography key={d.file} variant="caption" display="block" sx={{ wordBreak: "break-all" }} data-file={d.file}>
          {`models/${d.folder}/${d.file} (${d.size === null ? translate("console.engines.gpuCheck.sizeUnknown") : gb(d.size)}) · ${d.workflows.join(", ")} — `}
          {d.url ? (
            <Link href={d.url} target="_blank" rel="noreferrer">
              {d.url}
            </Link>
          ) : (
            translate("console.engines.gpuCheck.operatorsChoice")
          )}
          {d.sha256 && ` · sha256 ${d.sha256}`}
        </Typography>
      ))}
    </Box>
  );
}

/** Each ComfyUI server against the model manifest, checked on demand (the same report `npm run gpu:check` prints). */
export function GpuCheck() {
  const translate = useTranslate();
  const [reports, setReports] = useState<Reports | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(() => {
    setBusy(true);
    httpClient(`${apiUrl}/engines/check`)
      .then(
        ({ json }) => (setReports(json as Reports), setError(null)),
        (e: Error) => setError(e.message),
      )
      .finally(() => setBusy(false));
  }, []);
  useEffect(run, []);
  return (
    <Card data-testid="gpu-check">
      <CardHeader
        title={translate("console.engines.gpuCheck.title")}
        titleTypographyProps={{ variant: "subtitle1" }}
        action={
          <Button size="small" onClick={run} disabled={busy}>
            {translate("console.engines.gpuCheck.run")}
          </Button>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {error && <Alert severity="error">{error}</Alert>}
        {reports?.length === 0 && <Typography variant="body2">{translate("console.engines.gpuCheck.noServers")}</Typography>}
        {reports?.map((r) => (
          <Box key={r.url} sx={{ mb: 2 }} data-server={r.url}>
            <Typography variant="subtitle2" sx={{ wordBreak: "break-all" }}>
              {r.reachable
                ? `${r.url} · ComfyUI ${r.comfyuiVersion ?? "?"} · ${r.gpus.map((g) => `${g.name} ${g.memoryGB} GB`).join(", ")}`
                : `${r.url} · ${translate("console.engines.gpuCheck.unreachable")}: ${r.error ?? ""}`}
            </Typography>
            {r.reachable && (
              <Box sx={{ py: 0.5 }} data-character-models={r.characterModels}>
                <Chip
                  size="small"
                  color={r.characterModels ? "success" : "warning"}
                  label={translate(r.characterModels ? "console.engines.gpuCheck.charactersReady" : "console.engines.gpuCheck.charactersNotReady")}
                />
              </Box>
            )}
            {r.workflows.map((w) => (
              <WorkflowLine key={w.name} w={w} />
            ))}
            {r.downloads.length > 0 && <Downloads report={r} />}
          </Box>
        ))}
      </CardContent>
    </Card>
  );
}
