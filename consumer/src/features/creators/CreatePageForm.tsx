import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { CREATOR_MESSAGES } from "../../../../server/src/contract/creators.ts";
import { HOME_LINK_MAX, homeLinkProblem } from "../../../../server/src/contract/home-link.ts";
import { trainingMessage } from "../training/messages.ts";
import { creatorsApi } from "./creators.api.ts";
import { type IdentityDraft, linksOf, PageAboutFields, PageIdentityFields } from "./PageIdentityFields.tsx";

/**
 * A creator page made directly, without training (issue 30 item 1): home link (SPEC.md §5's rules, checked here
 * first and again by the server), display name, cover, bio and social links; a trained model can be picked now or later.
 */
export function CreatePageForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [homeLink, setHomeLink] = useState("");
  const [identity, setIdentity] = useState<IdentityDraft>({ title: "", cover_id: null, role_id: null, cover: null });
  const [bio, setBio] = useState("");
  const [links, setLinks] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function create() {
    const problem = homeLinkProblem(homeLink) ?? (identity.title.trim() ? null : CREATOR_MESSAGES.titleRequired);
    if (problem) return setError(trainingMessage(problem));
    setError(null);
    setBusy(true);
    try {
      const { title, cover_id, role_id } = identity;
      const page = await creatorsApi.create({ title, cover_id, role_id, home_link: homeLink.trim(), bio, social_links: linksOf(links) });
      navigate(`/${page.home_link}`);
    } catch (e) {
      setError(trainingMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box
      component="form"
      data-testid="create-page-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
      sx={{ display: "grid", gap: 2 }}
    >
      <TextField
        label={t("training.setup.homeLink")}
        helperText={t("training.setup.homeLinkHint")}
        value={homeLink}
        onChange={(e) => setHomeLink(e.target.value)}
        required
        slotProps={{ htmlInput: { maxLength: HOME_LINK_MAX, autoCapitalize: "none", "data-testid": "creator-home-link" } }}
      />
      <PageIdentityFields value={identity} savedCoverId={null} onChange={setIdentity} />
      <PageAboutFields bio={bio} links={links} onBio={setBio} onLinks={setLinks} />
      {error && (
        <Alert severity="error" data-testid="create-page-error">
          {error}
        </Alert>
      )}
      <Button type="submit" variant="contained" size="large" disabled={busy} data-testid="create-page-submit">
        {t("creators.createSubmit")}
      </Button>
    </Box>
  );
}
