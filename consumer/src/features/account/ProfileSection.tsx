import { useState } from "react";
import Alert from "@mui/material/Alert";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { isLanguage, LANGUAGES, translateMessage } from "../../i18n/index.ts";
import { session, useSession } from "../session/session.ts";
import { PhotoPicker } from "../uploads/PhotoPicker.tsx";
import { updateProfile } from "./account.api.ts";

/** Profile: photo, nickname, the language kept on the account, the email and the sign-in methods linked to it. */
export default function ProfileSection() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [nickname, setNickname] = useState(user?.nickname ?? "");
  const [state, setState] = useState<{ busy?: boolean; saved?: boolean; error?: string }>({});
  const [choosingPhoto, setChoosingPhoto] = useState(false);
  if (!user) return null;

  async function save(patch: Parameters<typeof updateProfile>[0]) {
    setState({ busy: true });
    try {
      await updateProfile(patch);
      await session.loadUser();
      setState({ saved: true });
      setChoosingPhoto(false);
    } catch (e) {
      setState({ error: translateMessage((e as Error).message) });
    }
  }

  return (
    <Box sx={{ display: "grid", gap: 2 }} data-testid="profile">
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, minWidth: 0 }}>
        <Avatar src={user.photo ?? undefined} sx={{ width: 56, height: 56 }}>
          {user.nickname.slice(0, 1).toUpperCase()}
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 700, overflowWrap: "anywhere" }}>{user.nickname}</Typography>
          <Typography variant="body2" color="text.secondary" data-testid="profile-email" sx={{ overflowWrap: "anywhere" }}>
            {user.email ?? t("account.profile.noEmail")}
          </Typography>
        </Box>
      </Box>
      <Box>
        <Button size="small" variant="outlined" onClick={() => setChoosingPhoto((c) => !c)} data-testid="profile-photo">
          {t("account.profile.photo")}
        </Button>
        {/* one of the person's own photos, uploaded with the consent attestation every person photo carries */}
        {choosingPhoto && <PhotoPicker value={null} onChange={(upload) => upload && void save({ photo_image_id: upload.id })} />}
      </Box>
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "center" }} data-testid="sign-in-methods">
        <Typography variant="body2" color="text.secondary">
          {t("account.profile.methods")}
        </Typography>
        {user.sign_in_methods.map((m) => (
          <Chip key={m} size="small" label={t(`account.profile.method.${m}`)} data-method={m} />
        ))}
        {user.sign_in_methods.length === 0 && <Chip size="small" variant="outlined" label={t(`loginType.${user.type}`)} />}
        {!user.email && (
          <Button size="small" onClick={() => dialogs.open("login")} data-testid="profile-add-email">
            {t("account.profile.addEmail")}
          </Button>
        )}
      </Box>
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void save({ nickname });
        }}
        sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "flex-start" }}
      >
        <TextField
          slotProps={{ htmlInput: { maxLength: 32, "data-testid": "profile-nickname" } }}
          label={t("account.profile.nickname")}
          value={nickname}
          onChange={(e) => setNickname(e.target.value)}
          size="small"
          sx={{ flex: "1 1 200px" }}
        />
        <Button type="submit" variant="contained" disabled={state.busy || nickname.trim() === user.nickname} data-testid="profile-save">
          {t("account.profile.save")}
        </Button>
      </Box>
      {state.saved && <Alert severity="success">{t("account.profile.saved")}</Alert>}
      {state.error && <Alert severity="error">{state.error}</Alert>}
      <TextField
        select
        size="small"
        label={t("account.profile.language")}
        helperText={t("account.profile.languageNote")}
        value={isLanguage(i18n.language) ? i18n.language : "en"}
        onChange={(e) => isLanguage(e.target.value) && void session.chooseLanguage(e.target.value).catch(() => undefined)}
        slotProps={{ select: { SelectDisplayProps: { "data-testid": "profile-language" } as object } }}
        sx={{ maxWidth: 320 }}
      >
        {LANGUAGES.map((lng) => (
          <MenuItem key={lng} value={lng} data-testid={`profile-language-${lng}`}>
            {t(`lang.${lng}`)}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}
