import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { telegramInitData } from "../../../../tests/fixtures/telegram.ts";

const BOT_TOKEN = "7123456789:AAFakeBotSecretForReverieTests_0123";
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TELEGRAM_BOT_TOKEN: BOT_TOKEN, RATE_LIMIT_LOGIN_PER_MINUTE: "1000" });
});
afterAll(() => t.close());

const refused = { code: 400, msg: "Sorry, you do not have login permission", data: null };
const login = (channel_token: string, token?: string) => {
  const req = t.http.post("/api/OrderJpay/channelServerLogin");
  if (token) req.set("token", token);
  return req.send({ channel_token });
};

describe("POST /api/OrderJpay/channelServerLogin (Telegram Mini App)", () => {
  it("a genuine initData logs in: playerUid is the Telegram user, serverId the bot; the second time is the same account", async () => {
    const res = await login(telegramInitData(BOT_TOKEN, { userId: 5001, firstName: "Olga" })).expect(200);
    expect(res.body.data).toMatchObject({ playerUid: "5001", serverId: "7123456789", is_register: 1, user_info: { nickname: "Olga", type: "noRegister" } });
    expect(res.body.data.token).toMatch(/.{20,}/);
    const again = await login(telegramInitData(BOT_TOKEN, { userId: 5001 })).expect(200);
    expect(again.body.data).toMatchObject({ is_register: 0, playerUid: "5001" });
    expect(again.body.data.user_info.id).toBe(res.body.data.user_info.id);
  });

  it("refuses forged, tampered, stale and future initData and signs nobody in", async () => {
    const before = await t.db.user.count();
    expect((await login(telegramInitData("7123456789:AnotherBotsSecret", { userId: 5002 }))).body).toEqual(refused);
    const good = telegramInitData(BOT_TOKEN, { userId: 5002 });
    expect((await login(good.replace("5002", "5003"))).body).toEqual(refused);
    expect((await login(good.replace(/hash=[0-9a-f]+/, ""))).body).toEqual(refused);
    expect((await login(telegramInitData(BOT_TOKEN, { userId: 5002, authDate: Math.floor(Date.now() / 1000) - 3601 }))).body).toEqual(refused);
    expect((await login(telegramInitData(BOT_TOKEN, { userId: 5002, authDate: Math.floor(Date.now() / 1000) + 3600 }))).body).toEqual(refused);
    expect((await login("not init data at all")).body).toEqual(refused);
    expect(await t.db.user.count()).toBe(before);
  });

  it("a guest who opens the Mini App keeps what they had: the guest becomes the channel account", async () => {
    const guest = await visitor(t);
    await t.services.credits.grant({ userId: guest.userId, amount: 7, reason: "bonus", idempotencyKey: `g:${guest.userId}` });
    const res = await login(telegramInitData(BOT_TOKEN, { userId: 5004 }), guest.token).expect(200);
    expect(res.body.data.user_info).toMatchObject({ id: guest.userId, points: 7, type: "noRegister" });
  });

  it("a guest logging in to an existing channel account is merged into it (credits through the ledger)", async () => {
    const first = await login(telegramInitData(BOT_TOKEN, { userId: 5005 })).expect(200);
    const guest = await visitor(t);
    await t.services.credits.grant({ userId: guest.userId, amount: 12, reason: "bonus", idempotencyKey: `g:${guest.userId}` });
    const res = await login(telegramInitData(BOT_TOKEN, { userId: 5005 }), guest.token).expect(200);
    expect(res.body.data.user_info).toMatchObject({ id: first.body.data.user_info.id, points: 12 });
    expect(await t.db.user.findUniqueOrThrow({ where: { id: guest.userId } })).toMatchObject({ mergedIntoId: first.body.data.user_info.id, points: 0 });
    expect(await t.services.credits.findLedgerMismatches()).toEqual([]);
  });

  it("a channel-only account is noRegister, a saved account (not a guest); an email or Google keeps registered (issue 47 item 8)", async () => {
    const res = await login(telegramInitData(BOT_TOKEN, { userId: 5006 })).expect(200);
    const info = res.body.data.user_info;
    expect(info.type).toBe("noRegister");
    expect(await t.db.user.findUniqueOrThrow({ where: { id: info.id } })).toMatchObject({ loginType: "noRegister", role: "user" });
    // everything a saved account may do, it may: nothing asks it to save the account
    expect(info.authBtnList).toEqual(expect.arrayContaining(["create:CharacterModel", "create:CheckIn", "create:Tip", "create:CreatorPage"]));
    const again = await login(telegramInitData(BOT_TOKEN, { userId: 5006 })).expect(200);
    expect(again.body.data.user_info.type).toBe("noRegister");

    // an account with an email that also has this player id stays registered through a channel login
    const both = await t.db.user.create({ data: { email: `both-${Date.now()}@example.com`, playerUid: "5007", loginType: "registered", role: "user" } });
    const theirs = await login(telegramInitData(BOT_TOKEN, { userId: 5007 })).expect(200);
    expect(theirs.body.data.user_info).toMatchObject({ id: both.id, type: "registered" });
  });

  it("migration 0280 gives channel-only accounts marked registered their type, and leaves every other account alone", async () => {
    const stamp = Date.now();
    const [channelOnly, withEmail, withGoogle, guest] = await Promise.all([
      t.db.user.create({ data: { playerUid: `m-${stamp}-1`, loginType: "registered", role: "user" } }),
      t.db.user.create({ data: { playerUid: `m-${stamp}-2`, email: `m-${stamp}@example.com`, loginType: "registered", role: "user" } }),
      t.db.user.create({ data: { playerUid: `m-${stamp}-3`, googleSub: `g-${stamp}`, loginType: "registered", role: "user" } }),
      t.db.user.create({ data: { loginType: "visitor", role: "visitor" } }),
    ]);
    await t.db.$executeRawUnsafe(await fs.readFile(path.resolve("prisma/migrations/0280_login_type_no_register.sql"), "utf8"));
    const typeOf = async (u: { id: number }) => (await t.db.user.findUniqueOrThrow({ where: { id: u.id } })).loginType;
    expect(await Promise.all([channelOnly, withEmail, withGoogle, guest].map(typeOf))).toEqual(["noRegister", "registered", "registered", "visitor"]);
  });

  it("answers 503 when no bot is configured", async () => {
    const bare = await createTestApp();
    try {
      const res = await bare.http.post("/api/OrderJpay/channelServerLogin").send({ channel_token: telegramInitData(BOT_TOKEN) });
      expect(res.body).toMatchObject({ code: 503, msg: "Channel login is not configured" });
    } finally {
      await bare.close();
    }
  });
});
