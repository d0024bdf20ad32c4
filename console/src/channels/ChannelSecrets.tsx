import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useCanAccess, useNotify, useRecordContext, useTranslate } from "react-admin";
import { SERVER_CONVERSION_SECRET_FIELDS, type ServerConversionVendor } from "../../../server/src/contract/pixels.ts";
import { getJson, postJson, type AdminJson } from "../http.ts";

type SecretStatus = AdminJson<"/admin/api/channels/{id}/secrets">;

/**
 * A vendor's conversion API tokens (docs/decisions/191): write-only. The server answers whether each is set and
 * its last four characters, never the token; only admins (CASL "ChannelSecret") see or change this at all.
 */
export function ChannelSecrets({ vendor }: { vendor: ServerConversionVendor }) {
  const translate = useTranslate();
  const channel = useRecordContext();
  const { canAccess } = useCanAccess({ action: "update", resource: "ChannelSecret" });
  const [status, setStatus] = useState<SecretStatus | null>(null);
  useEffect(() => {
    if (!channel || !canAccess) return;
    getJson<SecretStatus>(`channels/${channel.id}/secrets`).then(setStatus, () => setStatus(null));
  }, [channel, canAccess]);

  if (!channel)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate("console.channelSecrets.afterCreate")}
      </Typography>
    );
  if (!canAccess)
    return (
      <Typography variant="body2" color="text.secondary" data-secrets-note>
        {translate("console.channelSecrets.adminsOnly")}
      </Typography>
    );
  if (!status) return null;
  if (!status.configured)
    return (
      <Typography variant="body2" color="warning.main">
        {translate("console.channelSecrets.notConfigured")}
      </Typography>
    );
  return (
    <>
      {SERVER_CONVERSION_SECRET_FIELDS[vendor].map((field) => (
        <SecretField
          key={field}
          channelId={channel.id as number}
          vendor={vendor}
          field={field}
          state={status.secrets.find((s) => s.vendor === vendor && s.field === field)}
          onSaved={setStatus}
        />
      ))}
    </>
  );
}

function SecretField(props: {
  channelId: number;
  vendor: ServerConversionVendor;
  field: string;
  state?: SecretStatus["secrets"][number];
  onSaved: (s: SecretStatus) => void;
}) {
  const { channelId, vendor, field, state, onSaved } = props;
  const translate = useTranslate();
  const notify = useNotify();
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  const name = `secret.${vendor}.${field}`;

  async function save(next: string | null) {
    setBusy(true);
    try {
      onSaved(await postJson<SecretStatus>(`channels/${channelId}/secrets`, { vendor, field, value: next }));
      setValue("");
      notify(next === null ? "console.channelSecrets.cleared" : "console.channelSecrets.saved", { type: "success" });
    } catch (e) {
      notify((e as Error).message, { type: "error" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="caption" color="text.secondary">
        {translate(`resources.channels.fields.serverConversions.${vendor}.${field}`)}
      </Typography>
      <Typography variant="body2" data-secret-state={name}>
        {state?.set
          ? state.last4
            ? translate("console.channelSecrets.setEnding", { last4: state.last4 })
            : translate("console.channelSecrets.set")
          : translate("console.channelSecrets.notSet")}
      </Typography>
      <Box sx={{ display: "flex", gap: 1, alignItems: "center", flexWrap: "wrap" }}>
        <TextField
          size="small"
          type="password"
          autoComplete="new-password"
          name={name}
          label={translate("console.channelSecrets.newValue")}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          // Enter would submit the surrounding channel form, which never carries tokens
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            e.preventDefault();
            if (value.trim()) void save(value);
          }}
          sx={{ flex: "1 1 160px" }}
        />
        <Button size="small" variant="outlined" disabled={busy || !value.trim()} onClick={() => save(value)} data-secret-save={name}>
          {translate("console.channelSecrets.save")}
        </Button>
        {state?.set && (
          <Button size="small" color="error" disabled={busy} onClick={() => save(null)} data-secret-clear={name}>
            {translate("console.channelSecrets.clear")}
          </Button>
        )}
      </Box>
    </Box>
  );
}
