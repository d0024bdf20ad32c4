import type { Config } from "../../config.ts";
import type { EngineKind } from "../../contract/engines.ts";
import type { Resolution } from "./engines/engine.ts";

/** What a generation costs, and when a free generation pays for it. */
export function createPricing(config: Config) {
  /**
   * Credits for a request: per started block of GENERATION_PRICE_SECONDS at the resolution's rate, or per image,
   * times the template's price, times the engine's factor (GPU_PRICE_FACTOR for a GPU engine).
   */
  function price(o: { video: boolean; resolution: Resolution; durationSec: number; count: number; templatePrice: number; engine: EngineKind }): number {
    const factor = o.engine === "local" ? 1 : config.GPU_PRICE_FACTOR;
    if (!o.video) return o.count * config.IMAGE_CREDIT_PRICE * o.templatePrice * factor;
    const blocks = Math.ceil(o.durationSec / config.GENERATION_PRICE_SECONDS - 1e-9);
    const rate = o.resolution === "720P" ? config.GENERATION_PRICE_720P : config.GENERATION_PRICE_480P;
    return blocks * rate * o.templatePrice * factor;
  }

  /** The free-generation rule (docs/decisions/024): a free generation pays for a task of at most one 480P block. */
  function freeCovers(cost: number): boolean {
    return cost > 0 && cost <= config.GENERATION_PRICE_480P;
  }

  return { price, freeCovers };
}

export type Pricing = ReturnType<typeof createPricing>;
