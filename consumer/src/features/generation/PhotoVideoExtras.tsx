import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { CAMERA_MOVES, type CameraMove } from "../../../../server/src/contract/engines.ts";
import { PhotoPicker } from "../uploads/PhotoPicker.tsx";
import type { UploadResult } from "../uploads/uploads.api.ts";
import { honours, type Quote } from "./generation.api.ts";

/** What image to video may add to its photo (issue 33): a second photo the video moves to, or a camera move. */
export interface PhotoVideoExtrasValue {
  endPhoto: UploadResult | null;
  camera: CameraMove | null;
}

export const NO_EXTRAS: PhotoVideoExtrasValue = { endPhoto: null, camera: null };

/** The request's part of them, only what the quote says the engine's workflow takes (decision 273): nothing is dropped unseen. */
export function extrasBody(v: PhotoVideoExtrasValue, quote: Quote | null): { end_image_id?: number; camera?: CameraMove } {
  return {
    ...(v.endPhoto && honours(quote, "end_image") ? { end_image_id: v.endPhoto.id } : {}),
    ...(v.camera && honours(quote, "camera") ? { camera: v.camera } : {}),
  };
}

/**
 * The second photo picker and the camera move select, each shown only where the quote lists it. No workflow takes
 * both, so choosing one re-quotes and the other leaves until it is cleared.
 */
export function PhotoVideoExtras({
  value,
  onChange,
  quote,
}: {
  value: PhotoVideoExtrasValue;
  onChange: (v: PhotoVideoExtrasValue) => void;
  quote: Quote | null;
}) {
  const { t } = useTranslation();
  return (
    <>
      {honours(quote, "end_image") && (
        <Box data-testid="end-photo" sx={{ minWidth: 0 }}>
          <Typography variant="subtitle2" fontWeight={700}>
            {quote?.required.includes("end_image") ? t("studio.endPhotoRequired") : t("studio.endPhoto")}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ display: "block", mb: 1 }}>
            {t("studio.endPhotoHelp")}
          </Typography>
          <PhotoPicker value={value.endPhoto} onChange={(endPhoto) => onChange({ ...value, endPhoto })} />
        </Box>
      )}
      {honours(quote, "camera") && (
        <TextField
          select
          fullWidth
          label={t("studio.camera")}
          value={value.camera ?? ""}
          onChange={(e) => onChange({ ...value, camera: (CAMERA_MOVES as readonly string[]).includes(e.target.value) ? (e.target.value as CameraMove) : null })}
          // "none" is shown as chosen rather than an empty box
          slotProps={{ select: { displayEmpty: true, SelectDisplayProps: { "data-testid": "camera-move" } as object }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="" data-testid="camera-none">
            {t("studio.cameraNone")}
          </MenuItem>
          {CAMERA_MOVES.map((m) => (
            <MenuItem key={m} value={m} data-testid={`camera-${m}`}>
              {t(`studio.cameraMoves.${m}`)}
            </MenuItem>
          ))}
        </TextField>
      )}
    </>
  );
}
