import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { CONSENT_PURPOSES } from "../../../../server/src/contract/pixels.ts";

export interface Picked {
  analytics: boolean;
  advertising: boolean;
}

/** One switch per purpose; "necessary" is always on. */
export default function ConsentChoices({ picked, onChange }: { picked: Picked; onChange: (next: Picked) => void }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ mt: 1.5, display: "flex", flexDirection: "column", gap: 0.5 }}>
      {CONSENT_PURPOSES.map((purpose) => (
        <Box key={purpose}>
          <FormControlLabel
            control={
              <Switch
                size="small"
                checked={purpose === "necessary" ? true : picked[purpose]}
                disabled={purpose === "necessary"}
                onChange={(e) => purpose !== "necessary" && onChange({ ...picked, [purpose]: e.target.checked })}
                slotProps={{ input: { "data-testid": `consent-${purpose}` } as Record<string, string> }}
              />
            }
            label={t(`consent.purpose.${purpose}`)}
          />
          <Typography variant="caption" color="text.secondary" component="p" sx={{ ml: 5.5, mt: -0.5 }}>
            {t(`consent.purposeHelp.${purpose}`)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
