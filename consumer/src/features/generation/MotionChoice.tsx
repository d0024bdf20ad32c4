import Box from "@mui/material/Box";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { PhotoPicker } from "../uploads/PhotoPicker.tsx";
import type { UploadResult } from "../uploads/uploads.api.ts";
import { honours, type Quote } from "./generation.api.ts";

/** Video to video: restyle the video, or copy its motion onto the person's photo (issue 33, decision 306). */
export interface MotionValue {
  copy: boolean;
  photo: UploadResult | null;
}

export const RESTYLE: MotionValue = { copy: false, photo: null };

/** The photo that performs the video's motion, only where it is chosen and the quote says the engine's workflow takes it (decision 273). */
export const motionPhoto = (v: MotionValue, quote: Quote | null): UploadResult | null => (v.copy && honours(quote, "motion") ? v.photo : null);

/**
 * The choice between restyling the video and copying its motion, shown only where the quote lists `motion`; copying
 * asks for the person's photo.
 */
export function MotionChoice({ value, onChange, quote }: { value: MotionValue; onChange: (v: MotionValue) => void; quote: Quote | null }) {
  const { t } = useTranslation();
  if (!honours(quote, "motion")) return null;
  return (
    <Box sx={{ display: "grid", gap: 1.5, mt: 2, minWidth: 0 }} data-testid="video-choice">
      <Typography variant="subtitle2" fontWeight={700}>
        {t("studio.videoChoice")}
      </Typography>
      <ToggleButtonGroup exclusive size="small" value={value.copy} onChange={(_e, copy: boolean | null) => copy !== null && onChange({ ...value, copy })}>
        <ToggleButton value={false} data-testid="choice-restyle">
          {t("studio.restyle")}
        </ToggleButton>
        <ToggleButton value={true} data-testid="choice-copy-motion">
          {t("studio.copyMotion")}
        </ToggleButton>
      </ToggleButtonGroup>
      {value.copy && (
        <Box data-testid="motion-photo" sx={{ minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary" sx={{ display: "block", mb: 1 }}>
            {t("studio.copyMotionHelp")}
          </Typography>
          <PhotoPicker value={value.photo} onChange={(photo) => onChange({ ...value, photo })} />
        </Box>
      )}
    </Box>
  );
}
