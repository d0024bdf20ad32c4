import { Suspense, useEffect, useRef, useState, type ComponentProps } from "react";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Fab from "@mui/material/Fab";
import ChatBubbleIcon from "@mui/icons-material/ChatBubble";
import { useTranslation } from "react-i18next";
import { SUPPORT_POLL_SECONDS } from "../../../../server/src/contract/support.ts";
import { dialogs, useOpenDialog } from "../../dialogs/dialog-store.ts";
import { useSession } from "../session/session.ts";
import { useCoversKeptClear } from "./keep-clear.ts";
import { openSupport, useSupportOrder } from "./open-support.ts";
import { fetchSupportThread, markSupportRead, type SupportAnswer } from "./support.api.ts";
import type { SupportPanel as SupportPanelView } from "./SupportPanel.tsx";
import { lazyView } from "../../i18n/index.ts";

// the conversation and its form fields load when the bubble is first opened: every page shows the bubble, few open it
// (the creator page's first load stays within its budget)
const SupportPanel = lazyView<ComponentProps<typeof SupportPanelView>>(() => import("./SupportPanel.tsx").then((m) => ({ default: m.SupportPanel })));

/** Where email sent by hand reaches the billing team (the legal pages and the ban notice still show it). */
export const SUPPORT_EMAIL = "billing@reverie.example";

/** While closed, replies are looked for this much less often than while the conversation is open. */
const CLOSED_POLL_FACTOR = 6;

/**
 * The person's conversation, asked for again every few seconds while the panel is open (there is no per-person event
 * stream; docs/decisions/281) and rarely while it is closed, to badge a reply; opening the panel marks replies seen.
 */
function useSupportThread(token: string | null, open: boolean) {
  const [answer, setAnswer] = useState<SupportAnswer | null>(null);
  const hasThread = answer?.thread != null;
  useEffect(() => {
    if (!token) {
      setAnswer(null);
      return;
    }
    let live = true;
    const load = () =>
      fetchSupportThread().then(
        async (a) => {
          if (!live) return;
          setAnswer(a);
          if (open && a.unread) setAnswer({ ...a, unread: (await markSupportRead()).unread });
        },
        () => undefined,
      );
    void load();
    if (!open && !hasThread) return () => void (live = false);
    const every = SUPPORT_POLL_SECONDS * 1000 * (open ? 1 : CLOSED_POLL_FACTOR);
    const timer = setInterval(() => void load(), every);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [token, open, hasThread]);
  return [answer, setAnswer] as const;
}

/**
 * SPEC.md §2 billing-support chat bubble, bottom right: a conversation with support tied to the account (a guest's
 * too) and to the order it was opened from (issue 35 item 3). It steps aside while it would cover a page's primary
 * action or the balance (issue 31 item 7).
 */
export function SupportBubble() {
  const { t } = useTranslation();
  const open = useOpenDialog() === "support";
  const orderId = useSupportOrder();
  const { token } = useSession();
  const [answer, setAnswer] = useSupportThread(token, open);
  // the corner, not the button: a button stepping aside shrinks, and its shrunk box would stop covering what it
  // stepped aside from, bring it back, and so on (it flickered over a phone's "Send")
  const corner = useRef<HTMLDivElement>(null);
  const stepAside = useCoversKeptClear(corner, !open);
  return (
    <Box
      ref={corner}
      sx={{
        position: "fixed",
        right: { xs: 12, md: 20 },
        bottom: { xs: 80, md: 24 },
        zIndex: 1200,
        display: "flex",
        flexDirection: "column",
        alignItems: "flex-end",
        gap: 1.5,
      }}
    >
      {open && (
        <Suspense fallback={null}>
          <SupportPanel answer={answer} orderId={orderId} onAnswer={setAnswer} />
        </Suspense>
      )}
      <Fab
        color="primary"
        aria-label={t("support.open")}
        onClick={() => (open ? dialogs.close() : openSupport())}
        data-testid="support-bubble"
        data-stepped-aside={stepAside ? 1 : 0}
        size="medium"
        tabIndex={stepAside ? -1 : 0}
        sx={{
          background: "linear-gradient(135deg,#8b5cf6,#ec4899)",
          color: "#fff",
          transition: "opacity 150ms, transform 150ms",
          ...(stepAside && { opacity: 0, transform: "scale(0.6)", pointerEvents: "none" }),
        }}
      >
        <Badge color="error" badgeContent={answer?.unread ?? 0} data-testid="support-unread">
          <ChatBubbleIcon />
        </Badge>
      </Fab>
    </Box>
  );
}
