import type { RefObject } from "react";
import Alert from "@mui/material/Alert";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";

/**
 * The uploader's attestation (ARCHITECTURE.md §8): the one box, in the same words, under every upload of people —
 * photos, second photos, motion photos, videos and sounds (issue 46 item 2). `asked`: the person tried to upload before
 * ticking it, so it says why nothing happened.
 */
export function ConsentCheck({
  checked,
  onChange,
  asked,
  inputRef,
  testId = "consent",
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  asked: boolean;
  inputRef?: RefObject<HTMLInputElement | null>;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <FormControlLabel
        sx={{ mt: 1, alignItems: "flex-start" }}
        control={
          <Checkbox
            checked={checked}
            inputRef={inputRef}
            onChange={(e) => onChange(e.target.checked)}
            data-testid={testId}
            sx={{ pt: 0.5, ...(asked ? { color: "warning.main" } : {}) }}
          />
        }
        label={
          <Typography variant="body2" color={asked ? "warning.main" : "text.secondary"}>
            {t("photo.consent")}
          </Typography>
        }
      />
      {asked && !checked && (
        <Alert severity="warning" sx={{ mt: 1 }} data-testid={`${testId}-needed`}>
          {t("msg.consentRequired")}
        </Alert>
      )}
    </>
  );
}
