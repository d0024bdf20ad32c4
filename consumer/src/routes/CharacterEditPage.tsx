import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import FormControlLabel from "@mui/material/FormControlLabel";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import AutoAwesomeIcon from "@mui/icons-material/AutoAwesome";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { AvatarPainter } from "../features/chat/AvatarPainter.tsx";
import { CharacterAvatar } from "../features/chat/CharacterAvatar.tsx";
import { chatApi, type CharacterInput } from "../features/chat/chat.api.ts";
import { ChatUnavailable, useChatStatus } from "../features/chat/ChatUnavailable.tsx";
import { DRAFT_TIER } from "../../../server/src/contract/chat.ts";
import { GuestGate } from "../features/generation/GuestGate.tsx";
import { useSession } from "../features/session/session.ts";
import { PhotoPicker } from "../features/uploads/PhotoPicker.tsx";
import type { UploadResult } from "../features/uploads/uploads.api.ts";
import { translateMessage } from "../i18n/index.ts";

const EMPTY: CharacterInput = { name: "", description: "", personality: "", scenario: "", greeting: "", example_lines: [], tags: [], age: null, is_public: 0 };

/** /characterCreatEdit (`?id=` edits one of yours): the card, "draft it for me" from a one-line idea, avatar, public or private. */
export function Component() {
  const { t } = useTranslation();
  const { token, user } = useSession();
  // the server keeps a guest's characters private until the account is registered (docs/decisions/251)
  const guest = user?.type === "visitor";
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const editId = Number(params.get("id")) || null;
  const [form, setForm] = useState<CharacterInput>(EMPTY);
  const [avatarUrl, setAvatarUrl] = useState<string | null>(null);
  const [avatar, setAvatar] = useState<UploadResult | null>(null);
  const [idea, setIdea] = useState("");
  const [drafting, setDrafting] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const status = useChatStatus();
  // drafting needs a chat back end: without one the button is off and says why, instead of failing far below (issue 31.4)
  const canDraft = status?.tiers[DRAFT_TIER] ?? false;

  useEffect(() => {
    if (!editId || !token) return;
    void chatApi.character(editId).then((c) => {
      setForm({
        id: c.id,
        name: c.name,
        description: c.description,
        personality: c.personality,
        scenario: c.scenario,
        greeting: c.greeting,
        example_lines: c.example_lines,
        tags: c.tags,
        age: c.age,
        is_public: c.is_public ? 1 : 0,
      });
      setAvatarUrl(c.avatar_url);
    });
  }, [editId, token]);

  if (!token)
    return (
      <Box sx={{ maxWidth: 560, mx: "auto", px: 2, py: 4 }}>
        <GuestGate />
      </Box>
    );

  const set = <K extends keyof CharacterInput>(key: K, value: CharacterInput[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function draft() {
    setDrafting(true);
    setError(null);
    try {
      const d = await chatApi.draftCharacter(idea.trim());
      setForm((f) => ({ ...f, ...d }));
    } catch (e) {
      setError(translateMessage((e as Error).message));
    } finally {
      setDrafting(false);
    }
  }

  async function save() {
    setSaving(true);
    setError(null);
    try {
      const saved = await chatApi.saveCharacter({
        ...form,
        tags: form.tags.filter(Boolean),
        example_lines: form.example_lines.map((l) => l.trim()).filter(Boolean),
        avatar_image_id: avatar?.id,
      });
      if (editId) navigate("/chat?choose=1");
      else {
        const c = await chatApi.createConversation(saved.id);
        navigate(`/chat?c=${c.id}`);
      }
    } catch (e) {
      setError(translateMessage((e as Error).message));
      setSaving(false);
    }
  }

  const field = (key: "name" | "description" | "personality" | "scenario" | "greeting", rows: number, max: number) => (
    <TextField
      label={t(`chat.edit.${key}`)}
      value={form[key]}
      onChange={(e) => set(key, e.target.value.slice(0, max))}
      multiline={rows > 1}
      minRows={rows}
      fullWidth
      required={key === "name"}
      inputProps={{ "data-testid": `character-${key}` }}
      helperText={key === "name" ? undefined : `${form[key].length}/${max}`}
    />
  );

  return (
    <Box sx={{ maxWidth: 720, mx: "auto", px: 2, py: { xs: 2, md: 4 }, pb: { xs: 10, md: 4 } }} data-testid="character-edit">
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {editId ? t("chat.edit.titleEdit") : t("chat.edit.titleCreate")}
      </Typography>
      <ChatUnavailable status={status} sx={{ mb: 2 }} />
      <Paper sx={{ p: 2, borderRadius: 4, mb: 2 }}>
        <Typography fontWeight={700}>{t("chat.edit.draftTitle")}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }} data-testid="character-draft-note">
          {status && !canDraft ? t("chat.edit.draftUnavailable") : t("chat.edit.draftBody")}
        </Typography>
        <Box sx={{ display: "flex", gap: 1, flexDirection: { xs: "column", sm: "row" } }}>
          <TextField
            size="small"
            fullWidth
            value={idea}
            placeholder={t("chat.edit.ideaPlaceholder")}
            onChange={(e) => setIdea(e.target.value.slice(0, 300))}
            inputProps={{ "data-testid": "character-idea" }}
          />
          <Button
            variant="outlined"
            startIcon={drafting ? <CircularProgress size={16} /> : <AutoAwesomeIcon />}
            disabled={drafting || !canDraft || idea.trim().length < 3}
            onClick={() => void draft()}
            data-testid="character-draft"
            sx={{ whiteSpace: "nowrap" }}
          >
            {t("chat.edit.draft")}
          </Button>
        </Box>
      </Paper>
      {/* minmax(0, 1fr): a wide child (the picker's drop zone) may not stretch the column past a 360 px phone */}
      <Box sx={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 2 }}>
        <Box sx={{ display: "flex", gap: 2, alignItems: "center" }}>
          <CharacterAvatar character={{ id: form.id ?? 0, name: form.name || "?", avatar_url: avatar?.thumb_url ?? avatar?.file_url ?? avatarUrl }} size={64} />
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <PhotoPicker value={avatar} onChange={setAvatar} />
          </Box>
        </Box>
        <AvatarPainter card={form} onPick={setAvatar} />
        {field("name", 1, 40)}
        <TextField
          label={t("chat.edit.age")}
          type="number"
          value={form.age ?? ""}
          onChange={(e) => set("age", e.target.value === "" ? null : Number(e.target.value))}
          helperText={t("chat.edit.ageHelp")}
          inputProps={{ min: 18, "data-testid": "character-age" }}
        />
        {field("description", 2, 300)}
        {field("personality", 3, 1000)}
        {field("scenario", 3, 1000)}
        {field("greeting", 2, 1000)}
        <TextField
          label={t("chat.edit.examples")}
          helperText={t("chat.edit.examplesHelp")}
          value={form.example_lines.join("\n")}
          onChange={(e) =>
            set(
              "example_lines",
              e.target.value
                .split("\n")
                .slice(0, 8)
                .map((l) => l.slice(0, 300)),
            )
          }
          multiline
          minRows={3}
          inputProps={{ "data-testid": "character-examples" }}
        />
        <TextField
          label={t("chat.edit.tags")}
          helperText={t("chat.edit.tagsHelp")}
          value={form.tags.join(", ")}
          onChange={(e) =>
            set(
              "tags",
              e.target.value
                .split(",")
                .map((s) => s.trim().slice(0, 24))
                .filter((s, i, all) => s || i === all.length - 1)
                .slice(0, 8),
            )
          }
        />
        <FormControlLabel
          control={
            <Switch
              checked={form.is_public === 1 && !guest}
              disabled={guest}
              slotProps={{ input: { "data-testid": "character-public" } as object }}
              onChange={(e) => set("is_public", e.target.checked ? 1 : 0)}
            />
          }
          label={t("chat.edit.public")}
        />
        {guest && (
          <Typography variant="body2" color="text.secondary" data-testid="character-public-after-login">
            {t("chat.edit.publicAfterLogin")}
          </Typography>
        )}
        {error && (
          <Alert severity="error" data-testid="character-error">
            {error}
          </Alert>
        )}
        <Button variant="contained" size="large" disabled={saving || !form.name.trim()} onClick={() => void save()} data-testid="character-save">
          {editId ? t("chat.edit.save") : t("chat.edit.createAndChat")}
        </Button>
      </Box>
    </Box>
  );
}
