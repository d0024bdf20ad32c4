import { Button, Typography } from "@mui/material";
import { BooleanInput, Link, NumberInput, SimpleForm, TextInput, minValue, useTranslate } from "react-admin";
import { CHAT_MEDIA_SECONDS, CHAT_MEDIA_SETTING, type ChatMediaKind } from "../../../server/src/contract/chat.ts";
import { ENGINE_KINDS } from "../../../server/src/contract/engines.ts";

const KINDS = Object.keys(CHAT_MEDIA_SECONDS) as ChatMediaKind[];
/** The engines that run workflows (the local engine draws its draft without one). */
const GPU_ENGINES = ENGINE_KINDS.filter((e) => e !== "local");

/** A list of channel codes as the person types it: separated by commas or spaces. */
const channelList = {
  format: (v: unknown) => (Array.isArray(v) ? v.join(", ") : ""),
  parse: (v: string) =>
    v
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean),
};
/** An empty price is null: the generation price of the same request. */
const optionalPrice = { parse: (v: string | number | null) => (v === "" || v === null ? null : Number(v)) };
const emptyIsNone = { parse: (v: string) => (v.trim() ? v.trim() : undefined) };

/**
 * Characters' pictures and clips in chat (issue 50, docs/decisions/365): on or off, the channels where it is off, the
 * price per kind, local drafts, and the workflow each kind runs per GPU engine. The server
 * checks every value again.
 */
export function ChatMediaForm() {
  const translate = useTranslate();
  return (
    <SimpleForm>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate("console.chatMedia.help")}
      </Typography>
      <BooleanInput source="value.enabled" label="console.chatMedia.enabled" />
      <TextInput source="value.off_channels" label="console.chatMedia.offChannels" helperText="console.chatMedia.offChannelsHelp" fullWidth {...channelList} />
      {KINDS.map((kind) => (
        <NumberInput
          key={kind}
          source={`value.price.${kind}`}
          label={`console.chatMedia.price_${kind}`}
          helperText="console.chatMedia.priceHelp"
          validate={minValue(0)}
          {...optionalPrice}
        />
      ))}
      <BooleanInput source="value.drafts" label="console.chatMedia.drafts" helperText="console.chatMedia.draftsHelp" />
      {KINDS.flatMap((kind) =>
        GPU_ENGINES.map((engine) => (
          <TextInput
            key={`${kind}-${engine}`}
            source={`value.workflows.${kind}.${engine}`}
            label={translate("console.chatMedia.workflow", { kind: translate(`console.chatMedia.kind_${kind}`), engine })}
            helperText="console.chatMedia.workflowHelp"
            fullWidth
            {...emptyIsNone}
          />
        )),
      )}
    </SimpleForm>
  );
}

/** On the settings list: chat media is always there to set, saved or not. */
export function ChatMediaSettingButton() {
  const translate = useTranslate();
  return (
    <Button component={Link} to={`/site-settings/${CHAT_MEDIA_SETTING}`} size="small" data-action="open-chat-media">
      {translate("console.chatMedia.open")}
    </Button>
  );
}
