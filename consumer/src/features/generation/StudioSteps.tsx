import Box from "@mui/material/Box";
import { accentGradient } from "../../theme.ts";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import { useTranslation } from "react-i18next";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { STUDIO_MODES, type Resolution } from "../../../../server/src/contract/generation.ts";

/** The studio's building blocks: the mode switch's grid, a numbered step, a prompt box and the resolution and length. */

/** The lengths a video from a photo or from words may be, in seconds. */
export const IMAGE_VIDEO_SECONDS = [5, 10] as const;

/**
 * The mode switch as a grid of equal cells (two a row on phones, one row from 600 px): a wrapping row of toggles put
 * long labels (ru) into staggered rows of different widths at 360 px.
 */
export const MODE_GRID = {
  display: "grid",
  gridTemplateColumns: { xs: "repeat(2, minmax(0, 1fr))", sm: `repeat(${STUDIO_MODES.length}, auto)` },
  justifyContent: "start",
  gap: 1,
  "&& .MuiToggleButtonGroup-grouped": { m: 0, border: "1px solid", borderColor: "divider", borderRadius: 2, px: 2, lineHeight: 1.25 },
  "&& .MuiToggleButtonGroup-grouped.Mui-selected": { borderColor: "primary.main" },
} as const;

/** A prompt box: the whole request in text to video, how the picture moves in the photo modes. */
export function PromptField({ label, placeholder, value, onChange }: { label: string; placeholder: string; value: string; onChange: (v: string) => void }) {
  return (
    <TextField
      fullWidth
      multiline
      minRows={3}
      label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      // the label stays small above the box: a long one (ru, ja) would be cut off inside it at 360 px
      slotProps={{ htmlInput: { maxLength: 1000, "data-testid": "video-prompt" }, inputLabel: { shrink: true } }}
    />
  );
}

export function Step({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <Box>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1.25, mb: 1.5 }}>
        <Box
          sx={{
            width: 26,
            height: 26,
            borderRadius: "50%",
            display: "grid",
            placeItems: "center",
            fontSize: 13,
            fontWeight: 800,
            background: accentGradient,
            color: "#fff",
          }}
        >
          {n}
        </Box>
        <Typography variant="subtitle1" fontWeight={700}>
          {title}
        </Typography>
      </Box>
      {children}
    </Box>
  );
}

export function ResolutionChoice({ value, onChange }: { value: Resolution; onChange: (r: Resolution) => void }) {
  const { t } = useTranslation();
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {t("studio.resolution")}
      </Typography>
      <Box>
        <ToggleButtonGroup exclusive size="small" value={value} onChange={(_e, v: Resolution | null) => v && onChange(v)}>
          <ToggleButton value="480P" data-testid="res-480">
            {t("studio.res480")}
          </ToggleButton>
          <ToggleButton value="720P" data-testid="res-720">
            {t("studio.res720")}
          </ToggleButton>
        </ToggleButtonGroup>
      </Box>
    </Box>
  );
}

export function LengthChoice({ value, onChange }: { value: number; onChange: (seconds: number) => void }) {
  const { t } = useTranslation();
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {t("studio.length")}
      </Typography>
      <Box>
        <ToggleButtonGroup exclusive size="small" value={value} onChange={(_e, v: number | null) => v && onChange(v)}>
          {IMAGE_VIDEO_SECONDS.map((s) => (
            <ToggleButton key={s} value={s} data-testid={`len-${s}`}>
              {t("studio.seconds", { count: s })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
    </Box>
  );
}
