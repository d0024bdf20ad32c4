import { useEffect, useRef } from "react";
import Box from "@mui/material/Box";

const BARS = 120;

/** Peak levels of an audio file, one per bar, decoded in the browser. Empty when the browser cannot decode it. */
async function peaks(file: File): Promise<number[]> {
  const context = new OfflineAudioContext(1, 1, 8000);
  const audio = await context.decodeAudioData(await file.arrayBuffer());
  const data = audio.getChannelData(0);
  const step = Math.max(1, Math.floor(data.length / BARS));
  const out: number[] = [];
  for (let i = 0; i < BARS; i++) {
    let max = 0;
    for (let j = i * step; j < Math.min(data.length, (i + 1) * step); j += 16) max = Math.max(max, Math.abs(data[j]));
    out.push(max);
  }
  const top = Math.max(...out, 0.01);
  return out.map((v) => v / top);
}

/** The audio's waveform with the chosen part highlighted, drawn under the trimming slider. */
export function Waveform({ file, duration, range }: { file: File; duration: number; range: [number, number] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const levels = useRef<number[]>([]);

  function draw() {
    const el = canvas.current;
    const ctx = el?.getContext("2d");
    if (!el || !ctx) return;
    const { width, height } = el;
    ctx.clearRect(0, 0, width, height);
    const bar = width / BARS;
    levels.current.forEach((level, i) => {
      const t = ((i + 0.5) / BARS) * duration;
      ctx.fillStyle = t >= range[0] && t <= range[1] ? "#c084fc" : "rgba(255,255,255,0.18)";
      const h = Math.max(2, level * height * 0.9);
      ctx.fillRect(i * bar + 1, (height - h) / 2, Math.max(1, bar - 2), h);
    });
  }

  useEffect(() => {
    let live = true;
    peaks(file)
      .then((p) => {
        if (!live) return;
        levels.current = p;
        draw();
      })
      .catch(() => null);
    return () => {
      live = false;
    };
  }, [file]);
  useEffect(draw, [range[0], range[1], duration]);

  return (
    <Box
      component="canvas"
      ref={canvas}
      width={720}
      height={64}
      data-testid="waveform"
      sx={{ width: "calc(100% - 16px)", mx: 1, height: 64, display: "block", mt: 2 }}
    />
  );
}
