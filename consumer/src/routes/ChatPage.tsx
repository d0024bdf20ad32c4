import { Suspense, useCallback, useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import AddIcon from "@mui/icons-material/Add";
import ForumIcon from "@mui/icons-material/Forum";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { GuestGate } from "../features/generation/GuestGate.tsx";
import { CharacterAvatar } from "../features/chat/CharacterAvatar.tsx";
import { chatApi, type ConversationSummary } from "../features/chat/chat.api.ts";
import { ChatUnavailable, useChatStatus } from "../features/chat/ChatUnavailable.tsx";
import { ConversationView } from "../features/chat/ConversationView.tsx";
import { useSession } from "../features/session/session.ts";
import { lazyView } from "../i18n/index.ts";

const RoleChooserDialog = lazyView(() => import("../features/chat/RoleChooserDialog.tsx"));

/** /chat (SPEC.md §2, footer hidden): your conversations, and the open one; side by side from tablets up. */
export function Component() {
  const { t } = useTranslation();
  const { token } = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const open = Number(params.get("c")) || null;
  const status = useChatStatus([open]);
  const [list, setList] = useState<ConversationSummary[] | null>(null);
  const [choosing, setChoosing] = useState(params.get("choose") === "1");

  const reload = useCallback(() => {
    if (!token) return;
    void chatApi.conversations().then((r) => setList(r.list));
  }, [token]);

  useEffect(() => {
    reload();
  }, [reload, open]);

  const select = (id: number | null) => setParams(id ? { c: String(id) } : {});

  if (!token)
    return (
      <Box sx={{ maxWidth: 560, mx: "auto", px: 2, py: 4 }}>
        <GuestGate />
      </Box>
    );

  return (
    <Box sx={{ display: "flex", height: { xs: "calc(100dvh - 56px)", md: "calc(100dvh - 64px)" }, maxWidth: 1200, mx: "auto" }} data-testid="chat-page">
      <Box
        sx={{
          width: { xs: "100%", md: 340 },
          display: { xs: open ? "none" : "flex", md: "flex" },
          flexDirection: "column",
          borderRight: { md: 1 },
          borderColor: "divider",
          minHeight: 0,
        }}
      >
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, p: 2, pb: 1 }}>
          <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
            {t("chat.title")}
          </Typography>
          <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => setChoosing(true)} data-testid="chat-new">
            {t("chat.new")}
          </Button>
        </Box>
        <ChatUnavailable status={status} sx={{ mx: 2, mb: 1 }} />
        {status?.available && status.free_left > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
            {t("chat.freeLeft", { count: status.free_left })}
          </Typography>
        )}
        <Box sx={{ flex: 1, overflowY: "auto", px: 1, pb: { xs: 9, md: 2 } }} data-testid="conversation-list">
          {list === null && (
            <Box sx={{ display: "flex", justifyContent: "center", py: 4 }}>
              <CircularProgress size={24} />
            </Box>
          )}
          {list?.length === 0 && (
            <Box sx={{ textAlign: "center", py: 6, px: 2, color: "text.secondary" }}>
              <ForumIcon sx={{ fontSize: 48, opacity: 0.5 }} />
              <Typography sx={{ mt: 1 }}>{t("chat.empty")}</Typography>
            </Box>
          )}
          {list?.map((c) => (
            <Box
              key={c.id}
              onClick={() => select(c.id)}
              data-testid="conversation-item"
              sx={{
                display: "flex",
                gap: 1.5,
                p: 1.25,
                borderRadius: 3,
                cursor: "pointer",
                alignItems: "center",
                bgcolor: c.id === open ? "rgba(255,255,255,0.08)" : "transparent",
                "&:hover": { bgcolor: "rgba(255,255,255,0.05)" },
              }}
            >
              <CharacterAvatar character={c.character} size={44} />
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography fontWeight={700} noWrap>
                  {c.character.name}
                </Typography>
                <Typography variant="body2" color="text.secondary" noWrap>
                  {c.last_line ? (c.last_line.role === "user" ? t("chat.you", { text: c.last_line.content }) : c.last_line.content) : ""}
                </Typography>
              </Box>
            </Box>
          ))}
        </Box>
      </Box>
      <Box sx={{ flex: 1, display: { xs: open ? "flex" : "none", md: "flex" }, flexDirection: "column", minWidth: 0, minHeight: 0 }}>
        {open ? (
          <ConversationView key={open} id={open} status={status} onBack={() => select(null)} onDeleted={() => (select(null), reload())} />
        ) : (
          <Box sx={{ m: "auto", textAlign: "center", color: "text.secondary", p: 3 }}>
            <ForumIcon sx={{ fontSize: 64, opacity: 0.4 }} />
            <Typography sx={{ mt: 1 }}>{t("chat.pick")}</Typography>
          </Box>
        )}
      </Box>
      <Suspense fallback={null}>
        {choosing && (
          <RoleChooserDialog
            status={status}
            onClose={() => setChoosing(false)}
            onChoose={(character) => {
              setChoosing(false);
              void chatApi.createConversation(character.id).then((c) => {
                reload();
                navigate(`/chat?c=${c.id}`);
              });
            }}
          />
        )}
      </Suspense>
    </Box>
  );
}
