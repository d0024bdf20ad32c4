import { useRef, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import AddPhotoAlternateIcon from "@mui/icons-material/AddPhotoAlternate";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../../i18n/index.ts";
import { ApiError, failedWithoutAnswer } from "../../lib/api-client.ts";
import { ImageCropper } from "./ImageCropper.tsx";
import { imageProblem, UPLOAD_MESSAGES } from "./upload-rules.ts";
import { uploadImage, type UploadResult } from "./uploads.api.ts";
import { HeldNotice } from "./HeldNotice.tsx";
import { EarlierUploads } from "./EarlierUploads.tsx";
import { ConsentCheck } from "./ConsentCheck.tsx";

/** SPEC.md §8 upload texts for failures the server did not explain itself; its own refusals are shown as they are. */
function uploadFailure(e: unknown): string {
  if (e instanceof ApiError && e.code === 413) return UPLOAD_MESSAGES.imageSizeExceeded;
  if (failedWithoutAnswer(e)) return UPLOAD_MESSAGES.imageUploadFailed;
  return (e as Error).message;
}

/**
 * Pick a photo, crop it, attest consent (ARCHITECTURE.md §8), upload. The format and size rules are checked
 * on the original file before cropping; the server decodes the upload again by content.
 */
export function PhotoPicker({ value, onChange }: { value: UploadResult | null; onChange: (upload: UploadResult | null) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const consentBox = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<File | null>(null);
  const [consent, setConsent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The server's message when screening held the last upload (it is not chosen). */
  const [held, setHeld] = useState<string | null>(null);
  /** Tapping the photo area before the consent box says why nothing opens and points at the box. */
  const [needsConsent, setNeedsConsent] = useState(false);

  function openPicker() {
    if (consent) return input.current?.click();
    setNeedsConsent(true);
    consentBox.current?.focus();
    consentBox.current?.scrollIntoView({ block: "center", behavior: "smooth" });
  }

  function choose(file: File | undefined) {
    if (!file) return;
    setError(null);
    setHeld(null);
    const problem = imageProblem(file);
    if (problem) return setError(translateMessage(problem));
    setPending(file);
  }

  async function upload(blob: Blob, name: string) {
    setPending(null);
    setBusy(true);
    try {
      const result = await uploadImage(blob, `${name.replace(/\.\w+$/, "")}.jpg`, consent);
      if (result.review_message) {
        setHeld(result.review_message);
        onChange(null);
      } else onChange(result);
    } catch (e) {
      setError(translateMessage(uploadFailure(e)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box data-testid="photo-picker">
      <input
        ref={input}
        type="file"
        hidden
        accept="image/png,image/jpeg,image/webp,image/bmp"
        data-testid="photo-input"
        onChange={(e) => {
          choose(e.target.files?.[0]);
          e.target.value = "";
        }}
      />
      {!value && !busy && <EarlierUploads kind="image" onPick={onChange} />}
      <Box
        component="button"
        type="button"
        disabled={busy}
        onClick={openPicker}
        data-testid="photo-choose"
        sx={{
          width: "100%",
          aspectRatio: value ? "auto" : "16 / 9",
          minHeight: 180,
          borderRadius: 4,
          border: "1.5px dashed",
          borderColor: value ? "primary.main" : "divider",
          bgcolor: "rgba(255,255,255,0.02)",
          color: "text.secondary",
          cursor: "pointer",
          font: "inherit",
          display: "grid",
          placeItems: "center",
          overflow: "hidden",
          p: 0,
          opacity: consent || value ? 1 : 0.6,
          "&:hover": { borderColor: consent ? "primary.main" : "divider" },
        }}
      >
        {busy ? (
          <CircularProgress />
        ) : value ? (
          <Box
            component="img"
            src={value.thumb_url ?? value.file_url}
            alt={t("photo.chosen")}
            data-testid="photo-preview"
            sx={{ maxHeight: 280, maxWidth: "100%", display: "block" }}
          />
        ) : (
          <Box sx={{ display: "grid", placeItems: "center", gap: 1, p: 3 }}>
            <AddPhotoAlternateIcon sx={{ fontSize: 44, color: "primary.main" }} />
            <Typography fontWeight={600} color="text.primary">
              {t("photo.choose")}
            </Typography>
            <Typography variant="caption">{t("photo.limits")}</Typography>
            {!consent && (
              <Typography variant="caption" color="warning.main" data-testid="consent-first">
                {t("newcomer.photo.consentFirst")}
              </Typography>
            )}
          </Box>
        )}
      </Box>
      <ConsentCheck
        checked={consent}
        inputRef={consentBox}
        asked={needsConsent}
        onChange={(checked) => {
          setConsent(checked);
          if (checked) setNeedsConsent(false);
        }}
      />
      {value && (
        <Button size="small" onClick={() => onChange(null)} sx={{ ml: 1 }} data-testid="photo-replace">
          {t("photo.replace")}
        </Button>
      )}
      {error && (
        <Alert severity="error" sx={{ mt: 1 }} data-testid="upload-error">
          {error}
        </Alert>
      )}
      {held && <HeldNotice message={held} />}
      {pending && (
        <ImageCropper
          file={pending}
          onCancel={() => setPending(null)}
          onDone={(blob) => void upload(blob, pending.name)}
          onUnreadable={() => {
            setPending(null);
            setError(translateMessage(UPLOAD_MESSAGES.imageUnreadable));
          }}
        />
      )}
    </Box>
  );
}
