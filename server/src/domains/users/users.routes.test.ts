import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, fetchMedia, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { SAVE_ACCOUNT_MESSAGE } from "../../contract/users.ts";

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
    for (const f of [
      "id",
      "uuid",
      "nickname",
      "supplier_id",
      "type",
      "menu",
      "userName",
      "username",
      "email",
      "title",
      "photo",
      "time",
      "menuJson",
      "roles",
      "authBtnList",
      "bemobClickId",
    ]) {
      expect(info).toHaveProperty(f);
    }
    expect(info.nickname).toBe(`Guest_${info.uuid.replace(/-/g, "").slice(-6)}`);
    expect(info.type).toBe("visitor");
    expect(info.authBtnList).toContain("create:GenerationTask");
  });

  it("offers a guest nothing the server refuses a guest (issue 47 item 7)", async () => {
    const { token } = await visitor(t);
    const list: string[] = (await t.http.get("/api/Personal/personal_info").set("token", token).expect(200)).body.data.info.authBtnList;
    const refused: [string, () => ReturnType<typeof t.http.get>][] = [
      ["create:CharacterModel", () => t.http.post("/api/Training/submit").send({})],
      ["create:Tip", () => t.http.post("/api/Subscribe/tip").send({})],
      ["create:Message", () => t.http.post("/api/Messages/send").send({})],
      ["read:Message", () => t.http.get("/api/Messages/threads")],
    ];
    for (const [entry, request] of refused) {
      expect(list, entry).not.toContain(entry);
      const res = await request().set("token", token).expect(403);
      expect(res.body.msg).toBe(SAVE_ACCOUNT_MESSAGE);
    }
  });

  it("is 401 without a token", async () => {
    const res = await t.http.get("/api/Personal/personal_info").expect(401);
    expect(res.body).toEqual({ code: 401, msg: "You have been logged out. Please log in again", data: null });
  });
});

describe("personal_info details", () => {
  it("carries packed CASL rules and the stored nickname once set", async () => {
    const { token } = await visitor(t);
    await t.http.post("/api/Personal/uploadUserInfo").set("token", token).send({ nickname: "  Mika  " }).expect(200);
    const info = (await t.http.get("/api/Personal/personal_info").set("token", token).expect(200)).body.data.info;
    expect(info.nickname).toBe("Mika");
    expect(Array.isArray(info.rules)).toBe(true);
    expect(info.rules.length).toBeGreaterThan(0);
    expect(typeof info.time).toBe("number");
  });
});

describe("belongings (issue 46 item 1)", () => {
  it("a new guest holds nothing; credits, a result and a creator page each count", async () => {
    const { token, userId } = await visitor(t);
    const ask = async () => (await t.http.get("/api/Personal/belongings").set("token", token).expect(200)).body.data;
    expect(await ask()).toEqual({ credits: 0, results: 0, plan: false, creator_page: false });
    await t.db.user.update({ where: { id: userId }, data: { points: 9 } });
    await t.db.generationTask.create({ data: { userId, mode: "image_to_video", engine: "local", status: "failed", cost: 1, input: {} } });
    expect(await ask()).toEqual({ credits: 9, results: 0, plan: false, creator_page: false });
    await t.db.generationTask.create({ data: { userId, mode: "image_to_video", engine: "local", status: "succeeded", cost: 1, input: {} } });
    await t.db.creatorPage.create({ data: { userId, homeLink: `guest${userId}`, title: "Mine" } });
    expect(await ask()).toEqual({ credits: 9, results: 1, plan: false, creator_page: true });
  });

  it("is 401 without a token", async () => {
    await t.http.get("/api/Personal/belongings").expect(401);
  });
});

describe("select_users_integral", () => {
  it("returns points and all_points", async () => {
    const { token, userId } = await visitor(t);
    await t.services.credits.grant({ userId, amount: 5, reason: "bonus", idempotencyKey: `integral:${userId}` });
    await t.services.credits.charge({ userId, amount: 2, reason: "generation", idempotencyKey: `integral-charge:${userId}` });
    const res = await t.http.get("/api/Personal/select_users_integral").set("token", token).expect(200);
    expect(res.body).toEqual({ code: 200, msg: "success", data: { points: 3, all_points: 5 } });
  });
});

describe("user_update and uploadUserInfo", () => {
  it("updates nickname, language, photo and title", async () => {
    const { token, userId } = await visitor(t);
    await t.http
      .post("/api/Personal/user_update")
      .set("token", token)
      .send({ nickname: "Rin", language: "ja", photo: "https://cdn.example.com/p.png", title: "Dreamer" })
      .expect(200);
    expect(await t.db.user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({
      nickname: "Rin",
      language: "ja",
      photo: "https://cdn.example.com/p.png",
      title: "Dreamer",
    });
  });

  it.each([
    [{}, "Nothing to update"],
    [{ nickname: "" }, "Please enter a nickname"],
    [{ nickname: "x".repeat(33) }, "Nickname can be at most 32 characters"],
    [{ language: "de" }, "Unsupported language"],
    [{ photo: "javascript:alert(1)" }, "Please enter a valid photo address"],
  ])("user_update %j -> %s, changing nothing", async (body, msg) => {
    const { token, userId } = await visitor(t);
    const before = await t.db.user.findUniqueOrThrow({ where: { id: userId } });
    const res = await t.http.post("/api/Personal/user_update").set("token", token).send(body).expect(400);
    expect(res.body).toEqual({ code: 400, msg, data: null });
    expect(await t.db.user.findUniqueOrThrow({ where: { id: userId } })).toEqual(before);
  });

  it.each([
    [{}, "Please enter a nickname"],
    [{ nickname: "   " }, "Please enter a nickname"],
  ])("uploadUserInfo %j -> %s", async (body, msg) => {
    const { token } = await visitor(t);
    expect((await t.http.post("/api/Personal/uploadUserInfo").set("token", token).send(body).expect(400)).body.msg).toBe(msg);
  });

  it("changes only the caller's own account", async () => {
    const a = await visitor(t);
    const b = await visitor(t);
    await t.http.post("/api/Personal/uploadUserInfo").set("token", a.token).send({ nickname: "Aki", id: b.userId }).expect(200);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: b.userId } })).nickname).toBeNull();
  });
});

describe("who may call the user routes", () => {
  const routes = [
    ["get", "/api/Personal/personal_info"],
    ["get", "/api/Personal/select_users_integral"],
    ["post", "/api/Personal/user_update"],
    ["post", "/api/Personal/uploadUserInfo"],
  ] as const;

  it.each(routes)("%s %s is 401 without a token, with an unknown one and with a revoked one", async (method, path) => {
    const loggedOut = { code: 401, msg: "You have been logged out. Please log in again", data: null };
    expect((await t.http[method](path).send({ nickname: "x" }).expect(401)).body).toEqual(loggedOut);
    expect((await t.http[method](path).set("token", "made-up").send({ nickname: "x" }).expect(401)).body).toEqual(loggedOut);
    const { token } = await visitor(t);
    await t.http.post("/api/login/logout").set("token", token).expect(200);
    expect((await t.http[method](path).set("token", token).send({ nickname: "x" }).expect(401)).body).toEqual(loggedOut);
  });

  it.each(routes)("%s %s is 403 'Sorry, you do not have login permission' for a banned account", async (method, path) => {
    const { token, userId } = await visitor(t);
    await t.db.user.update({ where: { id: userId }, data: { bannedAt: new Date() } });
    const res = await t.http[method](path).set("token", token).send({ nickname: "x" }).expect(403);
    expect(res.body).toEqual({
      code: 403,
      msg: "Sorry, you do not have login permission",
      data: { reason: "banned", ban_reason: null, banned_at: null, decision: null },
    });
    if (method === "post") expect((await t.db.user.findUniqueOrThrow({ where: { id: userId } })).nickname).toBeNull();
  });

  it("accepts the token as a Bearer authorization too", async () => {
    const { token } = await visitor(t);
    await t.http.get("/api/Personal/personal_info").set("authorization", `Bearer ${token}`).expect(200);
  });
});

// Issue 30 item 2: the profile shows the sign-in methods linked and keeps the chosen language on the account.
describe("profile", () => {
  it("personal_info names the sign-in methods linked; the language chosen is saved on the account", async () => {
    const { token, userId } = await visitor(t);
    let info = (await t.http.get("/api/Personal/personal_info").set("token", token).expect(200)).body.data.info;
    expect(info.sign_in_methods).toEqual([]);
    await t.db.user.update({ where: { id: userId }, data: { email: "mika@example.com", googleSub: `g-${userId}`, loginType: "registered" } });
    await t.http.post("/api/Personal/user_update").set("token", token).send({ language: "ko", nickname: "Mika" }).expect(200);
    info = (await t.http.get("/api/Personal/personal_info").set("token", token).expect(200)).body.data.info;
    expect(info).toMatchObject({ email: "mika@example.com", sign_in_methods: ["email", "google"], language: "ko", nickname: "Mika" });
    const bad = await t.http.post("/api/Personal/user_update").set("token", token).send({ language: "xx" }).expect(400);
    expect(bad.body.msg).toBe("Unsupported language");
    expect((await t.db.user.findUniqueOrThrow({ where: { id: userId } })).language).toBe("ko");
  });

  it("the photo is one of the person's own uploads, shown by a signed address; someone else's is refused", async () => {
    const { token } = await visitor(t);
    const upload = async (who: string) =>
      (
        await t.http
          .post("/api/ImageUpload/upload")
          .set("token", who)
          .attach("file", await photo(320, 320), "me.jpg")
          .field("consent", "1")
          .expect(200)
      ).body.data.id as number;
    const mine = await upload(token);
    await t.http.post("/api/Personal/user_update").set("token", token).send({ photo_image_id: mine }).expect(200);
    const info = (await t.http.get("/api/Personal/personal_info").set("token", token).expect(200)).body.data.info;
    const shown = await fetchMedia(t, info.photo);
    expect([shown.status, shown.body.length > 100]).toEqual([200, true]);
    const other = await visitor(t);
    const theirs = await upload(other.token);
    await t.http.post("/api/Personal/user_update").set("token", token).send({ photo_image_id: theirs }).expect(404);
    const bad = await t.http.post("/api/Personal/user_update").set("token", token).send({ photo_image_id: "x" }).expect(400);
    expect(bad.body.msg).toBe("Please choose a photo");
    const me = await t.db.user.findUniqueOrThrow({ where: { uuid: info.uuid } });
    expect(me.photoKey).toBe((await t.db.upload.findUniqueOrThrow({ where: { id: mine } })).storageKey);
  });
});
