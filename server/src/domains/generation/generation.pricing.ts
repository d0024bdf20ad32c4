import type { Config } from "../../config.ts";
import { COST_CLASS_FACTORS, type CostClass } from "../../contract/engines.ts";
import type { Resolution } from "./engines/engine.ts";

/** What a generation costs, and when a free generation pays for it. */
export function createPricing(config: Config) {
  /** Price units of a request: images, or started blocks of GENERATION_PRICE_SECONDS of video. */
  function units(o: { video: boolean; durationSec: number; count: number }): number {
    return o.video ? Math.ceil(o.durationSec / config.GENERATION_PRICE_SECONDS - 1e-9) : o.count;
  }

  /**
   * Credits for a request: its units at the resolution's rate (or per image), times the template's price, times the
   * cost class factor of the GPU workflow that will run it (decision 239; none for the local engine).
   */
  function price(o: { video: boolean; resolution: Resolution; durationSec: number; count: number; templatePrice: number; costClass?: CostClass }): number {
    const factor = o.costClass ? COST_CLASS_FACTORS[o.costClass] : 1;
    const rate = !o.video ? config.IMAGE_CREDIT_PRICE : o.resolution === "720P" ? config.GENERATION_PRICE_720P : config.GENERATION_PRICE_480P;
    return units(o) * rate * o.templatePrice * factor;
  }

  /** The free-generation rule (docs/decisions/024): a free generation pays for a task of at most one 480P block. */
  function freeCovers(cost: number): boolean {
    return cost > 0 && cost <= config.GENERATION_PRICE_480P;
  }

  /** What GPU seconds cost in credits (GPU_HOUR_COST_USD at CREDIT_VALUE_USD a credit), for the console's figures. */
  const creditsForGpuSeconds = (seconds: number) => ((seconds / 3600) * config.GPU_HOUR_COST_USD) / config.CREDIT_VALUE_USD;

  return { price, units, freeCovers, creditsForGpuSeconds };
}

export type Pricing = ReturnType<typeof createPricing>;
