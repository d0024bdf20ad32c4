import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Logger } from "pino";
import sharp from "sharp";
import type { Db } from "../../db/client.ts";
import type { GenerationMode } from "../../db/generated/enums.ts";
import { PROJECT_DIR } from "../../paths.ts";
import { mediaKey, type MediaStorage } from "../../storage/storage.ts";
import { lockPreview } from "./templates.queries.ts";
import type { EngineJob, GenerationEngine } from "../generation/engines/engine.ts";

/**
 * Each template sells itself with a short loop of what it does, rendered by the engine that would render a person's
 * request, from Reverie's own sample picture (server/assets/sample-scene.svg, drawn for the project). A preview is
 * made again whenever the template's mode or parameters (or the engine) change: `previewOf` records what it shows.
 */
const SAMPLE_PICTURE = path.join(PROJECT_DIR, "server/assets/sample-scene.svg");
const SAMPLE_PROMPT = "a walker on a rock above a lake at dusk, mountains and a setting sun";
const PREVIEW_SECONDS = 3;
/** Images a preview pass renders before the next pass, so a large catalogue never hogs a worker. */
const PER_PASS = 8;

interface PreviewedTemplate {
  id: number;
  mode: GenerationMode;
  engineParams: unknown;
  previewKey: string | null;
  previewOf: string | null;
}

export function previewFingerprint(engine: string, t: Pick<PreviewedTemplate, "mode" | "engineParams">): string {
  return crypto
    .createHash("sha256")
    .update(JSON.stringify({ engine, mode: t.mode, params: t.engineParams, seconds: PREVIEW_SECONDS }))
    .digest("hex");
}

/** `stopping` aborted cancels the render in progress instead of waiting for it to end. */
async function render(engine: GenerationEngine, stopping: AbortSignal, job: Omit<EngineJob, "resolution" | "durationSec" | "count" | "seed" | "key">) {
  const id = await engine.submit({
    resolution: "480P",
    durationSec: PREVIEW_SECONDS,
    count: 1,
    seed: 1,
    key: `template-preview:${crypto.randomUUID()}`,
    ...job,
  });
  const cancel = () => void engine.cancel(id, "the server is stopping");
  if (stopping.aborted) cancel();
  else stopping.addEventListener("abort", cancel, { once: true });
  try {
    return await engine.result(id);
  } finally {
    stopping.removeEventListener("abort", cancel);
  }
}

/** Renders one template's preview into `workDir`; answers the file and its type. */
async function renderPreview(engine: GenerationEngine, stopping: AbortSignal, t: PreviewedTemplate, workDir: string) {
  const image = path.join(workDir, "sample.jpg");
  await sharp(SAMPLE_PICTURE).resize({ width: 720 }).jpeg({ quality: 90 }).toFile(image);
  const params = (t.engineParams ?? {}) as Record<string, unknown>;
  const sub = async (name: string) => {
    const dir = path.join(workDir, name);
    await fs.mkdir(dir);
    return dir;
  };
  if (t.mode === "video_to_video") {
    // a look needs a moving source: the sample picture in slow motion first
    const source = await render(engine, stopping, { mode: "image_to_video", workDir: await sub("source"), image, params: { motion: "ken_burns" } });
    return (await render(engine, stopping, { mode: t.mode, workDir: await sub("preview"), video: source.main.path, params })).main;
  }
  const textual = t.mode === "text_to_image" || t.mode === "image_batch" || t.mode === "text_to_video";
  return (await render(engine, stopping, { mode: t.mode, workDir: await sub("preview"), params, ...(textual ? { prompt: SAMPLE_PROMPT } : { image }) })).main;
}

export function createTemplatePreviews(deps: { db: Db; storage: MediaStorage; engine: GenerationEngine; log: Logger }) {
  const { db, storage, engine, log } = deps;
  const stopping = new AbortController();

  /** One pass: renders the previews that are missing or out of date; several processes never render the same one. */
  async function refresh(): Promise<number> {
    const templates = await db.template.findMany({
      where: { enabled: true },
      select: { id: true, mode: true, engineParams: true, previewKey: true, previewOf: true },
      orderBy: { sortOrder: "asc" },
    });
    const stale = templates.filter((t) => t.previewOf !== previewFingerprint(engine.name, t)).slice(0, PER_PASS);
    let made = 0;
    for (const t of stale) {
      if (stopping.signal.aborted) break;
      const fingerprint = previewFingerprint(engine.name, t);
      const workDir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-preview-"));
      try {
        const claimed = await db.$transaction(
          async (tx) => {
            if (!(await lockPreview.first(tx, { templateId: t.id }))?.locked) return false;
            // another process may have rendered it since this pass listed the templates
            const current = await tx.template.findUnique({ where: { id: t.id }, select: { previewOf: true, previewKey: true } });
            if (!current || current.previewKey !== t.previewKey) return false;
            const file = await renderPreview(engine, stopping.signal, t, workDir);
            const key = mediaKey("site", "previews", path.extname(file.path).slice(1) || "bin");
            await storage.putFile(key, file.path, file.mime);
            const updated = await tx.template.updateMany({
              where: { id: t.id, mode: t.mode, previewKey: t.previewKey },
              data: { previewKey: key, previewOf: fingerprint },
            });
            if (updated.count === 0) await storage.delete(key);
            else if (t.previewKey) await storage.delete(t.previewKey).catch(() => undefined);
            return updated.count > 0;
          },
          { timeout: 180_000, maxWait: 10_000 },
        );
        if (claimed) made++;
      } catch (err) {
        // a render cancelled by stopping is not a failure: the next start renders it
        if (stopping.signal.aborted) log.debug({ err, templateId: t.id }, "template preview left for the next start");
        else log.warn({ err, templateId: t.id }, "template preview could not be rendered");
      } finally {
        await fs.rm(workDir, { recursive: true, force: true });
      }
    }
    return made;
  }

  /**
   * Refreshes now and then every `everySeconds`, until stopped. Stopping cancels the render in progress: a pass renders
   * up to PER_PASS previews one after another, and waiting for them held Ctrl-C past the process's grace period.
   */
  function start(everySeconds: number): () => Promise<void> {
    let running: Promise<unknown> = Promise.resolve();
    const pass = () => {
      if (stopping.signal.aborted) return;
      running = refresh().catch((err: unknown) => log.warn({ err }, "template preview pass failed"));
    };
    pass();
    const timer = setInterval(() => void running.then(pass), everySeconds * 1000);
    timer.unref();
    return async () => {
      clearInterval(timer);
      stopping.abort();
      await running;
    };
  }

  return { refresh, start };
}
