import crypto from "node:crypto";
import path from "node:path";
import sharp from "sharp";
import type { EngineJob } from "./engine.ts";
import { pick } from "./local.filters.ts";

/** The local engine's pictures: prompt-seeded procedural drafts (not AI), drawn with sharp. */

export const STYLES = ["aurora", "bokeh", "waves", "mosaic"] as const;

/** Deterministic 32-bit PRNG (mulberry32) seeded from text, so a prompt always draws the same draft. */
export function seededRandom(seedText: string): () => number {
  let a = crypto.createHash("sha256").update(seedText).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PALETTE_WORDS: [RegExp, number][] = [
  [/sunset|sunrise|fire|warm|orange|autumn|desert/, 24],
  [/ocean|sea|sky|blue|water|rain|ice|winter/, 205],
  [/forest|green|nature|jungle|spring|garden/, 125],
  [/night|space|galaxy|dark|star|moon|purple|neon/, 265],
  [/rose|love|pink|flower|romantic|cherry/, 330],
  [/gold|sun|yellow|summer|beach/, 48],
];

/** Gaussian blur (in output pixels) of the soft styles, applied by sharp: librsvg's SVG filters are far slower. */
export const STYLE_BLUR: Record<string, number> = { aurora: 40, bokeh: 18 };

/** A prompt-seeded procedural picture (SVG for sharp to render): colours from the prompt's words, layout from its hash. */
export function draftSvg(prompt: string, seed: string, width: number, height: number, style: string, renderScale = 1): string {
  const rnd = seededRandom(`${prompt}\u0000${seed}`);
  const lower = prompt.toLowerCase();
  const baseHue = PALETTE_WORDS.find(([re]) => re.test(lower))?.[1] ?? Math.floor(rnd() * 360);
  const hue = (d: number) => Math.round((baseHue + d + 360) % 360);
  const shapes: string[] = [];
  const count = 14 + Math.floor(rnd() * 14);
  for (let i = 0; i < count; i++) {
    const x = (rnd() * width).toFixed(1);
    const y = (rnd() * height).toFixed(1);
    const r = (Math.min(width, height) * (0.05 + rnd() * 0.3)).toFixed(1);
    const fill = `hsl(${hue(rnd() * 80 - 40)},${60 + Math.floor(rnd() * 35)}%,${35 + Math.floor(rnd() * 45)}%)`;
    const opacity = (0.15 + rnd() * 0.5).toFixed(2);
    if (style === "mosaic") {
      shapes.push(
        `<rect x="${x}" y="${y}" width="${r}" height="${r}" transform="rotate(${Math.floor(rnd() * 90)} ${x} ${y})" fill="${fill}" opacity="${opacity}"/>`,
      );
    } else if (style === "waves") {
      const amp = (rnd() * height * 0.15).toFixed(1);
      shapes.push(
        `<path d="M0 ${y} Q ${width / 4} ${Number(y) - Number(amp)} ${width / 2} ${y} T ${width} ${y} L ${width} ${height} L 0 ${height} Z" fill="${fill}" opacity="${(Number(opacity) * 0.6).toFixed(2)}"/>`,
      );
    } else {
      shapes.push(`<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}" opacity="${opacity}"/>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(width * renderScale)}" height="${Math.round(height * renderScale)}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="${rnd().toFixed(2)}" y2="1">
<stop offset="0" stop-color="hsl(${hue(-30)},70%,18%)"/><stop offset="0.55" stop-color="hsl(${hue(0)},65%,42%)"/><stop offset="1" stop-color="hsl(${hue(35)},75%,70%)"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#bg)"/>${shapes.join("")}</svg>`;
}

const ASPECTS: Record<string, [number, number]> = { "1:1": [1024, 1024], "3:4": [768, 1024], "4:3": [1024, 768], "9:16": [576, 1024], "16:9": [1024, 576] };

/** Draft `index` of the job: its picture file (PNG) and size. */
export async function drawDraft(job: EngineJob, index: number): Promise<{ file: string; width: number; height: number }> {
  const [width, height] = ASPECTS[String(job.aspect ?? job.params.aspect ?? "1:1")] ?? ASPECTS["1:1"];
  const style = pick(job.params.style, STYLES, STYLES[Math.floor(seededRandom(job.prompt ?? String(job.seed))() * STYLES.length)]);
  const file = path.join(job.workDir, `draft-${index}.png`);
  // soft styles are drawn and blurred at a quarter of the size, then scaled up: the same look at a fraction of the cost
  const blur = STYLE_BLUR[style];
  const scale = blur ? 0.25 : 1;
  const drawn = sharp(Buffer.from(draftSvg(job.prompt ?? "", `${job.seed}:${index}`, width, height, style, scale)));
  let img = sharp(await (blur ? drawn.blur(blur * scale) : drawn).resize(width, height).png().toBuffer());
  if (job.image) {
    // a reference photo tints the draft: blend it under the procedural layer
    const ref = await sharp(job.image).resize(width, height, { fit: "cover" }).toBuffer();
    img = sharp(ref).composite([{ input: await img.png().toBuffer(), blend: "soft-light" }]);
  }
  await img.png().toFile(file);
  return { file, width, height };
}
