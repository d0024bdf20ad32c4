import UploadIcon from "@mui/icons-material/Upload";
import { Button } from "@mui/material";
import { useState } from "react";
import { useNotify, useRefresh, useTranslate } from "react-admin";
import { postFile } from "../http.ts";

/**
 * Sends a chosen image to an upload route (`path`, under /admin/api/), which checks it by content and saves it at once;
 * the refresh then reloads the record, so the form holds the new file and a later Save keeps it.
 */
/** `name`: the file input's, for the browser tests; `action`: the button's data-action. */
export function ImageUploadButton(p: { path: string; name: string; label: string; saved: string; action: string }) {
  const { path, name, label, saved, action } = p;
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  async function upload(e: React.ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    setBusy(true);
    try {
      await postFile(path, file);
      notify(saved, { type: "success" });
      refresh();
    } catch (err) {
      notify((err as Error).message, { type: "error" });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button component="label" variant="outlined" startIcon={<UploadIcon />} disabled={busy} data-action={action} sx={{ mb: 2 }}>
      {translate(label)}
      <input hidden type="file" name={name} accept="image/png,image/jpeg,image/webp,image/bmp" onChange={upload} />
    </Button>
  );
}
