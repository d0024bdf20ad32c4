import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { getPrompts, inLanguage, type PromptSuggestion } from "../templates/templates.api.ts";
import type { ImageMode } from "../../../../server/src/contract/generation.ts";
import { ModelPicker, type PickedModel } from "../training/ModelPicker.tsx";
import { PhotoPicker } from "../uploads/PhotoPicker.tsx";
import type { UploadResult } from "../uploads/uploads.api.ts";
import { honours, submitImages, TEXT_OR_ROLE } from "./generation.api.ts";
import { useSubmitTask } from "./useSubmitTask.ts";
import { PriceLine } from "./PriceLine.tsx";
import { usePrice } from "./usePrice.ts";
import { DEFAULT_SETTINGS, MoreSettings, settingsBody, type Settings } from "./MoreSettings.tsx";
import { KEEP_CLEAR } from "../support/keep-clear.ts";
import type { Remix } from "./remix.ts";

const BATCH_SIZES = [2, 4] as const;

/** Text to image, and a batch of images from one prompt; `remix`: a gallery item's settings to start with, credited on submit. */
export function ImageCreator({ onSubmitted, remix = null }: { onSubmitted: (taskId: number) => void; remix?: Remix | null }) {
  const { t, i18n } = useTranslation();
  const [mode, setMode] = useState<ImageMode>(remix?.action === "image_batch" ? "image_batch" : "text_to_image");
  const [prompt, setPrompt] = useState(remix?.prompt ?? "");
  const [model, setModel] = useState<PickedModel | null>(null);
  /** a reference picture (image to image), offered where the engine takes one; a character model takes its place */
  const [reference, setReference] = useState<UploadResult | null>(null);
  const [count, setCount] = useState<number>(BATCH_SIZES.find((n) => n === remix?.count) ?? BATCH_SIZES[1]);
  const [suggestions, setSuggestions] = useState<PromptSuggestion[]>([]);
  const [settings, setSettings] = useState<Settings>(remix?.settings ?? DEFAULT_SETTINGS);
  const { error, showError, busy, submit: send } = useSubmitTask(onSubmitted);
  const price = usePrice({ type: "image", mode, count: mode === "image_batch" ? count : 1, role_id: model?.id });
  const picture = !model && honours(price, "image") ? reference : null;

  useEffect(() => {
    getPrompts()
      .then((list) => setSuggestions(list.slice(0, 6)))
      .catch(() => setSuggestions([]));
  }, []);

  async function submit() {
    if (!prompt.trim() && !model && !picture) return showError(TEXT_OR_ROLE);
    await send((idempotency_key) =>
      submitImages(mode, {
        prompt: prompt.trim() || undefined,
        role_id: model?.id,
        image_id: picture?.id,
        count: mode === "image_batch" ? count : undefined,
        ...settingsBody(settings, price, picture !== null),
        ...(remix ? { remix_of: remix.id } : {}),
        idempotency_key,
      }),
    );
  }

  return (
    <Paper sx={{ p: { xs: 2.5, md: 3.5 }, borderRadius: 5, display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 3 }}>
      <ToggleButtonGroup exclusive size="small" value={mode} onChange={(_e, v: ImageMode | null) => v && setMode(v)}>
        <ToggleButton value="text_to_image" data-testid="mode-text_to_image" sx={{ px: 2 }}>
          {t("modes.text_to_image")}
        </ToggleButton>
        <ToggleButton value="image_batch" data-testid="mode-image_batch" sx={{ px: 2 }}>
          {t("modes.image_batch")}
        </ToggleButton>
      </ToggleButtonGroup>
      <ModelPicker value={model} onChange={setModel} quote={price} />
      {!model && honours(price, "image") && (
        <Box data-testid="reference-picture">
          <Typography variant="subtitle2">{t("studio.reference")}</Typography>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
            {t("studio.referenceHelp")}
          </Typography>
          <PhotoPicker value={reference} onChange={setReference} />
        </Box>
      )}
      <Box>
        <TextField
          fullWidth
          multiline
          minRows={4}
          label={t("studio.prompt")}
          placeholder={t("studio.promptPlaceholder")}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 1000, "data-testid": "prompt" } }}
        />
        {suggestions.length > 0 && (
          <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", mt: 1.5 }}>
            {suggestions.map((s) => {
              const text = inLanguage(s.text, s.texts, i18n.language);
              return <Chip key={s.id} label={text} variant="outlined" onClick={() => setPrompt(text)} data-testid="prompt-chip" sx={{ maxWidth: "100%" }} />;
            })}
          </Box>
        )}
      </Box>
      {mode === "image_batch" && (
        <Box>
          <Typography variant="caption" color="text.secondary">
            {t("studio.batchCount")}
          </Typography>
          <Box>
            <ToggleButtonGroup exclusive size="small" value={count} onChange={(_e, v: number | null) => v && setCount(v)}>
              {BATCH_SIZES.map((n) => (
                <ToggleButton key={n} value={n}>
                  {t("studio.images", { count: n })}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Box>
        </Box>
      )}
      <MoreSettings value={settings} onChange={setSettings} quote={price} hasSource={picture !== null} />
      <PriceLine quote={price} />
      {error && (
        <Alert severity="error" data-testid="submit-error">
          {error}
        </Alert>
      )}
      <Button
        variant="contained"
        size="large"
        disabled={busy || price?.available === false}
        onClick={() => void submit()}
        data-testid="generate-images"
        {...KEEP_CLEAR}
        sx={{ py: 1.5 }}
      >
        {busy ? <CircularProgress size={24} color="inherit" /> : t("studio.generateImages")}
      </Button>
    </Paper>
  );
}
