import { describe, expect, it } from "vitest";
import { EXTRAS, type Need } from "./workflow-binding.ts";
import { GENERATION_MODES } from "../../../contract/generation.ts";
import { type Brought, misfit, pinFault } from "./workflow-choice.ts";
import { loadWorkflows } from "./workflows.ts";

/**
 * Decision 315: whether a request fits the workflow a template pins is read from its binding alone, for every shipped
 * workflow: exactly its needs fit, none brought lacks one, and each extra it does not take is named.
 */
const GIVEN: Record<Need, Brought> = {
  image: { image: "p.png" },
  video: { video: "v.mp4" },
  end_image: { endImage: "q.png" },
  camera: { camera: "zoom_in" },
  motion: { image: "p.png", video: "v.mp4" },
  audio: { audio: "a.m4a" },
};
const bringing = (needs: readonly Need[]): Brought => Object.assign({}, ...needs.map((n) => GIVEN[n]));

describe("a pinned workflow's misfit, from its binding", () => {
  for (const wf of loadWorkflows().filter((w) => !w.binding.followUp)) {
    it(wf.name, () => {
      const { modes, needs } = wf.binding;
      expect(misfit(wf, modes[0], bringing(needs))).toBeUndefined();
      if (needs.length) expect(misfit(wf, modes[0], {})).toHaveProperty("lacks");
      for (const extra of EXTRAS.filter((x) => !needs.includes(x)))
        expect(misfit(wf, modes[0], { ...bringing(needs), ...GIVEN[extra] }), extra).toEqual({ takesNo: extra });
    });
  }

  it("names the transition's second photo, the camera move and the motion photo, and a mode the workflow does not make", () => {
    const byName = (name: string) => loadWorkflows().find((w) => w.name === name)!;
    expect(misfit(byName("wan22-flf2v-14b"), "image_to_video", { image: "p.png" })).toEqual({ lacks: "end_image" });
    expect(misfit(byName("wan22-fun-camera-14b"), "image_to_video", { image: "p.png" })).toEqual({ lacks: "camera" });
    expect(misfit(byName("wan22-animate-14b"), "video_to_video", { video: "v.mp4" })).toEqual({ lacks: "motion" });
    expect(misfit(byName("wan22-i2v-14b"), "image_to_video", { image: "p.png", endImage: "q.png" })).toEqual({ takesNo: "end_image" });
    expect(misfit(byName("sdxl-v2v"), "video_to_video", { image: "p.png", video: "v.mp4" })).toEqual({ takesNo: "motion" });
    expect(misfit(byName("wan22-flf2v-14b"), "role_video", { image: "p.png", endImage: "q.png" })).toEqual({ mode: "role_video" });
  });
});

describe("which workflow a template of a mode may pin (decision 320)", () => {
  const workflows = loadWorkflows();
  it("every shipped workflow in exactly the modes its binding makes; an upscale in none", () => {
    for (const wf of workflows)
      for (const mode of GENERATION_MODES)
        expect(pinFault(workflows, mode, wf.name) === null, `${wf.name} ${mode}`).toBe(!wf.binding.followUp && wf.binding.modes.includes(mode));
  });
  it("no workflow at all, and none that is not shipped", () => {
    expect(pinFault(workflows, "image_to_video", null)).toBeNull();
    expect(pinFault(workflows, "image_to_video", "flux-t2i.json")).toMatch(/^There is no workflow named flux-t2i.json/);
  });
});
