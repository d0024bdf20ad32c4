import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Collapse from "@mui/material/Collapse";
import Slider from "@mui/material/Slider";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { ASPECTS, honours, type Aspect, type Quote } from "./generation.api.ts";

/**
 * The controls beyond the prompt: aspect ratio, negative prompt, seed and strength, each only where the quoted engine
 * honours it (decision 273): a control it would ignore is neither shown nor sent.
 */
export interface Settings {
  /** "auto": none is sent, so the output follows the source photo (square without one) */
  aspect: Aspect | "auto";
  negative_prompt: string;
  /** empty = a random seed, shown on the result */
  seed: string;
  strength: number;
}

export const DEFAULT_SETTINGS: Settings = { aspect: "auto", negative_prompt: "", seed: "", strength: 0.6 };

/** Which of them to show: those the quote lists; strength only where the request has a source to move away from. */
function shown(quote: Quote | null, hasSource: boolean) {
  return {
    aspect: honours(quote, "aspect"),
    negative: honours(quote, "negative_prompt"),
    seed: honours(quote, "seed"),
    strength: hasSource && honours(quote, "strength"),
  };
}

/** What the submit sends: the shown controls only, blank fields left out, the seed only when it is a whole number. */
export function settingsBody(s: Settings, quote: Quote | null, hasSource = false) {
  const on = shown(quote, hasSource);
  const seed = on.seed && /^\d{1,10}$/.test(s.seed.trim()) ? Number(s.seed.trim()) : undefined;
  return {
    ...(on.aspect && s.aspect !== "auto" ? { aspect: s.aspect } : {}),
    ...(on.negative && s.negative_prompt.trim() ? { negative_prompt: s.negative_prompt.trim() } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(on.strength ? { strength: s.strength } : {}),
  };
}

export function MoreSettings({
  value,
  onChange,
  quote,
  hasSource = false,
}: {
  value: Settings;
  onChange: (s: Settings) => void;
  quote: Quote | null;
  hasSource?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const set = (patch: Partial<Settings>) => onChange({ ...value, ...patch });
  const { aspect, negative, seed, strength } = shown(quote, hasSource);
  return (
    <Box>
      {aspect && (
        <Box sx={{ mb: 1.5 }}>
          <Typography variant="caption" color="text.secondary">
            {t("engines.aspect")}
          </Typography>
          <Box>
            <ToggleButtonGroup
              exclusive
              size="small"
              value={value.aspect}
              onChange={(_e, v: Settings["aspect"] | null) => v && set({ aspect: v })}
              data-testid="aspect"
            >
              <ToggleButton value="auto" sx={{ px: 2 }}>
                {t("engines.aspectAuto")}
              </ToggleButton>
              {ASPECTS.map((a) => (
                <ToggleButton key={a} value={a} sx={{ px: 2 }}>
                  {a}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Box>
        </Box>
      )}
      {strength && (
        <Box sx={{ mb: 1.5, maxWidth: 360 }}>
          <Typography variant="caption" color="text.secondary">
            {t("engines.strength", { value: value.strength.toFixed(2) })}
          </Typography>
          <Slider
            size="small"
            min={0}
            max={1}
            step={0.05}
            value={value.strength}
            onChange={(_e, v) => set({ strength: v as number })}
            slotProps={{ input: { "aria-label": t("engines.strength", { value: value.strength.toFixed(2) }) } }}
            data-testid="strength"
          />
        </Box>
      )}
      {(negative || seed) && (
        <Button size="small" onClick={() => setOpen(!open)} data-testid="more-settings">
          {t(open ? "engines.lessSettings" : "engines.moreSettings")}
        </Button>
      )}
      <Collapse in={open && (negative || seed)}>
        <Box sx={{ display: "grid", gap: 2, mt: 1.5 }}>
          {negative && (
            <TextField
              fullWidth
              size="small"
              label={t("engines.negativePrompt")}
              placeholder={t("engines.negativePlaceholder")}
              value={value.negative_prompt}
              onChange={(e) => set({ negative_prompt: e.target.value })}
              slotProps={{ htmlInput: { maxLength: 1000, "data-testid": "negative-prompt" } }}
            />
          )}
          {seed && (
            <TextField
              size="small"
              label={t("engines.seedLabel")}
              helperText={t("engines.seedHelp")}
              value={value.seed}
              onChange={(e) => set({ seed: e.target.value.replace(/\D/g, "").slice(0, 10) })}
              slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": "seed-input" } }}
              sx={{ maxWidth: 280 }}
            />
          )}
        </Box>
      </Collapse>
    </Box>
  );
}
