import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("personal_info", () => {
  it("returns every SPEC user field with a Guest_ nickname", async () => {
    const { token } = await visitor(t);
    const res = await t.http.get("/api/Personal/personal_info?t=123").set("token", token).expect(200);
    const info = res.body.data.info;
    for (const f of ["id", "uuid", "nickname", "supplier_id", "type", "menu", "userName", "username", "email", "title", "photo", "time", "menuJson", "roles", "authBtnList", "bemobClickId"]) {
      expect(info).toHaveProperty(f);
    }
    expect(info.nickname).toBe(`Guest_${info.uuid.replace(/-/g, "").slice(-6)}`);
    expect(info.type).toBe("visitor");
    expect(info.authBtnList).toContain("create:GenerationTask");
  });

  it("is 401 without a token", async () => {
    const res = await t.http.get("/api/Personal/personal_info").expect(401);
    expect(res.body).toEqual({ code: 401, msg: "You have been logged out. Please log in again", data: null });
  });
});
