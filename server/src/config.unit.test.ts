import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.ts";

describe("parseConfig", () => {
  it("has defaults that start a fresh machine", () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      PORT: 8080,
      HOST: "0.0.0.0",
      EMBEDDED_PG_PORT: 54329,
      LOG_LEVEL: "info",
      EMAIL_CODE_TTL_SECONDS: 600,
      EMAIL_CODE_RESEND_SECONDS: 60,
      EMAIL_CODE_MAX_ATTEMPTS: 5,
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.publicUrl).toBe("http://localhost:8080");
    expect(c.dataDir).toMatch(/\/data$/);
  });

  it("parses numbers, booleans and lists", () => {
    const c = parseConfig({ PORT: "9000", SEED_ON_START: "false", RUN_WORKER: "0", GOOGLE_ISSUERS: "a, b", PUBLIC_URL: "https://reverie.example/" });
    expect(c).toMatchObject({ PORT: 9000, SEED_ON_START: false, RUN_WORKER: false, GOOGLE_ISSUERS: ["a", "b"], publicUrl: "https://reverie.example" });
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "not a url" }, "DATABASE_URL"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ SEED_ON_START: "maybe" }, "SEED_ON_START"],
    [{ EMAIL_CODE_TTL_SECONDS: "5" }, "EMAIL_CODE_TTL_SECONDS"],
    [{ ADMIN_PASSWORD: "short" }, "ADMIN_PASSWORD"],
    [{ GOOGLE_CLIENT_SECRET: "s" }, "GOOGLE_CLIENT_ID"],
  ])("refuses %j naming %s", (env, name) => {
    expect(() => parseConfig(env)).toThrow(new RegExp(`Invalid configuration:\\n\\s+${name}: `));
  });

  it("takes COMFYUI_MODELS slots the workflow bindings name", () => {
    expect(parseConfig({ COMFYUI_MODELS: "sdxl=mine.safetensors" }).COMFYUI_MODELS).toEqual({ sdxl: "mine.safetensors" });
  });

  it("refuses an unknown COMFYUI_MODELS slot, naming it and the valid slots (issue 34, defect 6)", () => {
    const err = (() => {
      try {
        parseConfig({ COMFYUI_MODELS: "sdx1=mine.safetensors" });
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(err).toMatch(/COMFYUI_MODELS: unknown slot "sdx1"; valid slots: .*\bsdxl\b/);
    expect(err).toContain("wan22_i2v_high_14b");
  });

  it("refuses a COMFYUI_MODELS slot named twice, naming both files (issue 44, item 9)", () => {
    expect(() => parseConfig({ COMFYUI_MODELS: "sdxl=a.safetensors,sdxl=b.safetensors" })).toThrow(
      /COMFYUI_MODELS: slot "sdxl" is named twice \(a.safetensors, b.safetensors\)/,
    );
  });
});
