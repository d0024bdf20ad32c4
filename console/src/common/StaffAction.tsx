import { useState, type ReactNode } from "react";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from "@mui/material";
import { useCanAccess, useNotify, useRecordContext, useRefresh, useTranslate } from "react-admin";
import { getJson, postJson } from "../http.ts";

/** Something the server computes about the action before it is confirmed (GET /admin/api/<resource>/<id>/<path>). */
export interface ActionPreview<P> {
  path: string;
  /** What the agent reads before confirming. */
  describe: (preview: P) => ReactNode;
  /** What the action sends back to prove which preview was confirmed. */
  confirm: (preview: P) => Record<string, unknown>;
  /** A second text the preview says the action needs (e.g. the reference of money sent back by hand), sent under that name. */
  asks?: (preview: P) => "reference" | undefined;
}

export interface StaffActionProps<P = unknown> {
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
  /** Fetched when the dialog opens, shown, and confirmed with the action. */
  preview?: ActionPreview<P>;
  /** The text the dialog asks for: a reason (default), or e.g. the reference of a transfer; sent under this name. */
  field?: "reason" | "reference";
  /** What the dialog says before it asks: what confirming will do. */
  intro?: ReactNode;
}

/** A named staff action on the current record: asks for a reason (and credits when needed), posts it, refreshes. */
export function StaffAction<P = unknown>({
  resource,
  path,
  can,
  label,
  body,
  askDelta,
  color = "primary",
  onDone,
  preview,
  field = "reason",
  intro,
}: StaffActionProps<P>) {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ action: can[0], resource: can[1] });
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [extra, setExtra] = useState("");
  const [delta, setDelta] = useState("");
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [previewed, setPreviewed] = useState<P | null>(null);
  if (!record || !canAccess) return null;

  async function start() {
    setPreviewed(null);
    setOpen(true);
    if (!preview) return;
    try {
      setPreviewed(await getJson<P>(`${resource}/${record!.id}/${preview.path}`));
    } catch (e) {
      notify((e as Error).message, { type: "error" });
      setOpen(false);
    }
  }

  async function submit() {
    setBusy(true);
    try {
      const confirmed = preview && previewed ? preview.confirm(previewed) : {};
      const result = await postJson(`${resource}/${record!.id}/${path}`, {
        ...body,
        ...confirmed,
        [field]: reason,
        ...(extraField ? { [extraField]: extra } : {}),
        ...(askDelta ? { delta: Number(delta), idempotencyKey: key } : {}),
      });
      notify("console.notify.done", { type: "success" });
      setOpen(false);
      setReason("");
      setExtra("");
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
  const extraField = preview && previewed !== null ? preview.asks?.(previewed) : undefined;
  // a list row navigates on click, and React bubbles clicks out of the dialog's portal to it: keep them here
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: not a control, only a fence for bubbling clicks; the button inside is the control
    <span onClick={(e) => e.stopPropagation()}>
      <Button size="small" variant="outlined" color={color} onClick={start} data-action={name}>
        {translate(label)}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>{translate(label)}</DialogTitle>
        <DialogContent>
          {intro && <div data-intro={name}>{intro}</div>}
          {preview && previewed !== null && <div data-preview={name}>{preview.describe(previewed)}</div>}
          {askDelta && (
            <TextField
              margin="dense"
              fullWidth
              type="number"
              name="delta"
              label={translate("console.field.delta")}
              value={delta}
              onChange={(e) => setDelta(e.target.value)}
            />
          )}
          <TextField
            margin="dense"
            fullWidth
            multiline
            name={field}
            label={translate(`console.field.${field}`)}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          {extraField && (
            <TextField
              margin="dense"
              fullWidth
              name={extraField}
              label={translate(`console.field.${extraField}`)}
              value={extra}
              onChange={(e) => setExtra(e.target.value)}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate("ra.action.cancel")}</Button>
          <Button onClick={submit} disabled={busy || Boolean(preview && previewed === null)} variant="contained" color={color} data-submit={name}>
            {translate("console.action.submit")}
          </Button>
        </DialogActions>
      </Dialog>
    </span>
  );
}
