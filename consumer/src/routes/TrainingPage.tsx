import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { TRAINING_MESSAGES } from "../../../server/src/contract/training.ts";
import { SaveAccountPrompt } from "../features/session/SaveAccountPrompt.tsx";
import { useSession } from "../features/session/session.ts";
import { ModelList } from "../features/training/ModelList.tsx";
import { trainingMessage } from "../features/training/messages.ts";
import { trainingApi, type TrainingAvailability } from "../features/training/training.api.ts";
import { TrainingWizard } from "../features/training/TrainingWizard.tsx";

/** /training: train a private character model from 10-20 of one's own photos, and the list of one's models. */
export function Component() {
  const { t } = useTranslation();
  const { user } = useSession();
  // a saved account trains: registered, or the messaging channel's (decision 373); a guest is asked to save first
  const saved = user !== null && user.type !== "visitor";
  const [availability, setAvailability] = useState<TrainingAvailability | null>(null);
  const [refresh, setRefresh] = useState(0);

  useEffect(() => {
    trainingApi
      .status()
      .then(setAvailability, () => setAvailability({ available: false, message: null, price: 0, trainer: null, photos_min: 10, expected_seconds: 360 }));
  }, []);

  return (
    <Box sx={{ maxWidth: 720, mx: "auto", px: 2, py: { xs: 3, md: 5 }, display: "grid", gap: 3 }} data-testid="training-page">
      <Box>
        <Typography variant="h3" component="h1" sx={{ fontSize: { xs: 28, md: 38 } }}>
          {t("training.title")}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {t("training.subtitle")}
        </Typography>
      </Box>
      {!availability && <LinearProgress />}
      {availability && !availability.available && (
        <Alert severity="info" data-testid="training-unavailable">
          {trainingMessage(availability.message ?? TRAINING_MESSAGES.unavailable)}
        </Alert>
      )}
      {availability?.available && !saved && <SaveAccountPrompt moment="training" />}
      {availability?.available && saved && <TrainingWizard availability={availability} onSubmitted={() => setRefresh((n) => n + 1)} />}
      {saved && <ModelList refreshKey={refresh} />}
    </Box>
  );
}
