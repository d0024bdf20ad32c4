import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createApp } from "../server/src/app.ts";
import { parseConfig } from "../server/src/config.ts";
import { openDatabase } from "../server/src/db/database.ts";
import { loraLinksFor } from "../server/src/domains/generation/engines/lora-links.ts";
import { createLogger } from "../server/src/logger.ts";
import { PROJECT_DIR } from "../server/src/paths.ts";
import { freePort } from "../tests/net-utils.ts";
import type { BenchResult } from "./run.ts";

const MB = 1024 * 1024;
const SIZE = 150 * MB;
const FIRST_TARGET_S = 5;
/** What "no extra time" allows: a cached file is a stat and a touch, far under a sampler step. */
const REUSE_TARGET_MS = 50;

/**
 * Issue 44's measure (decision 330): the extra time a character model adds before sampling on a GPU server that has
 * not seen it, and on one that has. Reverie's own node code (gpu/comfyui-reverie/lora_cache.py, run by python3 as
 * ComfyUI would) fetches a 150 MB weights file over the loopback from the real API route (signed link checked,
 * model looked up, the copy recorded, the file streamed from storage), hashes it and keeps it; then asks again.
 * Also the hash rate alone, for the formula of a real network.
 */
export default async function bench(): Promise<BenchResult[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-lora-"));
  const port = await freePort();
  const config = parseConfig({
    RUN_WORKER: "false",
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    EMBEDDED_PG_PORT: String(await freePort()),
  });
  const log = createLogger(config, "/dev/null");
  const database = await openDatabase(config, log);
  const { app, services } = createApp({ db: database.db, config, log, databaseUrl: database.url });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(port, "127.0.0.1", () => resolve(s));
  });
  try {
    const weights = crypto.randomBytes(SIZE);
    const sha256 = crypto.createHash("sha256").update(weights).digest("hex");
    const user = await database.db.user.create({ data: {} });
    const artifactKey = `u/${user.id}/models/bench.safetensors`;
    await services.storage.put(artifactKey, weights, "application/octet-stream");
    await database.db.characterModel.create({
      data: { userId: user.id, name: "bench", homeLink: `bench${user.id}`, cost: 0, status: "success", artifactKey, weightsSha256: sha256 },
    });
    const gpu = "http://bench-gpu:8188";
    const link = loraLinksFor(config).link(sha256, gpu);
    // the node's cache code as ComfyUI runs it: one call per process (the second finds the file on disk, as after a restart)
    const script = `
import hashlib, json, sys, time
sys.path.insert(0, sys.argv[1])
from lora_cache import LoraCache
cache = LoraCache(sys.argv[2], 20 * 1024**3, 86400)
t0 = time.perf_counter(); path = cache.get(sys.argv[3], sys.argv[4]); t1 = time.perf_counter()
with open(path, "rb") as f: data = f.read()
t2 = time.perf_counter(); hashlib.sha256(data).hexdigest(); t3 = time.perf_counter()
print(json.dumps({"ms": (t1 - t0) * 1000, "hash_mb_s": len(data) / 1048576 / (t3 - t2)}))
`;
    const use = async () => {
      const args = ["-B", "-c", script, path.join(PROJECT_DIR, "gpu/comfyui-reverie"), path.join(dataDir, "gpu-cache"), sha256, link];
      const { stdout } = await promisify(execFile)("python3", args, { timeout: 120_000 });
      const lastAt = (await database.db.gpuLoraCopy.findUnique({ where: { sha256_server: { sha256, server: gpu } } }))?.lastAt.getTime();
      return { ...(JSON.parse(stdout) as { ms: number; hash_mb_s: number }), lastAt };
    };
    const first = await use();
    const again = await use();
    // the route records each fetch: the second use fetched nothing when the copy's last fetch is still the first
    const fetchedAgain = again.lastAt !== first.lastAt;
    const firstS = first.ms / 1000;
    return [
      {
        name: "character model, first use on a GPU server: fetch + SHA-256 check + cache (150 MB, loopback)",
        value: firstS,
        unit: "s",
        target: `≤ ${FIRST_TARGET_S} s`,
        pass: first.lastAt !== undefined && firstS <= FIRST_TARGET_S,
        detail: { bytes: SIZE, loopbackMBps: Math.round(SIZE / MB / firstS), hashMBps: Math.round(first.hash_mb_s) },
      },
      {
        name: "character model, used again on that server: extra time (cached, no fetch)",
        value: again.ms,
        unit: "ms",
        target: `≤ ${REUSE_TARGET_MS} ms and no second fetch`,
        pass: again.ms <= REUSE_TARGET_MS && !fetchedAgain,
        detail: { fetchedAgain },
      },
    ];
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await services.close();
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
