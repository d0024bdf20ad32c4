import { useEffect, useRef, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import PhotoCameraIcon from "@mui/icons-material/PhotoCamera";
import { useTranslation } from "react-i18next";
import { trainingMessage } from "./messages.ts";
import { trainingApi } from "./training.api.ts";

/** The frames sent are at most this wide: enough for the face model, small enough for one JSON body. */
const FRAME_WIDTH = 640;

function grab(video: HTMLVideoElement): string {
  const scale = Math.min(1, FRAME_WIDTH / video.videoWidth);
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(video.videoWidth * scale);
  canvas.height = Math.round(video.videoHeight * scale);
  canvas.getContext("2d")!.drawImage(video, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL("image/jpeg", 0.9);
}

/**
 * The live selfie of the likeness consent (docs/decisions/092): the camera in the browser, one picture facing it,
 * then one after turning the head as asked. The server checks both frames (one face each, the head turned, the same
 * person) and keeps them as the consent record.
 */
export function SelfieCamera({ onDone }: { onDone: (selfieId: string) => void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [frames, setFrames] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => () => stream?.getTracks().forEach((tr) => tr.stop()), [stream]);

  async function start() {
    setError(null);
    try {
      const s = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "user" }, audio: false });
      setStream(s);
      if (video.current) {
        video.current.srcObject = s;
        await video.current.play();
      }
    } catch {
      setError(t("training.selfie.noCamera"));
    }
  }

  async function capture() {
    if (!video.current) return;
    const next = [...frames, grab(video.current)];
    setFrames(next);
    if (next.length < 2) return;
    setBusy(true);
    try {
      const { selfie_id } = await trainingApi.selfie(next);
      stream?.getTracks().forEach((tr) => tr.stop());
      setStream(null);
      setDone(true);
      onDone(selfie_id);
    } catch (e) {
      setError(trainingMessage((e as Error).message));
      setFrames([]);
    } finally {
      setBusy(false);
    }
  }

  if (done)
    return (
      <Alert severity="success" data-testid="selfie-done">
        {t("training.selfie.done")}
      </Alert>
    );
  return (
    <Box data-testid="selfie-step" sx={{ display: "grid", gap: 1.5 }}>
      <Typography color="text.secondary">{t("training.selfie.why")}</Typography>
      <Box
        sx={{ position: "relative", width: "100%", maxWidth: 420, aspectRatio: "3 / 4", bgcolor: "grey.900", borderRadius: 2, overflow: "hidden", mx: "auto" }}
      >
        <video
          ref={video}
          muted
          playsInline
          data-testid="selfie-video"
          style={{ width: "100%", height: "100%", objectFit: "cover", transform: "scaleX(-1)" }}
        />
        {!stream && (
          <Box sx={{ position: "absolute", inset: 0, display: "grid", placeItems: "center" }}>
            <Button variant="contained" startIcon={<PhotoCameraIcon />} onClick={() => void start()} data-testid="selfie-start">
              {t("training.selfie.start")}
            </Button>
          </Box>
        )}
      </Box>
      {stream && (
        <>
          <Alert severity="info" data-testid="selfie-prompt">
            {frames.length === 0 ? t("training.selfie.lookAtCamera") : t("training.selfie.turnHead")}
          </Alert>
          <Button
            variant="contained"
            onClick={() => void capture()}
            disabled={busy}
            data-testid="selfie-capture"
            startIcon={busy ? <CircularProgress size={18} /> : <PhotoCameraIcon />}
          >
            {frames.length === 0 ? t("training.selfie.captureFirst") : t("training.selfie.captureSecond")}
          </Button>
        </>
      )}
      {error && (
        <Alert severity="error" data-testid="selfie-error">
          {error}
        </Alert>
      )}
    </Box>
  );
}
