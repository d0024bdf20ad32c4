import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import AddIcon from "@mui/icons-material/Add";
import BoltIcon from "@mui/icons-material/Bolt";
import FaceIcon from "@mui/icons-material/Face";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { dialogs } from "../dialogs/dialog-store.ts";
import { ResultsList } from "../features/generation/ResultsList.tsx";
import { MembershipCard } from "../features/payments/MembershipCard.tsx";
import { useSession } from "../features/session/session.ts";
import { useTrainingAvailable } from "../features/training/useTrainingAvailable.ts";

/** /function: the signed-in user's own space — what they made, and their credits. */
export function Component() {
  const { t } = useTranslation();
  const trainable = useTrainingAvailable();
  const { user } = useSession();
  return (
    <Box sx={{ maxWidth: 1100, mx: "auto", px: { xs: 2, md: 3 }, py: { xs: 3, md: 5 } }} data-testid="function-page">
      <Box
        sx={{
          display: "flex",
          alignItems: { xs: "flex-start", sm: "center" },
          justifyContent: "space-between",
          gap: 2,
          mb: 3,
          flexDirection: { xs: "column", sm: "row" },
        }}
      >
        <Box>
          <Typography variant="h3" component="h1" sx={{ fontSize: { xs: 30, md: 40 } }}>
            {t("results.title")}
          </Typography>
          {user && (
            <Typography color="text.secondary" sx={{ mt: 0.5 }}>
              {t("results.greeting", { name: user.nickname })}
            </Typography>
          )}
        </Box>
        <Box sx={{ display: "flex", gap: 1.5, flexWrap: "wrap" }}>
          <Button variant="outlined" startIcon={<BoltIcon />} onClick={() => dialogs.open("buyCredits")}>
            {t("bottomBar.buyCredits")}
          </Button>
          {trainable && (
            <Button variant="outlined" startIcon={<FaceIcon />} component={RouterLink} to="/training" data-testid="open-training">
              {t("training.entry")}
            </Button>
          )}
          <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/creationStudio">
            {t("results.create")}
          </Button>
        </Box>
      </Box>
      <MembershipCard />
      <ResultsList />
    </Box>
  );
}
