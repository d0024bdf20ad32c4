import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import type { SxProps, Theme } from "@mui/material/styles";
import { translateMessage } from "../../i18n/index.ts";
import { chatApi, type ChatStatus } from "./chat.api.ts";

/**
 * RoleChat/status, asked once per screen (the chat page hands its answer to the conversation and the character chooser):
 * whether chat (and each tier) has a back end here. Null until it answers.
 */
export function useChatStatus(deps: unknown[] = []): ChatStatus | null {
  const [status, setStatus] = useState<ChatStatus | null>(null);
  useEffect(() => {
    let live = true;
    void chatApi
      .status()
      .then((s) => live && setStatus(s))
      .catch(() => null);
    return () => {
      live = false;
    };
  }, deps);
  return status;
}

/** Said at the top of the chat screens, before anyone tries and waits (issue 31.4): the server's own message, translated. */
export function ChatUnavailable({ status, sx }: { status: ChatStatus | null; sx?: SxProps<Theme> }) {
  if (!status || status.available) return null;
  return (
    <Alert severity="info" sx={sx} data-testid="chat-unavailable">
      {translateMessage(status.message)}
    </Alert>
  );
}
