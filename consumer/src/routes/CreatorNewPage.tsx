import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { creatorsApi, type OwnPageView } from "../features/creators/creators.api.ts";
import { CreatePageForm } from "../features/creators/CreatePageForm.tsx";
import { SaveAccountPrompt } from "../features/session/SaveAccountPrompt.tsx";
import { useSession } from "../features/session/session.ts";

/**
 * /creator: "Create my page" (issue 30 item 1). A guest saves the account first; a person with a page is sent to it;
 * anyone else signed in makes one here, with or without a trained model.
 */
export function Component() {
  const { t } = useTranslation();
  const { user } = useSession();
  const signedIn = Boolean(user && user.type !== "visitor");
  // undefined while asking; null: no page yet
  const [mine, setMine] = useState<OwnPageView | null | undefined>(undefined);
  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    creatorsApi.mine().then(
      (p) => live && setMine(p),
      () => live && setMine(null),
    );
    return () => {
      live = false;
    };
  }, [signedIn]);

  return (
    <Box sx={{ maxWidth: 640, mx: "auto", px: 2, py: { xs: 3, md: 5 }, display: "grid", gap: 2.5 }} data-testid="creator-new-page">
      <Box>
        <Typography variant="h4" component="h1" sx={{ fontSize: { xs: 26, md: 34 } }}>
          {t("creators.createTitle")}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {t("creators.createSubtitle")}
        </Typography>
      </Box>
      {!signedIn && <SaveAccountPrompt moment="page" />}
      {signedIn && mine === undefined && <LinearProgress />}
      {signedIn && mine === null && <CreatePageForm />}
      {signedIn && mine && (
        <Button variant="contained" component={RouterLink} to={`/${mine.home_link}`} data-testid="creator-open-own" sx={{ justifySelf: "start" }}>
          {t("creators.openPage")}
        </Button>
      )}
    </Box>
  );
}
