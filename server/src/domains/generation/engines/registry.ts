import type { Config } from "../../../config.ts";
import type { EngineStatus, GenerationEngine } from "./engine.ts";
import { createLocalEngine } from "./local.engine.ts";

/** The engine GENERATION_ENGINE names; GPU back ends register here next to the local renderer. */
export function createEngine(config: Config): GenerationEngine {
  switch (config.GENERATION_ENGINE) {
    case "local":
      return createLocalEngine();
  }
}

/** The engine's status, re-checked at most once a minute (the local check runs ffmpeg). */
export function cachedEngineStatus(engine: GenerationEngine, ttlMs = 60_000): () => Promise<EngineStatus> {
  let cache: { at: number; value: Promise<EngineStatus> } | undefined;
  return () => {
    if (!cache || Date.now() - cache.at > ttlMs) cache = { at: Date.now(), value: engine.status() };
    return cache.value;
  };
}
