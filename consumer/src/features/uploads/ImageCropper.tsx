import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Slider from "@mui/material/Slider";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import ZoomInIcon from "@mui/icons-material/ZoomIn";
import { useTranslation } from "react-i18next";
import { centredView, clampView, coverScale, renderCrop, type CropView, type Size } from "./crop.ts";

export const ASPECTS = { portrait: 9 / 16, square: 1, landscape: 16 / 9 } as const;
export type Aspect = keyof typeof ASPECTS;
const FRAME_LONG_SIDE = 360;

function frameFor(aspect: Aspect): Size {
  const r = ASPECTS[aspect];
  return r >= 1 ? { width: FRAME_LONG_SIDE, height: FRAME_LONG_SIDE / r } : { width: FRAME_LONG_SIDE * r, height: FRAME_LONG_SIDE };
}

/** SPEC.md §2 image cropper: drag to frame the photo, zoom, choose the video's shape; the crop is cut in the browser. */
export function ImageCropper({
  file,
  onDone,
  onCancel,
  onUnreadable,
}: {
  file: File;
  onDone: (blob: Blob) => void;
  onCancel: () => void;
  onUnreadable: () => void;
}) {
  const { t } = useTranslation();
  const [url] = useState(() => URL.createObjectURL(file));
  const img = useRef<HTMLImageElement>(null);
  const [natural, setNatural] = useState<Size | null>(null);
  const [aspect, setAspect] = useState<Aspect>("portrait");
  const [view, setView] = useState<CropView>({ x: 0, y: 0, zoom: 1 });
  const drag = useRef<{ px: number; py: number; x: number; y: number } | null>(null);
  const frame = frameFor(aspect);

  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  useEffect(() => {
    if (natural) setView(centredView(natural, frameFor(aspect)));
  }, [natural, aspect]);

  const scale = natural ? coverScale(natural, frame) * view.zoom : 1;

  function onPointerDown(e: ReactPointerEvent) {
    (e.target as Element).setPointerCapture(e.pointerId);
    drag.current = { px: e.clientX, py: e.clientY, x: view.x, y: view.y };
  }
  function onPointerMove(e: ReactPointerEvent) {
    if (!drag.current || !natural) return;
    const d = drag.current;
    setView(clampView({ zoom: view.zoom, x: d.x + e.clientX - d.px, y: d.y + e.clientY - d.py }, natural, frame));
  }
  function zoomTo(zoom: number) {
    if (!natural) return;
    // zoom around the frame's centre
    const old = coverScale(natural, frame) * view.zoom;
    const next = coverScale(natural, frame) * zoom;
    const cx = frame.width / 2;
    const cy = frame.height / 2;
    setView(clampView({ zoom, x: cx - ((cx - view.x) / old) * next, y: cy - ((cy - view.y) / old) * next }, natural, frame));
  }

  return (
    <Dialog open onClose={onCancel} maxWidth="sm" fullWidth data-testid="cropper">
      <DialogTitle>{t("cropper.title")}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: "flex", justifyContent: "center", mb: 2 }}>
          <ToggleButtonGroup size="small" exclusive value={aspect} onChange={(_e, v: Aspect | null) => v && setAspect(v)}>
            {(Object.keys(ASPECTS) as Aspect[]).map((a) => (
              <ToggleButton key={a} value={a} data-testid={`aspect-${a}`} sx={{ px: 2 }}>
                {t(`cropper.${a}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </Box>
        <Box
          sx={{
            position: "relative",
            mx: "auto",
            overflow: "hidden",
            borderRadius: 3,
            bgcolor: "#000",
            cursor: "grab",
            touchAction: "none",
            outline: "2px solid rgba(167,139,250,0.7)",
            "&:active": { cursor: "grabbing" },
          }}
          style={{ width: frame.width, height: frame.height }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={() => (drag.current = null)}
          data-testid="crop-frame"
        >
          <img
            ref={img}
            src={url}
            alt={t("cropper.alt")}
            draggable={false}
            onLoad={(e) => setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
            onError={onUnreadable}
            style={{
              position: "absolute",
              left: 0,
              top: 0,
              transformOrigin: "0 0",
              transform: `translate(${view.x}px, ${view.y}px) scale(${scale})`,
              maxWidth: "none",
              userSelect: "none",
              pointerEvents: "none",
              visibility: natural ? "visible" : "hidden",
            }}
          />
          <Box
            sx={{
              position: "absolute",
              inset: 0,
              pointerEvents: "none",
              backgroundImage:
                "linear-gradient(rgba(255,255,255,.18) 1px, transparent 1px), linear-gradient(90deg, rgba(255,255,255,.18) 1px, transparent 1px)",
              backgroundSize: `${frame.width / 3}px ${frame.height / 3}px`,
              backgroundPosition: "-1px -1px",
            }}
          />
        </Box>
        <Box sx={{ display: "flex", alignItems: "center", gap: 2, maxWidth: 360, mx: "auto", mt: 2 }}>
          <ZoomInIcon color="action" />
          <Slider min={1} max={3} step={0.01} value={view.zoom} onChange={(_e, v) => zoomTo(v as number)} aria-label={t("cropper.zoom")} />
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel}>{t("common.cancel")}</Button>
        <Button
          variant="contained"
          disabled={!natural}
          data-testid="crop-confirm"
          onClick={() => img.current && void renderCrop(img.current, view, frame).then(onDone)}
        >
          {t("cropper.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
