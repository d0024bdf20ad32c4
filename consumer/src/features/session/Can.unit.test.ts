import { describe, expect, it } from "vitest";
import { allows } from "./Can.tsx";

describe("button-level permissions (SPEC.md §6)", () => {
  const list = ["create:Order", "read:Order", "delete:GenerationTask"];

  it("single: shown only when the list holds it", () => {
    expect(allows(list, { permission: "create:Order" })).toBe(true);
    expect(allows(list, { permission: "update:User" })).toBe(false);
  });

  it("any-of: one is enough", () => {
    expect(allows(list, { anyOf: ["update:User", "read:Order"] })).toBe(true);
    expect(allows(list, { anyOf: ["update:User", "manage:all"] })).toBe(false);
  });

  it("all-of: every one is needed, and an empty requirement shows nothing", () => {
    expect(allows(list, { allOf: ["create:Order", "read:Order"] })).toBe(true);
    expect(allows(list, { allOf: ["create:Order", "update:User"] })).toBe(false);
    expect(allows(list, { allOf: [] })).toBe(false);
  });

  it("nobody signed in (no list) sees nothing guarded", () => {
    expect(allows(undefined, { permission: "create:Order" })).toBe(false);
  });
});
