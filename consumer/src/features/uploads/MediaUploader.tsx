import { useEffect, useRef, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Slider from "@mui/material/Slider";
import Typography from "@mui/material/Typography";
import AudiotrackIcon from "@mui/icons-material/Audiotrack";
import MovieIcon from "@mui/icons-material/Movie";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../../i18n/index.ts";
import { uploadMedia, type UploadResult } from "./uploads.api.ts";
import { Waveform } from "./Waveform.tsx";
import { HeldNotice } from "./HeldNotice.tsx";
import { EarlierUploads } from "./EarlierUploads.tsx";
import { ConsentCheck } from "./ConsentCheck.tsx";
import { durationProblem, LIMITS, mediaFileProblem, readDuration, trimProblem } from "./upload-rules.ts";

export interface TrimmedUpload extends UploadResult {
  start: number;
  end: number;
}

function clock(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds - m * 60;
  return `${m}:${s.toFixed(1).padStart(4, "0")}`;
}

/** Keeps a [start, end] selection between 4 and 30 seconds long by moving the thumb the user is not dragging. */
export function constrainRange([start, end]: [number, number], moved: 0 | 1, duration: number): [number, number] {
  const min = Math.min(LIMITS.trimMinSec, duration);
  if (moved === 0) {
    if (end - start < min) end = Math.min(duration, start + min);
    if (end - start > LIMITS.trimMaxSec) end = start + LIMITS.trimMaxSec;
    if (end - start < min) start = Math.max(0, end - min);
  } else {
    if (end - start < min) start = Math.max(0, end - min);
    if (end - start > LIMITS.trimMaxSec) start = end - LIMITS.trimMaxSec;
    if (end - start < min) end = Math.min(duration, start + min);
  }
  return [start, end];
}

/** SPEC.md §2 audio and video uploader with trimming: the rules are checked here, then again by the server. */
export function MediaUploader({ kind, onUploaded }: { kind: "audio" | "video"; onUploaded: (upload: TrimmedUpload) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const player = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [duration, setDuration] = useState(0);
  const [range, setRange] = useState<[number, number]>([0, LIMITS.trimMaxSec]);
  const [error, setError] = useState<string | null>(null);
  /** The server's message when screening held the upload (it is not handed on, so it cannot be used). */
  const [held, setHeld] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** the attestation every upload of people carries (issue 46 item 2): a sound or a video is someone's too */
  const consentBox = useRef<HTMLInputElement>(null);
  const [consent, setConsent] = useState(false);
  const [needsConsent, setNeedsConsent] = useState(false);

  /** Choosing or sending before the box is ticked says why nothing happens and points at the box. */
  function consentFirst(): boolean {
    if (consent) return true;
    setNeedsConsent(true);
    consentBox.current?.focus();
    consentBox.current?.scrollIntoView({ block: "center", behavior: "smooth" });
    return false;
  }

  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  async function choose(chosen: File | undefined) {
    if (!chosen) return;
    setError(null);
    setFile(null);
    const problem = mediaFileProblem(kind, chosen);
    if (problem) return setError(translateMessage(problem));
    setBusy(true);
    const seconds = await readDuration(kind, chosen);
    setBusy(false);
    const lengthProblem = durationProblem(kind, seconds);
    if (lengthProblem || seconds === null) return setError(translateMessage(lengthProblem ?? ""));
    setFile(chosen);
    setUrl(URL.createObjectURL(chosen));
    setDuration(seconds);
    setRange([0, Math.min(seconds, LIMITS.trimMaxSec)]);
  }

  async function upload() {
    if (!file || !consentFirst()) return;
    const problem = trimProblem(range[0], range[1], duration);
    if (problem) return setError(translateMessage(problem));
    setBusy(true);
    setError(null);
    setHeld(null);
    try {
      const result = await uploadMedia(kind, file, { start: range[0], end: range[1] }, consent);
      if (result.review_message) setHeld(result.review_message);
      else onUploaded({ ...result, start: range[0], end: range[1] });
    } catch (e) {
      setError(translateMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  function preview() {
    const el = player.current;
    if (!el) return;
    el.currentTime = range[0];
    void el.play();
    const stop = () => {
      if (el.currentTime >= range[1]) {
        el.pause();
        el.removeEventListener("timeupdate", stop);
      }
    };
    el.addEventListener("timeupdate", stop);
  }

  const Icon = kind === "audio" ? AudiotrackIcon : MovieIcon;
  return (
    <Box data-testid={`${kind}-uploader`}>
      <input
        ref={input}
        type="file"
        hidden
        accept={kind === "audio" ? "audio/*" : "video/*"}
        data-testid={`${kind}-input`}
        onChange={(e) => {
          void choose(e.target.files?.[0]);
          e.target.value = "";
        }}
      />
      {/* an earlier upload was trimmed when it was made: all of it is the selection */}
      {!file && !busy && <EarlierUploads kind={kind} onPick={(u) => onUploaded({ ...u, start: 0, end: u.duration ?? 0 })} />}
      {!file && (
        <Box
          component="button"
          type="button"
          onClick={() => consentFirst() && input.current?.click()}
          data-testid={`${kind}-choose`}
          sx={{
            width: "100%",
            py: 5,
            borderRadius: 4,
            border: "1.5px dashed",
            borderColor: "divider",
            bgcolor: "rgba(255,255,255,0.02)",
            color: "text.secondary",
            cursor: "pointer",
            font: "inherit",
            display: "grid",
            placeItems: "center",
            gap: 1,
            "&:hover": { borderColor: "primary.main" },
          }}
        >
          {busy ? <CircularProgress size={28} /> : <Icon sx={{ fontSize: 36, color: "primary.main" }} />}
          <Typography fontWeight={600} color="text.primary">
            {t(`uploader.choose.${kind}`)}
          </Typography>
          <Typography variant="caption">{t(`uploader.limits.${kind}`)}</Typography>
          {!consent && (
            <Typography variant="caption" color="warning.main">
              {t("newcomer.photo.consentFirst")}
            </Typography>
          )}
        </Box>
      )}
      {file && url && (
        <Box sx={{ p: 2, borderRadius: 4, border: 1, borderColor: "divider" }}>
          {kind === "video" ? (
            <video ref={player} src={url} muted playsInline style={{ width: "100%", maxHeight: 260, borderRadius: 12, background: "#000" }} />
          ) : (
            <audio ref={player} src={url} style={{ width: "100%" }} controls />
          )}
          {kind === "audio" && <Waveform file={file} duration={duration} range={range} />}
          <Typography variant="subtitle2" sx={{ mt: 2 }}>
            {t("uploader.trim")}
          </Typography>
          <Box sx={{ px: 1 }}>
            <Slider
              value={range}
              min={0}
              max={duration}
              step={0.1}
              disableSwap
              valueLabelDisplay="auto"
              valueLabelFormat={clock}
              onChange={(_e, v, thumb) => setRange(constrainRange(v as [number, number], thumb as 0 | 1, duration))}
              getAriaLabel={(i) => t(i === 0 ? "uploader.trimStart" : "uploader.trimEnd")}
              data-testid="trim-slider"
            />
          </Box>
          <Box sx={{ display: "flex", justifyContent: "space-between", color: "text.secondary" }}>
            <Typography variant="caption">{clock(range[0])}</Typography>
            <Typography variant="caption" data-testid="trim-length">
              {t("uploader.selected", { seconds: (range[1] - range[0]).toFixed(1) })}
            </Typography>
            <Typography variant="caption">{clock(range[1])}</Typography>
          </Box>
          {/* the chosen part's action takes a row of its own: beside the other two it squeezed all three onto one another on
              a phone; those two keep a smaller inset so that both fit one row of a phone in every language, and wrap if not */}
          <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1, mt: 2 }}>
            <Button onClick={preview} sx={{ px: 1.5 }}>
              {t(`uploader.preview.${kind}`)}
            </Button>
            <Button onClick={() => input.current?.click()} sx={{ px: 1.5 }}>
              {t("uploader.replace")}
            </Button>
            <Button variant="contained" fullWidth disabled={busy} onClick={() => void upload()} data-testid={`${kind}-upload`}>
              {busy ? <CircularProgress size={20} color="inherit" /> : t("uploader.use")}
            </Button>
          </Box>
        </Box>
      )}
      <ConsentCheck
        checked={consent}
        inputRef={consentBox}
        asked={needsConsent}
        testId={`${kind}-consent`}
        onChange={(checked) => {
          setConsent(checked);
          if (checked) setNeedsConsent(false);
        }}
      />
      {error && (
        <Alert severity="error" sx={{ mt: 1.5 }} data-testid="upload-error">
          {error}
        </Alert>
      )}
      {held && <HeldNotice message={held} />}
    </Box>
  );
}
