import { useState } from "react";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from "@mui/material";
import { useCanAccess, useNotify, useRecordContext, useRefresh, useTranslate } from "react-admin";
import { postJson } from "../http.ts";

export interface StaffActionProps {
  /** Console resource the action belongs to: POST /admin/api/<resource>/<id>/<path>. */
  resource: string;
  path: string;
  /** The permission the server checks, e.g. ["ban", "User"]; the button is hidden without it. */
  can: [string, string];
  label: string;
  /** Extra fields of the body besides the reason. */
  body?: Record<string, unknown>;
  /** Also ask for a whole number of credits (sent as `delta`). */
  askDelta?: boolean;
  color?: "primary" | "error" | "warning" | "success";
  /** Called with the server's answer (e.g. to show credentials once). */
  onDone?: (result: unknown) => void;
}

/** A named staff action on the current record: asks for a reason (and credits when needed), posts it, refreshes. */
export function StaffAction({ resource, path, can, label, body, askDelta, color = "primary", onDone }: StaffActionProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ action: can[0], resource: can[1] });
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [delta, setDelta] = useState("");
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(() => crypto.randomUUID());
  if (!record || !canAccess) return null;

  async function submit() {
    setBusy(true);
    try {
      const result = await postJson(`${resource}/${record!.id}/${path}`, { ...body, reason, ...(askDelta ? { delta: Number(delta), idempotencyKey: key } : {}) });
      notify("console.notify.done", { type: "success" });
      setOpen(false);
      setReason("");
      setDelta("");
      setKey(crypto.randomUUID());
      onDone?.(result);
      refresh();
    } catch (e) {
      notify((e as Error).message, { type: "error" });
    } finally {
      setBusy(false);
    }
  }

  const name = `${resource}-${path}`;
  // a list row navigates on click, and React bubbles clicks out of the dialog's portal to it: keep them here
  return (
    <span onClick={(e) => e.stopPropagation()}>
      <Button size="small" variant="outlined" color={color} onClick={() => setOpen(true)} data-action={name}>
        {translate(label)}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>{translate(label)}</DialogTitle>
        <DialogContent>
          {askDelta && (
            <TextField margin="dense" fullWidth type="number" name="delta" label={translate("console.field.delta")} value={delta} onChange={(e) => setDelta(e.target.value)} />
          )}
          <TextField margin="dense" fullWidth multiline name="reason" label={translate("console.field.reason")} value={reason} onChange={(e) => setReason(e.target.value)} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate("ra.action.cancel")}</Button>
          <Button onClick={submit} disabled={busy} variant="contained" color={color} data-submit={name}>
            {translate("console.action.submit")}
          </Button>
        </DialogActions>
      </Dialog>
    </span>
  );
}
