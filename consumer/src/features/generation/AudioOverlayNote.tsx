import Alert from "@mui/material/Alert";
import GraphicEqIcon from "@mui/icons-material/GraphicEq";
import { useTranslation } from "react-i18next";
import { honours, LOCAL_DRAFT, type Quote } from "./generation.api.ts";
import { usePrice } from "./usePrice.ts";

/** What the audio overlay screen asks about before any audio is chosen: the default engine's audio overlay, 5 s. */
const BEFORE_AUDIO = { type: "video", mode: "audio_overlay", duration: 5 } as const;

/**
 * What audio overlay will make, from the quote (decision 305): on a GPU engine whose workflow the sound drives, a photo
 * that speaks or sings in time with the audio; on the local draft renderer, the audio under the photo's motion, said
 * as such. Before an audio is chosen (no quote yet) it asks the engine itself; nothing while the engine cannot run it.
 */
export function AudioOverlayNote({ quote }: { quote: Quote | null }) {
  const { t } = useTranslation();
  const own = usePrice(quote ? null : BEFORE_AUDIO);
  const q = quote ?? own;
  if (!q || q.available === false) return null;
  const kind = honours(q, "audio") ? "lip-sync" : q.label === LOCAL_DRAFT ? "local-draft" : "under-motion";
  const text = { "lip-sync": t("studio.audioDriven"), "local-draft": t("studio.audioLocalDraft"), "under-motion": t("studio.audioUnderMotion") }[kind];
  return (
    <Alert
      severity={kind === "lip-sync" ? "success" : "info"}
      icon={<GraphicEqIcon fontSize="inherit" />}
      sx={{ mb: 1.5, borderRadius: 3 }}
      data-testid="audio-note"
      data-kind={kind}
    >
      {text}
    </Alert>
  );
}
