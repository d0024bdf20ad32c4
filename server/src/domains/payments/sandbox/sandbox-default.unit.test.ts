import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../config.ts";
import { isLoopbackUrl, sandboxEnabled, sandboxWarning } from "./sandbox-gateway.ts";

// the free checkout grants real credits: on by default only where nobody else reaches it, and in the tests (decision 350)
describe("the sandbox checkout's default", () => {
  it.each([
    "http://localhost:8080",
    "http://LOCALHOST",
    "http://127.0.0.1:5105",
    "http://127.1.2.3",
    "http://127.1",
    "http://[::1]:8080",
    "http://app.localhost",
  ])("is on while PUBLIC_URL is the loopback address %s, and warns of nothing", (url) => {
    expect(isLoopbackUrl(url)).toBe(true);
    const c = parseConfig({ PUBLIC_URL: url });
    expect(sandboxEnabled(c)).toBe(true);
    expect(sandboxWarning(c)).toBeUndefined();
  });

  it("is on for `npm start` as the README says (no NODE_ENV, no PUBLIC_URL)", () => {
    expect(sandboxEnabled(parseConfig({}))).toBe(true);
  });

  it.each([
    "https://reverie.example",
    "http://192.168.1.5:8080",
    "http://0.0.0.0:8080",
    "http://10.0.0.1",
    "http://localhost.example.com",
    "http://127.0.0.1.nip.io",
    "http://[::ffff:7f00:1]",
  ])("is off while PUBLIC_URL is %s, which others may reach", (url) => {
    expect(isLoopbackUrl(url)).toBe(false);
    expect(sandboxEnabled(parseConfig({ PUBLIC_URL: url }))).toBe(false);
  });

  it("is off in production even on loopback", () => {
    expect(sandboxEnabled(parseConfig({ NODE_ENV: "production" }))).toBe(false);
  });

  it("is on in the tests, whatever PUBLIC_URL", () => {
    const c = parseConfig({ NODE_ENV: "test", PUBLIC_URL: "https://reverie.example" });
    expect(sandboxEnabled(c)).toBe(true);
    expect(sandboxWarning(c)).toBeUndefined();
  });

  it.each([
    { NODE_ENV: "development", PUBLIC_URL: "https://reverie.example" },
    { NODE_ENV: "production", PUBLIC_URL: "https://reverie.example" },
    { NODE_ENV: "production", PUBLIC_URL: "http://localhost:8080" },
  ])("SANDBOX_PAY_ENABLED=true turns it on where it would be off (%j), with one warning naming the address", (env) => {
    const c = parseConfig({ ...env, SANDBOX_PAY_ENABLED: "true" });
    expect(sandboxEnabled(c)).toBe(true);
    expect(sandboxWarning(c)).toBe(
      `SANDBOX_PAY_ENABLED=true: the sandbox checkout grants real credits for free test payments to anyone who reaches ${env.PUBLIC_URL}`,
    );
  });

  it("SANDBOX_PAY_ENABLED=true where it is on anyway warns of nothing; =false turns it off on loopback and in the tests", () => {
    expect(sandboxWarning(parseConfig({ SANDBOX_PAY_ENABLED: "true" }))).toBeUndefined();
    expect(sandboxEnabled(parseConfig({ SANDBOX_PAY_ENABLED: "false" }))).toBe(false);
    expect(sandboxEnabled(parseConfig({ NODE_ENV: "test", SANDBOX_PAY_ENABLED: "false" }))).toBe(false);
    expect(sandboxWarning(parseConfig({ PUBLIC_URL: "https://reverie.example", SANDBOX_PAY_ENABLED: "false" }))).toBeUndefined();
  });
});
