import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, settingsBody } from "./MoreSettings.tsx";
import { ShareToggle } from "./ShareToggle.tsx";
import type { Quote } from "./generation.api.ts";

const quote = (controls: Quote["controls"]): Quote => ({
  points: 1,
  free_applies: false,
  available: true,
  reason: null,
  controls,
  label: "AI",
  misfit: null,
  required: [],
  tiers: [],
});
const chosen = { aspect: "16:9" as const, negative_prompt: "people", seed: "42", strength: 0.4 };

describe("the studio sends only the controls the engine honours (decision 273)", () => {
  it("leaves out what the quote does not list", () => {
    expect(settingsBody(chosen, quote(["prompt", "seed"]))).toEqual({ seed: 42 });
    expect(settingsBody(chosen, quote(["aspect", "seed", "negative_prompt"]))).toEqual({ aspect: "16:9", seed: 42, negative_prompt: "people" });
  });

  it("sends nothing before the quote arrives, and strength only with a source", () => {
    expect(settingsBody(chosen, null)).toEqual({});
    expect(settingsBody(chosen, quote(["strength"]))).toEqual({});
    expect(settingsBody(chosen, quote(["strength"]), true)).toEqual({ strength: 0.4 });
    expect(settingsBody(DEFAULT_SETTINGS, quote(["aspect", "seed", "negative_prompt"]))).toEqual({});
  });
});

describe("Share in gallery (issue 31)", () => {
  it("shows a share icon, not a crossed-out one, until shared", () => {
    const off = renderToStaticMarkup(createElement(ShareToggle, { task: { id: 1, public: 0 } }));
    expect(off).toContain('data-testid="ShareIcon"');
    expect(off).not.toMatch(/Off(Icon|Outlined)|VisibilityOff/);
    expect(renderToStaticMarkup(createElement(ShareToggle, { task: { id: 1, public: 1 } }))).toContain('data-testid="PublicIcon"');
  });
});
