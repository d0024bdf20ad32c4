import sharp from "sharp";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { GenerationMode } from "../../db/generated/enums.ts";
import { createStorage, type MediaStorage } from "../../storage/storage.ts";
import { draftSvg, STYLES } from "../generation/engines/local.drafts.ts";
import type { TemplateCategory } from "../../contract/templates.ts";
import { SEED_BANNER_TITLES, SEED_PROMPT_TEXTS, SEED_TEMPLATE_NAMES } from "./templates.translations.seed.ts";

interface SeedTemplate {
  slug: string;
  name: string;
  category: TemplateCategory;
  suitFor: "image" | "video" | "text";
  mode: GenerationMode;
  params: Record<string, string>;
  price: number;
}

export const SEED_TEMPLATES: SeedTemplate[] = [
  { slug: "soft-zoom", name: "Soft Zoom", category: "Portrait", suitFor: "image", mode: "image_to_video", params: { motion: "zoom_in" }, price: 1 },
  { slug: "pull-back", name: "Pull Back", category: "Portrait", suitFor: "image", mode: "image_to_video", params: { motion: "zoom_out" }, price: 1 },
  { slug: "dreamy-fade", name: "Dreamy Fade", category: "Portrait", suitFor: "image", mode: "image_to_video", params: { motion: "fade" }, price: 1 },
  { slug: "gentle-sway", name: "Gentle Sway", category: "Portrait", suitFor: "image", mode: "image_to_video", params: { motion: "rotate" }, price: 1 },
  { slug: "city-pan", name: "City Pan", category: "Lifestyle", suitFor: "image", mode: "image_to_video", params: { motion: "pan_right" }, price: 1 },
  { slug: "travel-glide", name: "Travel Glide", category: "Lifestyle", suitFor: "image", mode: "image_to_video", params: { motion: "pan_left" }, price: 1 },
  { slug: "ken-burns", name: "Ken Burns", category: "Lifestyle", suitFor: "image", mode: "image_to_video", params: { motion: "ken_burns" }, price: 1 },
  { slug: "music-moment", name: "Music Moment", category: "Lifestyle", suitFor: "image", mode: "audio_overlay", params: { motion: "zoom_in" }, price: 1 },
  { slug: "floating-frame", name: "Floating Frame", category: "Creative", suitFor: "image", mode: "image_to_video", params: { motion: "parallax" }, price: 2 },
  { slug: "film-noir", name: "Film Noir", category: "Creative", suitFor: "video", mode: "video_to_video", params: { look: "noir" }, price: 1 },
  { slug: "super-8", name: "Super 8", category: "Creative", suitFor: "video", mode: "video_to_video", params: { look: "vintage" }, price: 1 },
  { slug: "pop-colour", name: "Pop Colour", category: "Creative", suitFor: "video", mode: "video_to_video", params: { look: "vivid" }, price: 1 },
  { slug: "ice-tone", name: "Ice Tone", category: "Creative", suitFor: "video", mode: "video_to_video", params: { look: "cool" }, price: 1 },
  { slug: "pencil", name: "Pencil Sketch", category: "Creative", suitFor: "video", mode: "video_to_video", params: { look: "sketch" }, price: 2 },
  { slug: "aurora-art", name: "Aurora Art", category: "Creative", suitFor: "text", mode: "text_to_image", params: { style: "aurora" }, price: 1 },
  { slug: "bokeh-lights", name: "Bokeh Lights", category: "Creative", suitFor: "text", mode: "text_to_image", params: { style: "bokeh" }, price: 1 },
];

const BANNERS = [
  { slug: "welcome", title: "Turn a photo into a video", link: "/creationStudio" },
  { slug: "templates", title: "New motion templates", link: "/creationStudio" },
  // the app writes the live price claim over it (issue 31 item 1) instead of its caption
  { slug: "prices", title: "Credit packs and prices", link: "/payment", showsPrices: true },
];

const PROMPTS: [string, string][] = [
  ["A neon-lit city street at night in the rain", "image"],
  ["Golden sunset over a calm ocean", "image"],
  ["A misty forest at dawn with soft light", "image"],
  ["A cosy café by the window on a rainy day", "image"],
  ["Cherry blossoms drifting in a spring garden", "image"],
  ["A starry galaxy above snowy mountains", "image"],
  ["Slow cinematic zoom on a smiling portrait", "video"],
  ["Dreamy travel memories with warm colours", "video"],
];

/**
 * A real picture rendered locally (no external URLs): the prompt-seeded draft renderer. It carries no words: template
 * cards print the template's name and the app writes a banner's caption over it in the visitor's language (decision 295).
 */
async function renderCover(storage: MediaStorage, key: string, title: string, style: string, width: number, height: number) {
  if (await storage.exists(key)) return;
  const art = await sharp(Buffer.from(draftSvg(title, key, width, height, style)))
    .jpeg({ quality: 85 })
    .toBuffer();
  await storage.put(key, art, "image/jpeg");
}

/** Idempotent: seeds templates, banners and prompts into empty tables, and re-renders any seeded cover missing from storage. */
export async function seedTemplates(db: Db, ctx: { config: Config }): Promise<void> {
  const storage = createStorage(ctx.config);
  const templates = SEED_TEMPLATES.map((t, i) => ({ ...t, key: `site/templates/${t.slug}.jpg`, sortOrder: i, style: STYLES[i % STYLES.length] }));
  const banners = BANNERS.map((b, i) => ({ ...b, key: `site/banners/${b.slug}-plain.jpg`, sortOrder: i, style: STYLES[(i + 1) % STYLES.length] }));
  await Promise.all([
    ...templates.map((t) => renderCover(storage, t.key, t.name, t.style, 480, 640)),
    ...banners.map((b) => renderCover(storage, b.key, b.title, b.style, 1200, 400)),
  ]);
  // the catalogue is seeded once; after that it belongs to the console (edits and deletions are not undone at start)
  const [templateCount, bannerCount, prompts] = await Promise.all([db.template.count(), db.banner.count(), db.promptSuggestion.count()]);
  if (templateCount === 0) {
    await db.template.createMany({
      data: templates.map((t) => ({
        name: t.name,
        category: t.category,
        suitFor: t.suitFor,
        mode: t.mode,
        engineParams: t.params,
        creditPrice: t.price,
        coverUrl: t.key,
        sortOrder: t.sortOrder,
        names: SEED_TEMPLATE_NAMES[t.slug] ?? {},
      })),
    });
  }
  if (bannerCount === 0)
    await db.banner.createMany({
      data: banners.map((b) => ({
        title: b.title,
        titles: SEED_BANNER_TITLES[b.slug] ?? {},
        imageUrl: b.key,
        link: b.link,
        sortOrder: b.sortOrder,
        showsPrices: b.showsPrices ?? false,
      })),
    });
  if (prompts === 0)
    await db.promptSuggestion.createMany({
      data: PROMPTS.map(([text, category], i) => ({ text, category, sortOrder: i, texts: SEED_PROMPT_TEXTS[text] ?? {} })),
    });
}
