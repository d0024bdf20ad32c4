import { GENERATION_MODES, IMAGE_MODES, RESOLUTIONS, type GenerationMode } from "../../contract/generation.ts";
import type { EngineKind, WorkflowTier } from "../../contract/engines.ts";
import type { Pricing } from "./generation.pricing.ts";
import { sourceOf, templateExtras } from "./engines/controls.ts";
import type { GenerationDeps } from "./generation.task.ts";

/** The cheapest and dearest price of one unit among what is on sale; null when nothing of the kind is. */
export type PriceSpan = { from: number; to: number } | null;

/**
 * What one unit costs across everything on sale now (issue 46 item 3): a GENERATION_PRICE_SECONDS block of video at
 * each resolution, and one image, priced as a submit prices it (the template's price and the workflow's cost class)
 * for every enabled template whose engine can run it, in each tier it has (best and fast, issue 45), and for a request
 * that names no template. Every price claim
 * the app makes is made from these, so a template repriced in the console changes them at once.
 */
export function createPriceRange(deps: Pick<GenerationDeps, "db" | "config" | "engines">, { price }: Pricing) {
  return {
    async priceRange(): Promise<Record<"480P" | "720P" | "image", PriceSpan>> {
      const templates = await deps.db.template.findMany({
        where: { enabled: true },
        select: { mode: true, engine: true, workflow: true, creditPrice: true, engineParams: true },
      });
      // a request may name no template: the default engine renders it at the template price of 1
      const plain = GENERATION_MODES.map((mode) => ({ mode, engine: null, workflow: null, creditPrice: 1, engineParams: null }));
      const seen: Record<"480P" | "720P" | "image", number[]> = { "480P": [], "720P": [], image: [] };
      for (const t of [...templates, ...plain]) {
        const engine = (t.engine as EngineKind | null) ?? deps.engines.defaultName;
        const mode: GenerationMode = t.mode;
        const extras = templateExtras(t.engineParams);
        const request = { mode, workflow: t.workflow, source: sourceOf(mode), extras };
        const tiers: (WorkflowTier | undefined)[] = deps.engines.tiersFor(engine, request);
        for (const tier of tiers.length ? tiers : [undefined]) {
          if ((await deps.engines.refusal(engine, mode, t.workflow, extras, undefined, tier)) !== null) continue;
          const unit = { count: 1, templatePrice: t.creditPrice, costClass: await deps.engines.costClassFor(engine, { ...request, tier }) };
          if ((IMAGE_MODES as readonly GenerationMode[]).includes(mode)) seen.image.push(price({ ...unit, video: false, resolution: "480P", durationSec: 0 }));
          else for (const r of RESOLUTIONS) seen[r].push(price({ ...unit, video: true, resolution: r, durationSec: deps.config.GENERATION_PRICE_SECONDS }));
        }
      }
      const span = (all: number[]): PriceSpan => (all.length ? { from: Math.min(...all), to: Math.max(...all) } : null);
      return { "480P": span(seen["480P"]), "720P": span(seen["720P"]), image: span(seen.image) };
    },
  };
}
