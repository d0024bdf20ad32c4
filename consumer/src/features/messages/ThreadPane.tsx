import { useCallback, useEffect, useRef, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import { useTranslation } from "react-i18next";
import { lazyView, translateMessage } from "../../i18n/index.ts";
import { useSpendConfirm } from "../creators/SpendConfirm.tsx";
import { Composer, type Attachable, type Outgoing } from "./Composer.tsx";
import { MessageBubble } from "./MessageBubble.tsx";
import { messagesApi, type MessageView, type ThreadView } from "./messages.api.ts";

const ReportDialog = lazyView(() => import("../report/ReportDialog.tsx"));

/** What the pane shows: a thread, or a fan's first message to a page (no thread yet). */
export type Opened = { threadId: number } | { homeLink: string; title: string };

/**
 * One thread: its messages, oldest at the top, and the composer. `version` changes when the stream says something
 * arrived, and the thread is read again; opening it marks it read.
 */
export function ThreadPane({
  opened,
  items,
  version,
  onBack,
  onChanged,
}: {
  opened: Opened;
  items: Attachable[] | null;
  version: number;
  onBack: () => void;
  onChanged: (threadId: number) => void;
}) {
  const { t } = useTranslation();
  const [thread, setThread] = useState<ThreadView | null>(null);
  const [messages, setMessages] = useState<MessageView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [reporting, setReporting] = useState<number | null>(null);
  const spend = useSpendConfirm();
  const end = useRef<HTMLDivElement>(null);
  const threadId = "threadId" in opened ? opened.threadId : null;

  // the page's callback changes with every render of the page; the thread is read again only when it or `version` does
  const changed = useRef(onChanged);
  changed.current = onChanged;
  const load = useCallback(async () => {
    if (threadId === null) return;
    const r = await messagesApi.thread(threadId);
    setThread(r.thread);
    setMessages([...r.messages].reverse());
    if (r.thread.unread) await messagesApi.read(threadId).then(() => changed.current(threadId));
  }, [threadId]);

  useEffect(() => {
    load().catch((e: Error) => setError(translateMessage(e.message)));
  }, [load, version]);
  useEffect(() => {
    end.current?.scrollIntoView({ block: "end" });
  }, [messages.length]);

  async function send(o: Outgoing) {
    const sent = await messagesApi.send(threadId === null ? { ...o, home_link: (opened as { homeLink: string }).homeLink } : { ...o, thread_id: threadId });
    onChanged(sent.thread_id);
    if (threadId !== null) await load();
  }

  /** A locked message opens once paid, confirmed as every spend on a creator is. */
  const unlock = (m: MessageView) =>
    spend.confirm({
      what: t("creators.spend.unlock", { name: title }),
      amount: m.price,
      pay: async () => {
        const opened = await messagesApi.unlock(m.id);
        setMessages((all) => all.map((x) => (x.id === m.id ? opened : x)));
      },
      onShort: setError,
    });

  async function toggleBlock() {
    if (!thread) return;
    setThread(await messagesApi.block(thread.id, !thread.blocked));
  }

  const title = thread ? (thread.as === "fan" ? thread.title : thread.fan_name) : "title" in opened ? opened.title : "";
  return (
    <Box data-testid="thread-pane" sx={{ display: "grid", gap: 1, minWidth: 0 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, minWidth: 0 }}>
        <IconButton onClick={onBack} aria-label={t("messages.back")} sx={{ display: { md: "none" } }} data-testid="thread-back">
          <ArrowBackIcon />
        </IconButton>
        <Typography variant="h6" component="h2" noWrap sx={{ flex: 1, minWidth: 0 }}>
          {title}
        </Typography>
        {thread?.as === "fan" && (
          <Button size="small" color={thread.blocked ? "primary" : "inherit"} onClick={() => void toggleBlock()} data-testid="thread-block">
            {t(thread.blocked ? "messages.unblock" : "messages.block")}
          </Button>
        )}
      </Box>
      <Box
        sx={{ display: "flex", flexDirection: "column", gap: 1, overflowY: "auto", minHeight: 160, maxHeight: "60dvh", py: 1 }}
        data-testid="thread-messages"
      >
        {thread?.blocked && <Alert severity="info">{t("messages.blockedNote")}</Alert>}
        {messages.length === 0 && <Typography color="text.secondary">{t("messages.empty")}</Typography>}
        {messages.map((m) => (
          <MessageBubble key={m.id} m={m} onUnlock={() => unlock(m)} onReport={() => setReporting(m.id)} />
        ))}
        <div ref={end} />
      </Box>
      <Box sx={{ display: "grid", gap: 1 }}>
        {error && <Alert severity="error">{error}</Alert>}
        <Composer items={thread?.as === "creator" ? items : null} send={send} />
      </Box>
      {spend.dialog}
      {reporting !== null && <ReportDialog target={{ type: "message", id: reporting }} onClose={() => setReporting(null)} onSent={() => void load()} />}
    </Box>
  );
}
