import { useCallback, useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { notifications } from "../site/notifications.ts";
import { Composer, type Attachable, type Outgoing } from "./Composer.tsx";
import { messagesApi, type MassSentView } from "./messages.api.ts";

/** How many of the latest messages to all members the creator sees under the composer. */
const SHOWN = 5;

/**
 * The creator's message to all their members at once (each gets a copy in their own thread), and the latest ones they
 * sent: what each said, whom it reached and, when locked, how many paid to open it.
 */
export function ToAllMembers({ items, onSent }: { items: Attachable[]; onSent: () => void }) {
  const { t, i18n } = useTranslation();
  const [sent, setSent] = useState<MassSentView[] | null>(null);
  const load = useCallback(
    () =>
      void messagesApi.massSent(SHOWN).then(
        (r) => setSent(r.list),
        () => setSent([]),
      ),
    [],
  );
  useEffect(load, [load]);
  async function send(o: Outgoing) {
    const r = await messagesApi.massSend(o);
    notifications.show(t("messages.massSent", { count: r.recipients }), "success");
    load();
    onSent();
  }
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  return (
    <Box component="section" sx={{ display: "grid", gap: 1, p: 1.5, borderBottom: 1, borderColor: "divider" }} data-testid="mass-message">
      <Typography variant="subtitle2">{t("messages.toAllMembersTitle")}</Typography>
      <Composer items={items} send={send} testId="mass-composer" />
      {sent && sent.length > 0 && (
        <Box sx={{ display: "grid", gap: 0.5 }} data-testid="mass-sent">
          <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
            {t("messages.sentToAll")}
          </Typography>
          {sent.map((m) => (
            <Box key={m.id} data-testid="mass-sent-row" sx={{ minWidth: 0, pl: 1, borderLeft: 2, borderColor: "primary.main" }}>
              <Typography variant="body2" noWrap>
                {m.body || t("messages.attachment")}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="p">
                {date(m.created_at)} · {t("messages.massSent", { count: m.recipients })}
                {m.price > 0 && ` · ${t("messages.sentLocked", { price: m.price, count: m.unlocked })}`}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
