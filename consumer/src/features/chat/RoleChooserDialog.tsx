import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import AddIcon from "@mui/icons-material/Add";
import CloseIcon from "@mui/icons-material/Close";
import EditIcon from "@mui/icons-material/Edit";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { CharacterAvatar } from "./CharacterAvatar.tsx";
import { chatApi, type Character, type ChatStatus } from "./chat.api.ts";
import { ChatUnavailable } from "./ChatUnavailable.tsx";

type View = "popular" | "new" | "mine";
const PAGE = 20;

/**
 * SPEC.md §2 role chooser: the character catalogue (popular, new, yours; search and tags), loaded page by page.
 * `status` is the chat page's RoleChat/status (the dialog opens over that page).
 */
export default function RoleChooserDialog({ status, onClose, onChoose }: { status: ChatStatus | null; onClose: () => void; onChoose: (c: Character) => void }) {
  const { t } = useTranslation();
  const fullScreen = useMediaQuery("(max-width:600px)");
  const [view, setView] = useState<View>("popular");
  const [q, setQ] = useState("");
  const [tag, setTag] = useState<string | null>(null);
  const [items, setItems] = useState<Character[]>([]);
  const [page, setPage] = useState(1);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    let live = true;
    setLoading(true);
    const timer = setTimeout(() => {
      void chatApi
        .characters({
          page,
          limit: PAGE,
          q: q.trim() || undefined,
          tag: tag ?? undefined,
          sort: view === "new" ? "new" : "popular",
          mine: view === "mine" ? 1 : 0,
        })
        .then((r) => {
          if (!live) return;
          setItems((prev) => (page === 1 ? r.list : [...prev, ...r.list]));
          setTotal(r.total);
        })
        .catch(() => live && setItems([]))
        .finally(() => live && setLoading(false));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [view, q, tag, page]);

  const restart = () => setPage(1);

  return (
    <Dialog open onClose={onClose} fullScreen={fullScreen} fullWidth maxWidth="sm" data-testid="role-chooser">
      <DialogTitle sx={{ display: "flex", alignItems: "center", gap: 1, pr: 1 }}>
        <Box sx={{ flex: 1 }}>{t("chat.chooser.title")}</Box>
        <Button size="small" startIcon={<AddIcon />} component={RouterLink} to="/characterCreatEdit" data-testid="chooser-create">
          {t("chat.chooser.create")}
        </Button>
        <IconButton aria-label={t("common.close")} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ p: { xs: 1.5, sm: 2 } }}>
        <ChatUnavailable status={status} sx={{ mb: 1.5 }} />
        <Tabs
          value={view}
          onChange={(_, v: View) => {
            setView(v);
            restart();
          }}
          variant="fullWidth"
          sx={{ mb: 1.5 }}
        >
          <Tab value="popular" label={t("chat.chooser.popular")} />
          <Tab value="new" label={t("chat.chooser.new")} />
          <Tab value="mine" label={t("chat.chooser.mine")} data-testid="chooser-mine" />
        </Tabs>
        <TextField
          fullWidth
          size="small"
          value={q}
          placeholder={t("chat.chooser.search")}
          onChange={(e) => {
            setQ(e.target.value);
            restart();
          }}
          sx={{ mb: 1 }}
        />
        {tag && <Chip label={`#${tag}`} onDelete={() => (setTag(null), restart())} sx={{ mb: 1 }} />}
        {!loading && items.length === 0 && (
          <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }}>
            {t("chat.chooser.empty")}
          </Typography>
        )}
        <Box sx={{ display: "grid", gap: 1 }}>
          {items.map((c) => (
            <Box
              key={c.id}
              sx={{ display: "flex", gap: 1.5, p: 1.25, borderRadius: 3, bgcolor: "rgba(255,255,255,0.04)", alignItems: "flex-start" }}
              data-testid="chooser-item"
            >
              <CharacterAvatar character={c} size={48} />
              <Box sx={{ flex: 1, minWidth: 0, cursor: "pointer" }} onClick={() => onChoose(c)}>
                <Typography fontWeight={700} noWrap>
                  {c.name}
                </Typography>
                <Typography
                  variant="body2"
                  color="text.secondary"
                  sx={{ display: "-webkit-box", WebkitLineClamp: 2, WebkitBoxOrient: "vertical", overflow: "hidden" }}
                >
                  {c.description}
                </Typography>
                <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap", mt: 0.5 }}>
                  {c.tags.map((tg) => (
                    <Chip
                      key={tg}
                      size="small"
                      label={`#${tg}`}
                      onClick={(e) => {
                        e.stopPropagation();
                        setTag(tg);
                        restart();
                      }}
                    />
                  ))}
                  <Typography variant="caption" color="text.secondary" sx={{ alignSelf: "center" }}>
                    {t("chat.chooser.chats", { count: c.conversation_count })}
                  </Typography>
                </Box>
              </Box>
              {c.mine && (
                <IconButton size="small" aria-label={t("chat.chooser.edit")} component={RouterLink} to={`/characterCreatEdit?id=${c.id}`}>
                  <EditIcon fontSize="small" />
                </IconButton>
              )}
            </Box>
          ))}
        </Box>
        {loading && (
          <Box sx={{ display: "flex", justifyContent: "center", py: 2 }}>
            <CircularProgress size={24} />
          </Box>
        )}
        {!loading && items.length < total && (
          <Button fullWidth onClick={() => setPage((p) => p + 1)} sx={{ mt: 1 }}>
            {t("chat.chooser.more")}
          </Button>
        )}
      </DialogContent>
    </Dialog>
  );
}
