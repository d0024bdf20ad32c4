import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { CREATOR_TITLE_MAX } from "../../../../server/src/contract/creators.ts";
import { trainingApi, type CharacterModelView } from "../training/training.api.ts";
import { PhotoPicker } from "../uploads/PhotoPicker.tsx";
import type { UploadResult } from "../uploads/uploads.api.ts";
import type { PageIdentity } from "./creators.api.ts";
import { withCover } from "./page-cover.ts";

/** What the identity fields hold while they are edited: the cover just uploaded, if any, beside the ids sent. */
export interface IdentityDraft extends PageIdentity {
  cover: UploadResult | null;
}

/** The person's finished, usable models (what a page may show); empty while loading or when there are none. */
function useUsableModels(): CharacterModelView[] {
  const [models, setModels] = useState<CharacterModelView[]>([]);
  useEffect(() => {
    let live = true;
    trainingApi.usable().then(
      (r) => live && setModels(r.list.filter((m) => m.usable)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return models;
}

/**
 * A page's display name, its cover and the trained model shown with it (optional: one of the person's own finished
 * models, or none), as the creation form and the edit screen both ask them (issue 30 item 1).
 */
export function PageIdentityFields({
  value,
  savedCoverId,
  onChange,
}: {
  value: IdentityDraft;
  /** the cover the page has saved (null for a new page): taking a picked photo off goes back to it */
  savedCoverId: number | null;
  onChange: (v: IdentityDraft) => void;
}) {
  const { t } = useTranslation();
  const models = useUsableModels();
  return (
    <>
      <TextField
        label={t("creators.title")}
        value={value.title}
        onChange={(e) => onChange({ ...value, title: e.target.value })}
        required
        slotProps={{ htmlInput: { maxLength: CREATOR_TITLE_MAX, "data-testid": "creator-title" } }}
      />
      {/* minWidth 0 and a column no wider than the box: the picker's one-line hints widened it past its card (issue 46 item 23) */}
      <Box sx={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 0.5, minWidth: 0 }}>
        <Typography variant="subtitle2">{t("creators.cover")}</Typography>
        <PhotoPicker value={value.cover} onChange={(cover) => onChange(withCover(value, cover, savedCoverId))} />
      </Box>
      <TextField
        select
        label={t("creators.model")}
        helperText={t("creators.modelHelp")}
        value={value.role_id ?? ""}
        onChange={(e) => onChange({ ...value, role_id: e.target.value === "" ? null : Number(e.target.value) })}
        slotProps={{ htmlInput: { "data-testid": "creator-model" } }}
      >
        <MenuItem value="">{t("creators.noModel")}</MenuItem>
        {models.map((m) => (
          <MenuItem key={m.id} value={m.id}>
            {m.name}
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}

/** Social links as the form holds them (one per line), as the API takes them. */
export const linksOf = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/** The page's bio and social links (one https address per line), in the creation form and on the edit screen. */
export function PageAboutFields({ bio, links, onBio, onLinks }: { bio: string; links: string; onBio: (v: string) => void; onLinks: (v: string) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t("creators.bio")}
        value={bio}
        onChange={(e) => onBio(e.target.value)}
        multiline
        minRows={3}
        slotProps={{ htmlInput: { maxLength: 500, "data-testid": "creator-bio" } }}
      />
      <TextField
        label={t("creators.links")}
        helperText={t("creators.linksHelp")}
        value={links}
        onChange={(e) => onLinks(e.target.value)}
        multiline
        minRows={2}
        slotProps={{ htmlInput: { "data-testid": "creator-links" } }}
      />
    </>
  );
}
