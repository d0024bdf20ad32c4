import { describe, expect, it } from "vitest";
import type { EngineKind } from "../../contract/engines.ts";
import type { GenerationMode } from "../../contract/generation.ts";
import { createRequests } from "./generation.requests.ts";
import type { Pricing } from "./generation.pricing.ts";
import type { GenerationDeps } from "./generation.task.ts";

/**
 * The quote's `available` asks what the submit's refusal (assertCanRun) will ask: the engine, the mode the app submits
 * and the template's pinned workflow. A GPU engine that runs the template's own mode but not the submitted one (a
 * photo template chosen in text to video, with no text-to-video workflow on the servers) is refused with 503 at submit,
 * so its price must say unavailable and the studio's Generate stay off.
 */
const PHOTO_TEMPLATE = { id: 7, engine: null, mode: "image_to_video", workflow: null, creditPrice: 1 };

function quoteWith(runs: readonly GenerationMode[]) {
  const engines = {
    defaultName: "comfyui" as EngineKind,
    costClassFor: async () => undefined,
    controlsFor: async () => [],
    misfit: () => null,
    requiredExtras: () => [],
    tiersFor: () => [],
    refusal: async (_name: EngineKind, mode?: GenerationMode) => (!mode || runs.includes(mode) ? null : "cannot make this kind of generation right now"),
  };
  const deps = { engines, templates: { get: async () => PHOTO_TEMPLATE } } as unknown as GenerationDeps;
  const pricing = { price: () => 3, freeCovers: () => false } as unknown as Pricing;
  return createRequests(deps, pricing, (() => undefined) as never).quote;
}

describe("the quote's availability", () => {
  const quote = quoteWith(["image_to_video", "role_video", "audio_overlay"]);
  const body = { type: "video" as const, resolution: "480P" as const, duration: 5, count: 1, template_id: PHOTO_TEMPLATE.id };

  it("is that of the mode the app will submit, not the template's own", async () => {
    expect((await quote({ ...body, mode: "text_to_video" })).available).toBe(false);
    expect((await quote({ ...body, mode: "role_video" })).available).toBe(true);
  });

  it("is the template's mode's when the app names none", async () => {
    expect((await quote(body)).available).toBe(true);
  });
});
