import Box from "@mui/material/Box";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { WorkflowTier } from "../../../../server/src/contract/engines.ts";
import type { Quote } from "./generation.api.ts";

/**
 * Best or fast (issue 45, decision 370): offered where the request has a workflow of each tier that can run now, each
 * with its own price, and the one honest line of difference. A template pinned to a workflow offers no choice.
 */
export function TierChoice({ value, onChange, quote }: { value: WorkflowTier; onChange: (t: WorkflowTier) => void; quote: Quote | null }) {
  const { t } = useTranslation();
  const tiers = quote?.tiers ?? [];
  if (tiers.length < 2) return null;
  return (
    <Box data-testid="tier-choice" sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary">
        {t("studio.tier.label")}
      </Typography>
      <Box>
        <ToggleButtonGroup exclusive size="small" value={value} onChange={(_e, v: WorkflowTier | null) => v && onChange(v)} sx={{ flexWrap: "wrap" }}>
          {tiers.map((o) => (
            <ToggleButton
              key={o.tier}
              value={o.tier}
              disabled={!o.available}
              data-testid={`tier-${o.tier}`}
              data-price={o.points}
              sx={{ textTransform: "none" }}
            >
              {t(`studio.tier.${o.tier}`, { count: o.points })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      <Typography variant="caption" color="text.secondary" display="block" sx={{ mt: 0.5 }} data-testid="tier-note">
        {t("studio.tier.fastNote")}
      </Typography>
    </Box>
  );
}
