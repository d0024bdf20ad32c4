import { Suspense, useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import AutoAwesomeIcon from "@mui/icons-material/AutoAwesome";
import { useTranslation } from "react-i18next";
import { MediaUploader, type TrimmedUpload } from "../uploads/MediaUploader.tsx";
import { PhotoPicker } from "../uploads/PhotoPicker.tsx";
import { UPLOAD_MESSAGES } from "../uploads/upload-rules.ts";
import type { UploadResult } from "../uploads/uploads.api.ts";
import { inLanguage, type Template } from "../templates/templates.api.ts";
import { TemplateCard } from "../templates/TemplateCard.tsx";
import { STUDIO_MODES, type Resolution, type StudioMode } from "../../../../server/src/contract/generation.ts";
import { ModelPicker, type PickedModel } from "../training/ModelPicker.tsx";
import { honours, submitRoleVideo, submitTextVideo, submitVideo, TEXT_OR_ROLE, VIDEO_SUBMIT_FAILED } from "./generation.api.ts";
import { useSubmitTask } from "./useSubmitTask.ts";
import { PriceLine } from "./PriceLine.tsx";
import { TemplateMisfit } from "./TemplateMisfit.tsx";
import { usePrice } from "./usePrice.ts";
import { DEFAULT_SETTINGS, MoreSettings, settingsBody, type Settings } from "./MoreSettings.tsx";
import { extrasBody, NO_EXTRAS, PhotoVideoExtras } from "./PhotoVideoExtras.tsx";
import { MotionChoice, motionPhoto, RESTYLE } from "./MotionChoice.tsx";
import { AudioOverlayNote } from "./AudioOverlayNote.tsx";
import { TierChoice } from "./TierChoice.tsx";
import type { WorkflowTier } from "../../../../server/src/contract/engines.ts";
import { lazyView } from "../../i18n/index.ts";
import type { Remix } from "./remix.ts";
import { KEEP_CLEAR } from "../support/keep-clear.ts";
import { IMAGE_VIDEO_SECONDS, LengthChoice, MODE_GRID, PromptField, ResolutionChoice, Step } from "./StudioSteps.tsx";

const TemplateChooserDialog = lazyView(() => import("../../dialogs/TemplateChooserDialog.tsx"));

/** Image to video, audio overlay and video to video: the inputs, a template, the options and the price, then submit. */
export function VideoCreator({
  mode,
  onMode,
  template,
  onTemplate,
  onSubmitted,
  remix = null,
  initialPhoto = null,
}: {
  /** "use these settings" from the gallery: its prompt and controls to start with, and the item to credit */
  remix?: Remix | null;
  mode: StudioMode;
  onMode: (m: StudioMode) => void;
  template: Template | null;
  onTemplate: (t: Template | null) => void;
  onSubmitted: (taskId: number) => void;
  /** the photo to start from: a character's picture kept from chat ("make a video from this", issue 50) */
  initialPhoto?: UploadResult | null;
}) {
  const { t, i18n } = useTranslation();
  const [photo, setPhoto] = useState<UploadResult | null>(initialPhoto);
  /** image to video: a second photo to move to, or a camera move (issue 33) */
  const [extras, setExtras] = useState(remix?.camera ? { ...NO_EXTRAS, camera: remix.camera } : NO_EXTRAS);
  /** image to video with the person's own trained model instead of a photo (role video) */
  const [model, setModel] = useState<PickedModel | null>(null);
  const [audio, setAudio] = useState<TrimmedUpload | null>(null);
  const [video, setVideo] = useState<TrimmedUpload | null>(null);
  /** video to video: restyle it, or copy its motion onto the person's photo (issue 33) */
  const [mover, setMover] = useState(RESTYLE);
  const [resolution, setResolution] = useState<Resolution>(remix?.resolution ?? "480P");
  const [settings, setSettings] = useState<Settings>(remix?.settings ?? DEFAULT_SETTINGS);
  const [seconds, setSeconds] = useState<number>(IMAGE_VIDEO_SECONDS.find((s) => s === remix?.duration) ?? IMAGE_VIDEO_SECONDS[0]);
  /** text to video: the whole request; the photo modes: how the picture moves, where the engine honours a prompt */
  const [prompt, setPrompt] = useState(remix?.prompt ?? "");
  /** best (full sampling) or fast, where the engine has both for this request (issue 45); asked for only when fast */
  const [tier, setTier] = useState<WorkflowTier>("full");
  const fast = tier === "fast" ? { tier } : {};
  const credit = remix ? { remix_of: remix.id } : {};
  const [chooser, setChooser] = useState(false);
  const { error, showError, busy, submit: send } = useSubmitTask(onSubmitted, VIDEO_SUBMIT_FAILED);

  const needsTemplate = mode === "image_to_video" || mode === "video_to_video";
  /** text to video needs no template, but one chosen from the quick templates (staff may make them) is used */
  const usesTemplate = needsTemplate || mode === "text_to_video";
  const fromWords = mode === "text_to_video";
  const role = mode === "image_to_video" ? model : null;
  const duration =
    mode === "audio_overlay" ? (audio ? audio.end - audio.start : 0) : mode === "video_to_video" ? (video ? video.end - video.start : 0) : seconds;
  const ready =
    mode === "video_to_video"
      ? video !== null
      : fromWords
        ? prompt.trim() !== ""
        : role !== null || (photo !== null && (mode !== "audio_overlay" || audio !== null));
  const price = usePrice(
    duration > 0
      ? {
          type: "video",
          mode: role ? "role_video" : mode,
          role_id: role?.id,
          resolution,
          duration: Math.round(duration * 10) / 10,
          template_id: usesTemplate ? template?.id : undefined,
          // what the person added prices the workflow that takes it
          ...(mode === "image_to_video" && !role ? { end_image_id: extras.endPhoto?.id, camera: extras.camera ?? undefined } : {}),
          ...(mode === "video_to_video" && mover.copy ? { image_id: mover.photo?.id } : {}),
          ...fast,
        }
      : null,
  );
  // a request with no fast workflow (another mode, a pinned template) goes back to best
  useEffect(() => {
    if (price && tier === "fast" && !price.tiers.some((o) => o.tier === "fast")) setTier("full");
  }, [price, tier]);

  /** the prompt, sent only where the engine honours it (a motion prompt it would drop is not shown either) */
  const motion = !fromWords && mode !== "video_to_video" && honours(price, "prompt") && prompt.trim() ? { prompt: prompt.trim() } : {};

  async function submit() {
    if (fromWords && !prompt.trim()) return showError(TEXT_OR_ROLE);
    if (fromWords) {
      const body = { prompt: prompt.trim(), template_id: template?.id, resolution, duration: seconds, ...fast, ...settingsBody(settings, price), ...credit };
      return send((idempotency_key) => submitTextVideo({ ...body, idempotency_key }));
    }
    if ((mode !== "video_to_video" && !photo && !role) || (mode === "video_to_video" && mover.copy && !mover.photo))
      return showError(UPLOAD_MESSAGES.choosePicture);
    if (!ready) return;
    if (needsTemplate && !template) return setChooser(true);
    if (role) {
      const body = {
        role_id: role.id,
        template_id: template?.id,
        resolution,
        duration: seconds,
        ...fast,
        ...motion,
        ...settingsBody(settings, price),
        ...credit,
      };
      return send((idempotency_key) => submitRoleVideo({ ...body, idempotency_key }));
    }
    await send((idempotency_key) =>
      submitVideo({
        image_id: mode === "video_to_video" ? motionPhoto(mover, price)?.id : photo?.id,
        audio_id: mode === "audio_overlay" ? audio?.id : undefined,
        video_id: mode === "video_to_video" ? video?.id : undefined,
        template_id: needsTemplate ? template?.id : undefined,
        resolution,
        duration: Math.round(duration * 10) / 10,
        ...fast,
        ...motion,
        ...(mode === "image_to_video" ? extrasBody(extras, price) : {}),
        ...settingsBody(settings, price, mode === "video_to_video"),
        ...credit,
        idempotency_key,
      }),
    );
  }

  return (
    <Paper sx={{ p: { xs: 2.5, md: 3.5 }, borderRadius: 5, display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 3.5 }}>
      <ToggleButtonGroup exclusive value={mode} onChange={(_e, v: StudioMode | null) => v && onMode(v)} sx={MODE_GRID} size="small" data-testid="mode-switch">
        {STUDIO_MODES.map((m) => (
          <ToggleButton key={m} value={m} data-testid={`mode-${m}`}>
            {t(`modes.${m}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>

      {fromWords ? (
        <Step n={1} title={t("studio.stepWords")}>
          <PromptField label={t("studio.videoPrompt")} placeholder={t("studio.videoPromptPlaceholder")} value={prompt} onChange={setPrompt} />
          {template && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="chosen-template">
              {inLanguage(template.name, template.names, i18n.language)}
            </Typography>
          )}
        </Step>
      ) : mode === "video_to_video" ? (
        <Step n={1} title={t("studio.stepVideo")}>
          <MediaUploader kind="video" onUploaded={setVideo} />
          {video && (
            <Typography variant="body2" color="success.main" sx={{ mt: 1 }} data-testid="video-ready">
              {t("studio.mediaReady", { seconds: (video.end - video.start).toFixed(1) })}
            </Typography>
          )}
          <MotionChoice value={mover} onChange={setMover} quote={price} />
        </Step>
      ) : (
        <Step n={1} title={t("studio.stepPhoto")}>
          <Box sx={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 2, minWidth: 0 }}>
            {mode === "image_to_video" && <ModelPicker value={model} onChange={setModel} quote={price} />}
            {role ? (
              <Typography variant="body2" color="text.secondary" data-testid="model-cover-note">
                {t("studio.modelPicker.coverNote", { name: role.name })}
              </Typography>
            ) : (
              <PhotoPicker value={photo} onChange={setPhoto} />
            )}
            {mode === "image_to_video" && !role && <PhotoVideoExtras value={extras} onChange={setExtras} quote={price} />}
            {honours(price, "prompt") && (
              <PromptField label={t("studio.motionPrompt")} placeholder={t("studio.motionPlaceholder")} value={prompt} onChange={setPrompt} />
            )}
          </Box>
        </Step>
      )}

      {mode === "audio_overlay" && (
        <Step n={2} title={t("studio.stepAudio")}>
          <AudioOverlayNote quote={price} />
          <MediaUploader kind="audio" onUploaded={setAudio} />
          {audio && (
            <Typography variant="body2" color="success.main" sx={{ mt: 1 }} data-testid="audio-ready">
              {t("studio.mediaReady", { seconds: (audio.end - audio.start).toFixed(1) })}
            </Typography>
          )}
        </Step>
      )}

      {needsTemplate && (
        <Step n={2} title={mode === "video_to_video" ? t("studio.stepLook") : t("studio.stepTemplate")}>
          <Box sx={{ display: "flex", gap: 2, alignItems: "center" }}>
            {template && (
              <Box sx={{ width: 96 }}>
                <TemplateCard template={template} selected onClick={() => setChooser(true)} />
              </Box>
            )}
            <Box>
              <Typography fontWeight={600} data-testid="chosen-template">
                {template ? inLanguage(template.name, template.names, i18n.language) : t("studio.noTemplate")}
              </Typography>
              <Button startIcon={<AutoAwesomeIcon />} onClick={() => setChooser(true)} sx={{ mt: 1 }} variant="outlined" data-testid="open-templates">
                {template ? t("studio.changeTemplate") : t("studio.browseTemplates")}
              </Button>
            </Box>
          </Box>
        </Step>
      )}

      <Step n={fromWords ? 2 : 3} title={t("studio.stepOptions")}>
        <Box sx={{ display: "flex", gap: 3, flexWrap: "wrap" }}>
          <ResolutionChoice value={resolution} onChange={setResolution} />
          {(mode === "image_to_video" || fromWords) && <LengthChoice value={seconds} onChange={setSeconds} />}
          <TierChoice value={tier} onChange={setTier} quote={price} />
        </Box>
      </Step>

      <Box sx={{ display: "grid", gap: 1.5 }}>
        <MoreSettings value={settings} onChange={setSettings} quote={price} hasSource={mode === "video_to_video"} />
        <TemplateMisfit quote={price} />
        <PriceLine quote={price} />
        {error && (
          <Alert severity="error" data-testid="submit-error">
            {error}
          </Alert>
        )}
        <Button
          variant="contained"
          size="large"
          disabled={busy || price?.available === false || !!price?.misfit}
          onClick={() => void submit()}
          data-testid="generate"
          {...KEEP_CLEAR}
          sx={{ py: 1.5 }}
        >
          {busy ? <CircularProgress size={24} color="inherit" /> : t("studio.generate")}
        </Button>
      </Box>

      {chooser && (
        <Suspense fallback={null}>
          <TemplateChooserDialog
            mode={mode}
            selectedId={template?.id ?? null}
            onClose={() => setChooser(false)}
            onChoose={(tpl) => {
              onTemplate(tpl);
              setChooser(false);
            }}
          />
        </Suspense>
      )}
    </Paper>
  );
}
