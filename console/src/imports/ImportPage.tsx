import { Alert, Box, Button, Card, CardContent, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useState } from "react";
import { HttpError, Title, useNotify, useTranslate } from "react-admin";
import { IMPORT_COLUMNS, type ImportList, SPREADSHEET_REFUSALS, type SpreadsheetRefusal } from "../../../server/src/contract/imports.ts";
import { getFile, postFile, type AdminJson } from "../http.ts";

type Preview = AdminJson<"/admin/api/imports/pixel-ids/preview", "post">;
type Applied = AdminJson<"/admin/api/imports/pixel-ids/apply", "post">;

/** Saves the list's template through a temporary link (the download needs the staff token, so no plain href). */
async function downloadTemplate(list: ImportList) {
  const url = URL.createObjectURL(await getFile(`imports/${list}/template`));
  const a = document.createElement("a");
  a.href = url;
  a.download = `${list}-template.xlsx`;
  a.click();
  URL.revokeObjectURL(url);
}

function PreviewTable({ preview }: { preview: Preview }) {
  const translate = useTranslate();
  const { columns } = preview;
  return (
    // on a phone the table scrolls sideways inside the card instead of widening the page
    <Box sx={{ overflowX: "auto", maxWidth: { xs: "calc(100vw - 48px)", md: "100%" } }}>
      <Table size="small" aria-label={translate("console.imports.preview")}>
        <TableHead>
          <TableRow>
            <TableCell>{translate("console.imports.row")}</TableCell>
            {columns.map((c) => (
              <TableCell key={c}>{c}</TableCell>
            ))}
            <TableCell>{translate("console.imports.errors")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {preview.rows.map((r) => (
            <TableRow key={r.row} sx={r.errors.length ? { bgcolor: "error.light" } : undefined} data-row={r.row}>
              <TableCell>{r.row}</TableCell>
              {columns.map((c) => (
                <TableCell key={c}>{String(r.cells[c] ?? "")}</TableCell>
              ))}
              <TableCell>{r.errors.join("; ")}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** A refusal of the file as a whole, in the staff member's language (the server names it in `data.refusal`). */
function useRefusalText() {
  const translate = useTranslate();
  return (e: unknown): string | null => {
    const data = e instanceof HttpError ? (e.body as { data?: { refusal?: string } } | undefined)?.data : undefined;
    const refusal = data?.refusal as SpreadsheetRefusal | undefined;
    return refusal && SPREADSHEET_REFUSALS.includes(refusal) ? translate(`console.imports.refused.${refusal}`, data) : null;
  };
}

/**
 * One list's import (docs/decisions/285): the template, a chosen file previewed with every row's problems, then the
 * same file applied with its preview's digest; nothing is written before "Apply".
 */
export function ImportPage({ list }: { list: ImportList }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refusalText = useRefusalText();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [busy, setBusy] = useState(false);
  // products follow their form's fields, named by the template and each preview (docs/decisions/301)
  const columns = preview?.columns ?? (list in IMPORT_COLUMNS ? IMPORT_COLUMNS[list as keyof typeof IMPORT_COLUMNS] : null);
  const failed = (e: unknown) => notify(refusalText(e) ?? (e instanceof Error ? e.message : String(e)), { type: "error" });

  const choose = async (chosen: File | undefined) => {
    setFile(chosen ?? null);
    setPreview(null);
    if (!chosen) return;
    setBusy(true);
    await postFile<Preview>(`imports/${list}/preview`, chosen).then(setPreview, failed);
    setBusy(false);
  };
  const apply = async () => {
    if (!file || !preview) return;
    setBusy(true);
    try {
      const done = await postFile<Applied>(`imports/${list}/apply`, file, { digest: preview.digest });
      notify(translate("console.imports.applied", { applied: done.applied, unchanged: done.unchanged }), { type: "success" });
      setFile(null);
      setPreview(null);
    } catch (e) {
      failed(e);
    }
    setBusy(false);
  };

  return (
    <Card sx={{ mt: 2 }} data-testid="import-page">
      <Title title={`console.imports.${list}.title`} />
      <CardContent>
        <Stack spacing={2}>
          <Typography>{translate(`console.imports.${list}.help`)}</Typography>
          {columns && <Typography variant="body2">{translate("console.imports.columns", { columns: columns.join(", ") })}</Typography>}
          <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: "wrap" }}>
            <Button variant="outlined" onClick={() => downloadTemplate(list).catch(failed)}>
              {translate("console.imports.template")}
            </Button>
            <Button variant="outlined" component="label" disabled={busy}>
              {translate("console.imports.choose")}
              {/* .xls stays choosable so the server can say to save it as .xlsx (docs/decisions/371) */}
              <input hidden type="file" accept=".xlsx,.xls" aria-label={translate("console.imports.choose")} onChange={(e) => choose(e.target.files?.[0])} />
            </Button>
            <Button variant="contained" disabled={busy || !preview || preview.invalid > 0} onClick={apply}>
              {translate("console.imports.apply")}
            </Button>
          </Stack>
          {preview && (
            <Alert severity={preview.invalid ? "warning" : "info"}>
              {translate("console.imports.summary", { valid: preview.valid, invalid: preview.invalid })}
            </Alert>
          )}
          {preview && <PreviewTable preview={preview} />}
        </Stack>
      </CardContent>
    </Card>
  );
}
