import { useEffect, useRef, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import CircularProgress from "@mui/material/CircularProgress";
import FormControlLabel from "@mui/material/FormControlLabel";
import Step from "@mui/material/Step";
import StepLabel from "@mui/material/StepLabel";
import Stepper from "@mui/material/Stepper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { HOME_LINK_MESSAGES, homeLinkProblem } from "../../../../server/src/contract/home-link.ts";
import { TRAINING_MESSAGES, TRAINING_PHOTOS_MAX, TRAINING_PHOTOS_MIN } from "../../../../server/src/contract/training.ts";
import type { ApiError } from "../../lib/api-client.ts";
import { imageProblem } from "../uploads/upload-rules.ts";
import { uploadImage } from "../uploads/uploads.api.ts";
import { trainingMessage } from "./messages.ts";
import { SelfieCamera } from "./SelfieCamera.tsx";
import { trainingApi, type PhotoCheck, type TrainingAvailability } from "./training.api.ts";
import { TrainingPhotos, type PhotoTile } from "./TrainingPhotos.tsx";

const STEPS = ["setup", "selfie", "photos", "review"] as const;

/**
 * The model-training wizard (SPEC.md §2): set up the model (name, home link, cover), the live selfie, 10-20 photos
 * each checked against it, review and submit. Rules are checked here first with the server's own wording; the
 * server checks everything again and charges only on submit.
 */
export function TrainingWizard({ availability, onSubmitted }: { availability: TrainingAvailability; onSubmitted: () => void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState(0);
  const [name, setName] = useState("");
  const [homeLink, setHomeLink] = useState("");
  const [consent, setConsent] = useState(false);
  const [cover, setCover] = useState<{ id: number; preview: string } | null>(null);
  const [selfieId, setSelfieId] = useState<string | null>(null);
  const [tiles, setTiles] = useState<PhotoTile[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const coverInput = useRef<HTMLInputElement>(null);
  const idempotencyKey = useRef(crypto.randomUUID());

  useEffect(() => () => tiles.forEach((p) => URL.revokeObjectURL(p.preview)), []); // eslint-disable-line react-hooks/exhaustive-deps

  const update = (key: string, patch: Partial<PhotoTile>) => setTiles((all) => all.map((p) => (p.key === key ? { ...p, ...patch } : p)));

  async function chooseCover(file: File | undefined) {
    if (!file) return;
    setError(null);
    const problem = imageProblem(file);
    if (problem) return setError(trainingMessage(problem));
    setBusy(true);
    try {
      const up = await uploadImage(file, file.name, consent);
      setCover({ id: up.id, preview: URL.createObjectURL(file) });
    } catch (e) {
      setError(trainingMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  /** The cover must be the selfie's face too (a role video starts from it): why not, or null. */
  async function coverProblem(selfie: string, coverId: number): Promise<string | null> {
    const check = await trainingApi.checkPhoto(selfie, coverId);
    return check.verdict === "ok" ? null : `${trainingMessage(TRAINING_MESSAGES.coverRefused)}: ${trainingMessage(check.message)}`;
  }

  async function nextFromSetup() {
    const problem = !name.trim() ? TRAINING_MESSAGES.nameRequired : (homeLinkProblem(homeLink) ?? (!cover ? TRAINING_MESSAGES.coverRequired : null));
    if (problem) return setError(trainingMessage(problem));
    const { free } = await trainingApi.homeLinkFree(homeLink.trim()).catch(() => ({ free: true }));
    if (!free) return setError(trainingMessage(HOME_LINK_MESSAGES.taken));
    setError(null);
    // back here to change a refused cover: the selfie is taken already, so the new cover is checked at once
    if (selfieId && cover) return void (await afterSelfie(selfieId, cover.id));
    setStep(1);
  }

  async function afterSelfie(selfie: string, coverId: number) {
    setBusy(true);
    try {
      const problem = await coverProblem(selfie, coverId);
      setError(problem);
      setStep(problem ? 0 : 2);
    } catch (e) {
      setError(trainingMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  function addPhotos(files: File[]) {
    for (const file of files) {
      const key = crypto.randomUUID();
      const tile: PhotoTile = { key, preview: URL.createObjectURL(file), busy: true };
      setTiles((all) => [...all, tile]);
      const problem = imageProblem(file);
      if (problem) {
        update(key, { busy: false, verdict: "unreadable", message: trainingMessage(problem) });
        continue;
      }
      void (async () => {
        try {
          const up = await uploadImage(file, file.name, consent);
          const check: PhotoCheck = await trainingApi.checkPhoto(selfieId!, up.id);
          update(key, { busy: false, uploadId: up.id, verdict: check.verdict, message: trainingMessage(check.message) });
        } catch (e) {
          update(key, { busy: false, verdict: "unreadable", message: trainingMessage((e as Error).message) });
        }
      })();
    }
  }

  const good = tiles.filter((p) => p.verdict === "ok" && p.uploadId);
  const photosReady = good.length >= TRAINING_PHOTOS_MIN && good.length <= TRAINING_PHOTOS_MAX && tiles.every((p) => !p.busy && p.verdict === "ok");

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      await trainingApi.submit({
        name: name.trim(),
        home_link: homeLink.trim(),
        cover_id: cover?.id,
        photo_ids: good.map((p) => p.uploadId!),
        selfie_id: selfieId ?? undefined,
        idempotency_key: idempotencyKey.current,
      });
      setSubmitted(true);
      onSubmitted();
    } catch (e) {
      // the server's own per-photo verdicts (near-duplicates are found only across the set): back to the photos
      const refused = (e as ApiError).data as { photos?: PhotoCheck[]; cover?: PhotoCheck } | null;
      const photos = refused?.photos;
      if (refused?.cover) {
        setStep(0);
        return setError(`${trainingMessage((e as Error).message)}: ${trainingMessage(refused.cover.message)}`);
      }
      if (photos) {
        setTiles((all) =>
          all.map((p) => {
            const c = photos.find((x) => x.upload_id === p.uploadId);
            return c ? { ...p, verdict: c.verdict, message: trainingMessage(c.message) } : p;
          }),
        );
        setStep(2);
      }
      setError(trainingMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  if (submitted)
    return (
      <Alert severity="success" data-testid="training-submitted">
        {t("training.review.submitted")}
      </Alert>
    );
  return (
    <Box data-testid="training-wizard" sx={{ display: "grid", gap: 2 }}>
      <Stepper activeStep={step} alternativeLabel sx={{ "& .MuiStepLabel-label": { fontSize: { xs: 11, sm: 13 } } }}>
        {STEPS.map((s) => (
          <Step key={s}>
            <StepLabel>{t(`training.steps.${s}`)}</StepLabel>
          </Step>
        ))}
      </Stepper>

      {step === 0 && (
        <Box data-testid="setup-step" sx={{ display: "grid", gap: 1.5 }}>
          <TextField
            label={t("training.setup.name")}
            value={name}
            onChange={(e) => setName(e.target.value)}
            inputProps={{ maxLength: 40, "data-testid": "training-name" }}
          />
          <TextField
            label={t("training.setup.homeLink")}
            value={homeLink}
            onChange={(e) => setHomeLink(e.target.value)}
            helperText={t("training.setup.homeLinkHint")}
            inputProps={{ maxLength: 30, "data-testid": "training-home-link" }}
          />
          <input
            ref={coverInput}
            type="file"
            hidden
            accept="image/png,image/jpeg,image/webp,image/bmp"
            data-testid="cover-input"
            onChange={(e) => {
              void chooseCover(e.target.files?.[0]);
              e.target.value = "";
            }}
          />
          <Box sx={{ display: "flex", gap: 1.5, alignItems: "center" }}>
            {cover && (
              <Box
                component="img"
                src={cover.preview}
                alt=""
                data-testid="cover-preview"
                sx={{ width: 72, height: 72, objectFit: "cover", borderRadius: 1.5 }}
              />
            )}
            <Button variant="outlined" onClick={() => coverInput.current?.click()} disabled={!consent || busy} data-testid="cover-choose">
              {cover ? t("training.setup.changeCover") : t("training.setup.chooseCover")}
            </Button>
          </Box>
          <FormControlLabel
            control={<Checkbox checked={consent} onChange={(e) => setConsent(e.target.checked)} data-testid="training-consent" />}
            label={<Typography variant="body2">{t("training.setup.consent")}</Typography>}
          />
          <Button variant="contained" onClick={() => void nextFromSetup()} disabled={busy} data-testid="setup-next">
            {t("training.next")}
          </Button>
        </Box>
      )}

      {step === 1 && (
        <Box sx={{ display: "grid", gap: 1.5 }}>
          <SelfieCamera onDone={setSelfieId} />
          <Box sx={{ display: "flex", gap: 1 }}>
            <Button onClick={() => setStep(0)}>{t("training.back")}</Button>
            <Button
              variant="contained"
              disabled={!selfieId || !cover || busy}
              onClick={() => void afterSelfie(selfieId!, cover!.id)}
              data-testid="selfie-next"
              sx={{ flex: 1 }}
            >
              {t("training.next")}
            </Button>
          </Box>
        </Box>
      )}

      {step === 2 && (
        <Box sx={{ display: "grid", gap: 1.5 }}>
          <TrainingPhotos tiles={tiles} onAdd={addPhotos} onRemove={(key) => setTiles((all) => all.filter((p) => p.key !== key))} />
          {!photosReady && tiles.length > 0 && tiles.every((p) => !p.busy) && (
            <Alert severity="warning" data-testid="photos-problem">
              {trainingMessage(good.length < tiles.length ? TRAINING_MESSAGES.photosRefused : TRAINING_MESSAGES.photosCount)}
            </Alert>
          )}
          <Box sx={{ display: "flex", gap: 1 }}>
            <Button onClick={() => setStep(1)}>{t("training.back")}</Button>
            <Button variant="contained" disabled={!photosReady} onClick={() => setStep(3)} data-testid="photos-next" sx={{ flex: 1 }}>
              {t("training.next")}
            </Button>
          </Box>
        </Box>
      )}

      {step === 3 && (
        <Box data-testid="review-step" sx={{ display: "grid", gap: 1.5 }}>
          <Box sx={{ display: "flex", gap: 1.5, alignItems: "center" }}>
            {cover && <Box component="img" src={cover.preview} alt="" sx={{ width: 72, height: 72, objectFit: "cover", borderRadius: 1.5 }} />}
            <Box sx={{ minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600 }} noWrap>
                {name}
              </Typography>
              <Typography variant="body2" color="text.secondary" noWrap>
                @{homeLink}
              </Typography>
            </Box>
          </Box>
          <Typography>{t("training.review.photos", { count: good.length })}</Typography>
          <Typography>{t("training.review.cost", { price: availability.price, minutes: Math.round(availability.expected_seconds / 60) })}</Typography>
          <Box sx={{ display: "flex", gap: 1 }}>
            <Button onClick={() => setStep(2)}>{t("training.back")}</Button>
            <Button
              variant="contained"
              onClick={() => void submit()}
              disabled={busy}
              data-testid="training-submit"
              sx={{ flex: 1 }}
              startIcon={busy ? <CircularProgress size={18} /> : undefined}
            >
              {t("training.review.submit", { price: availability.price })}
            </Button>
          </Box>
        </Box>
      )}

      {error && (
        <Alert severity="error" data-testid="training-error">
          {error}
        </Alert>
      )}
    </Box>
  );
}
