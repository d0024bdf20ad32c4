import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { DecisionGround } from "../../../../server/src/contract/moderation.ts";

/** What a statement of reasons says in every language: the ground and whether a person or the system decided. */
export function DecisionSummary({ ground, automated, explanation }: { ground: DecisionGround | string; automated: boolean; explanation?: string | null }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "grid", gap: 0.75 }}>
      <Typography variant="body2" data-testid="decision-ground" sx={{ overflowWrap: "anywhere" }}>
        {t("notices.groundLabel", { ground: t(`notices.ground.${ground}`) })}
      </Typography>
      <Box>
        <Chip size="small" variant="outlined" label={automated ? t("notices.automated") : t("notices.byModerator")} data-testid="decision-automated" />
      </Box>
      {explanation ? (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
          {t("notices.explanation", { text: explanation })}
        </Typography>
      ) : null}
    </Box>
  );
}
