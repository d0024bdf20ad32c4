import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { pino } from "pino";
import { createServices } from "../server/src/services.ts";
import { parseConfig } from "../server/src/config.ts";
import { createDb } from "../server/src/db/client.ts";
import { startEmbeddedPostgres } from "../server/src/db/embedded.ts";
import { runMigrations } from "../server/src/db/migrate.ts";
import { createLocalEngine } from "../server/src/domains/generation/engines/local.engine.ts";
import { imageToVideoArgs, outputSize } from "../server/src/domains/generation/engines/local.filters.ts";
import { ffmpeg } from "../server/src/storage/media-tools.ts";
import { startGenerationWorker } from "../server/src/worker/generation.worker.ts";
import { freePort } from "../tests/net-utils.ts";
import type { BenchResult } from "./run.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

/** A 5 s 480P image-to-video through the local engine, next to the bare ffmpeg command with the same filter graph. */
async function renderBench(dir: string): Promise<BenchResult[]> {
  const photo = path.join(dir, "photo.jpg");
  await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#3a6ea5" } })
    .composite([{ input: Buffer.from('<svg width="1600" height="1200"><circle cx="800" cy="600" r="420" fill="#f5c542"/></svg>') }])
    .jpeg()
    .toFile(photo);
  const engine = createLocalEngine();
  const { width, height } = outputSize("480P", 1600, 1200);
  const still = path.join(dir, "still.png");
  await sharp(photo)
    .resize(Math.round((width * 1.2) / 2) * 2, Math.round((height * 1.2) / 2) * 2, { fit: "cover" })
    .png({ compressionLevel: 1 })
    .toFile(still);
  const bareArgs = imageToVideoArgs({ still, motion: "zoom_in", width, height, seconds: 5, out: path.join(dir, "bare.mp4") });

  const ours: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    await ffmpeg(bareArgs);
    bare.push(performance.now() - t);
    const workDir = path.join(dir, `run-${i}`);
    await fs.mkdir(workDir);
    t = performance.now();
    const id = await engine.submit({
      mode: "image_to_video",
      workDir,
      image: photo,
      params: { motion: "zoom_in" },
      resolution: "480P",
      durationSec: 5,
      count: 1,
      seed: 1,
      key: "bench",
    });
    await engine.result(id);
    ours.push(performance.now() - t);
  }
  const oursMs = median(ours);
  const bareMs = median(bare);
  return [
    {
      name: "local engine 5 s 480P image-to-video (median of 5)",
      value: oursMs,
      unit: "ms",
      target: "≤ 3000 ms",
      pass: oursMs <= 3000,
      detail: { runs: ours.map(Math.round) },
    },
    { name: "bare ffmpeg, same filter graph (median of 5)", value: bareMs, unit: "ms", detail: { runs: bare.map(Math.round) } },
    { name: "pipeline / bare ffmpeg", value: oursMs / bareMs, unit: "x", target: "≤ 1.2x", pass: oursMs / bareMs <= 1.2 },
  ];
}

/** Submit (charge + enqueue in one transaction) to the worker starting the job, over 200 tasks, one at a time. */
async function queueBench(dir: string): Promise<BenchResult[]> {
  const pg = await startEmbeddedPostgres(path.join(dir, "pg"), await freePort());
  const config = parseConfig({ DATA_DIR: path.join(dir, "data"), LOG_LEVEL: "silent", FREE_GENERATIONS: "0", WORKER_CONCURRENCY: "2" });
  const log = pino({ level: "silent" });
  await runMigrations(pg.url);
  const db = createDb(pg.url, 10);
  const services = createServices({ db, config, log, databaseUrl: pg.url });
  const worker = await startGenerationWorker({
    databaseUrl: pg.url,
    config,
    log,
    generation: services.generation,
    storage: services.storage,
    engines: services.engines,
    limiter: services.limiter,
    training: services.training,
    provenance: services.provenance,
  });
  try {
    const user = await db.user.create({ data: {} });
    await services.credits.grant({ userId: user.id, amount: 1000, reason: "bench", idempotencyKey: "bench-grant" });
    const latencies: number[] = [];
    for (let i = 0; i < 200; i++) {
      const { id } = await services.generation.images(
        user.id,
        { prompt: `bench ${i}`, aspect: "1:1", template_id: undefined, idempotency_key: undefined },
        false,
      );
      for (;;) {
        const t = await db.generationTask.findUniqueOrThrow({ where: { id } });
        if (t.startedAt && t.status !== "running" && t.status !== "queued") {
          latencies.push(t.startedAt.getTime() - t.createdAt.getTime());
          break;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    }
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    return [
      { name: "queue latency submit -> worker start p50 (200 tasks)", value: p50, unit: "ms", target: "≤ 100 ms", pass: p50 <= 100 },
      { name: "queue latency submit -> worker start p99 (200 tasks)", value: p99, unit: "ms", detail: { max: Math.max(...latencies) } },
    ];
  } finally {
    await worker.stop();
    await services.close();
    await db.$disconnect();
    await pg.stop();
  }
}

export default async function generationBench(): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-gen-"));
  try {
    return [...(await renderBench(dir)), ...(await queueBench(dir))];
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
