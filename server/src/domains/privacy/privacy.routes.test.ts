import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, fetchMedia, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { startFakeGoogle, type FakeGoogle } from "../../../../tests/fixtures/google.ts";
import { startFakeSmtp, type FakeSmtp } from "../../../../tests/fixtures/smtp.ts";
import { telegramInitData } from "../../../../tests/fixtures/telegram.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";

const BOT_TOKEN = "7123456789:AAFakeBotSecretForReverieTests_0123";
let t: TestApp;
let smtp: FakeSmtp;
let google: FakeGoogle;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  google = await startFakeGoogle();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    EMAIL_CODE_RESEND_SECONDS: "0",
    ACCOUNT_DELETION_GRACE_DAYS: "7",
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    GOOGLE_CERTS_URL: google.certsUrl,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    TELEGRAM_BOT_TOKEN: BOT_TOKEN,
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await google.close();
});

const as = (token: string) => ({ get: (p: string) => t.http.get(p).set("token", token), post: (p: string) => t.http.post(p).set("token", token) });

/** An account with things of each kind: credits, an order, an upload and a creation with files, a chat with messages. */
async function accountWithData(userId: number) {
  const { storage, credits } = t.services;
  await credits.grant({ userId, amount: 30, reason: "test_grant", idempotencyKey: `grant:${userId}` });
  const uploadKey = `u/${userId}/uploads/${crypto.randomUUID()}.jpg`;
  const outputKey = `u/${userId}/outputs/${crypto.randomUUID()}.mp4`;
  await storage.put(uploadKey, Buffer.from("upload-bytes"), "image/jpeg");
  await storage.put(outputKey, Buffer.from("video-bytes"), "video/mp4");
  const upload = await t.db.upload.create({ data: { userId, kind: "image", storageKey: uploadKey, mime: "image/jpeg", sizeBytes: 12, sha256: "x" } });
  const task = await t.db.generationTask.create({
    data: { userId, mode: "image_to_video", engine: "local", status: "succeeded", cost: 1, input: { prompt: "a walk by the sea" }, outputKey },
  });
  const character = await t.db.character.create({ data: { userId, name: "Mira", greeting: "Hi" } });
  const chat = await t.db.conversation.create({ data: { userId, characterId: character.id } });
  await t.db.chatMessage.createMany({
    data: [
      { conversationId: chat.id, role: "user", content: "my secret plans" },
      { conversationId: chat.id, role: "assistant", content: "tell me more" },
    ],
  });
  const product = await t.db.product.upsert({
    where: { code: "privacy-test-pack" },
    create: { code: "privacy-test-pack", name: "Test pack", credits: 1, prices: [{ currency: "USD", priceMinor: 199, salePriceMinor: null }] },
    update: {},
  });
  const order = await t.db.order.create({
    data: {
      orderNo: `o-${userId}`,
      userId,
      productId: product.id,
      productName: product.name,
      amountMinor: 199,
      finalPriceMinor: 199,
      currency: "USD",
      credits: 1,
      provider: "sandbox",
      status: "paid",
      payUrl: "https://pay.example/x",
      expiresAt: new Date(),
    },
  });
  return { upload, task, chat, order, uploadKey, outputKey };
}

/** The SPEC.md §7 headers a first visit from an ad brings; the account keeps them in its own columns. */
const ATTRIBUTION = { "channel-id": "ch-erase", "utm-campaign": "spring", "utm-adset": "set-7", "utm-ad": "ad-3", "bemob-click-id": "bm-123" };

/**
 * An account with every personal column a web sign-in fills, filled the way the product fills it: a guest's first
 * visit from an ad, Google sign-in (email, subject, name, picture), then a title.
 */
async function googleAccount(email: string) {
  const guest = await t.http.post("/api/login/visitor").set(ATTRIBUTION).expect(200);
  const res = await t.http
    .post("/api/login/googleLogin")
    .set("token", guest.body.data.token)
    .send({ id_token: google.idToken({ email, name: "Erin Example", picture: "https://lh3.googleusercontent.com/a/erin" }) })
    .expect(200);
  const me = { token: res.body.data.token as string, userId: res.body.data.user_info.id as number };
  await as(me.token).post("/api/Personal/user_update").send({ title: "Dr" }).expect(200);
  return me;
}

async function emailAccount(email: string) {
  await t.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
  const res = await t.http
    .post("/api/login/emailLogin")
    .send({ email, code: smtp.codeFor(email) })
    .expect(200);
  return { token: res.body.data.token as string, userId: res.body.data.user_info.id as number };
}

describe("my data out", () => {
  it("prepares one archive of everything of mine in the background, one at a time, and lets only me download it", async () => {
    const me = await emailAccount("export-me@example.com");
    const data = await accountWithData(me.userId);
    const asked = await as(me.token).post("/api/privacy/export").expect(200);
    expect(asked.body.data.status).toBe("queued");
    const again = await as(me.token).post("/api/privacy/export").expect(409);
    expect(again.body.msg).toBe("Your data export is already being prepared");
    await as(me.token).get(`/api/privacy/export/link?id=${asked.body.data.id}`).expect(409);

    await t.services.privacy.runExport(asked.body.data.id);
    const status = (await as(me.token).get("/api/privacy/status").expect(200)).body.data;
    expect(status.export).toMatchObject({ id: asked.body.data.id, status: "ready" });
    expect(status.confirm_by).toBe("email");
    expect(smtp.received.some((m) => m.to.includes("export-me@example.com") && m.data.includes("data export is ready"))).toBe(true);

    const other = await visitor(t);
    await as(other.token).get(`/api/privacy/export/link?id=${asked.body.data.id}`).expect(404);
    expect((await as(other.token).get("/api/privacy/status").expect(200)).body.data.export).toBeNull();

    const link = (await as(me.token).get(`/api/privacy/export/link?id=${asked.body.data.id}`).expect(200)).body.data;
    const zip = await fetchMedia(t, link.url);
    expect(zip.status).toBe(200);
    // saved as the product's archive of that day, not "file.zip" (issue 46 item 21)
    const signed = new URL(link.url, "http://any-host");
    const saved = await t.http.head(signed.pathname + signed.search).expect(200);
    const day = (await t.db.dataExport.findUniqueOrThrow({ where: { id: asked.body.data.id } })).readyAt!.toISOString().slice(0, 10);
    expect(saved.headers["content-disposition"]).toBe(`attachment; filename=Reverie-data-${day}.zip`);
    const files = unzipSync(new Uint8Array(zip.body));
    const json = (name: string) => JSON.parse(strFromU8(files[name]));
    expect(json("profile.json").user).toMatchObject({ id: me.userId, email: "export-me@example.com", points: 30 });
    expect(json("ledger.json").map((e: { delta: number }) => e.delta)).toEqual([30]);
    expect(json("orders.json")).toEqual([expect.objectContaining({ orderNo: data.order.orderNo })]);
    expect(json("orders.json")[0]).not.toHaveProperty("payUrl");
    expect(json("creations.json")).toEqual([expect.objectContaining({ id: data.task.id, prompt: "a walk by the sea", file: `creations/${data.task.id}.mp4` })]);
    expect(strFromU8(files[`creations/${data.task.id}.mp4`])).toBe("video-bytes");
    expect(strFromU8(files[`uploads/${data.upload.id}.jpg`])).toBe("upload-bytes");
    expect(json(`chats/${data.chat.id}.json`)).toMatchObject({ character: "Mira", messages: [{ content: "my secret plans" }, { content: "tell me more" }] });
    expect(json("characters.json")).toEqual([expect.objectContaining({ name: "Mira" })]);
    expect(Object.keys(files)).toContain("README.txt");

    // the next one a day after this one was asked for (issue 47 item 6)
    await as(me.token).post("/api/privacy/export").expect(429);
  });

  it("refuses a bad id with 400, an unknown one with 404 and a caller without a login with 401, changing nothing", async () => {
    const me = await visitor(t);
    await as(me.token).get("/api/privacy/export/link?id=abc").expect(400);
    await as(me.token).get("/api/privacy/export/link?id=999999").expect(404);
    await t.http.post("/api/privacy/export").expect(401);
    expect(await t.db.dataExport.count({ where: { userId: me.userId } })).toBe(0);
  });

  it("asked many times at once, starts exactly one export", async () => {
    const me = await visitor(t);
    const answers = await Promise.all(Array.from({ length: 10 }, () => as(me.token).post("/api/privacy/export")));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(9);
    expect(await t.db.dataExport.count({ where: { userId: me.userId } })).toBe(1);
  });
});

describe("one export a day (issue 47 item 6)", () => {
  /** Moves the account's exports back in time, as if they had been asked for `hours` ago. */
  const askedAgo = (userId: number, hours: number) =>
    t.db.dataExport.updateMany({ where: { userId }, data: { createdAt: new Date(Date.now() - hours * 3600_000) } });

  it("refuses a second export the same day, creating nothing, and says when the next may be asked for", async () => {
    const me = await visitor(t);
    const first = (await as(me.token).post("/api/privacy/export").expect(200)).body.data;
    await t.services.privacy.runExport(first.id);
    const next = new Date(first.created_at).getTime() + 24 * 3600_000;
    const status = (await as(me.token).get("/api/privacy/status").expect(200)).body.data;
    expect(new Date(status.next_export_at).getTime()).toBe(next);

    const again = await as(me.token).post("/api/privacy/export").expect(429);
    expect(again.body.msg).toBe("You can ask for one data export a day");
    expect(new Date(again.body.data.next_export_at).getTime()).toBe(next);
    expect(await t.db.dataExport.count({ where: { userId: me.userId } })).toBe(1);

    // a day later the person may ask again
    await askedAgo(me.userId, 24.01);
    expect((await as(me.token).get("/api/privacy/status").expect(200)).body.data.next_export_at).toBeNull();
    await as(me.token).post("/api/privacy/export").expect(200);
    expect(await t.db.dataExport.count({ where: { userId: me.userId } })).toBe(2);
  });

  it("does not count a failed export, nor one staff started; staff may start more the same day", async () => {
    const me = await visitor(t);
    const support = await staffMember(t, ["support"]);
    const failed = (await as(me.token).post("/api/privacy/export").expect(200)).body.data;
    await t.db.dataExport.update({ where: { id: failed.id }, data: { status: "failed" } });
    const mine = (await as(me.token).post("/api/privacy/export").expect(200)).body.data;
    await t.services.privacy.runExport(mine.id);
    await as(me.token).post("/api/privacy/export").expect(429);

    const byStaff = () => t.http.post(`/admin/api/users/${me.userId}/data-export`).set("token", support.token).send({ reason: "asked by letter" });
    await byStaff().expect(200);
    const staffs = await t.db.dataExport.findFirstOrThrow({ where: { userId: me.userId, staffId: support.staffId } });
    await t.services.privacy.runExport(staffs.id);
    await byStaff().expect(200);
    expect(await t.db.dataExport.count({ where: { userId: me.userId, staffId: support.staffId } })).toBe(2);
    expect(await t.db.auditLog.count({ where: { staffId: support.staffId, action: "data_export", resourceId: String(me.userId) } })).toBe(2);

    // staff's exports are not the person's: a day after their own, they may ask again
    await t.db.dataExport.updateMany({ where: { userId: me.userId, staffId: null }, data: { createdAt: new Date(Date.now() - 25 * 3600_000) } });
    await t.db.dataExport.updateMany({ where: { userId: me.userId, staffId: { not: null } }, data: { status: "ready" } });
    await as(me.token).post("/api/privacy/export").expect(200);
  });

  it("asked many times at once a day after the last, starts exactly one", async () => {
    const me = await visitor(t);
    const first = (await as(me.token).post("/api/privacy/export").expect(200)).body.data;
    await t.services.privacy.runExport(first.id);
    await askedAgo(me.userId, 25);
    const answers = await Promise.all(Array.from({ length: 20 }, () => as(me.token).post("/api/privacy/export")));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status !== 200).map((r) => r.status)).toEqual(Array(19).fill(409));
    expect(await t.db.dataExport.count({ where: { userId: me.userId } })).toBe(2);
    // the one started is built; then the rest of the day is refused with the wait, and still nothing is created
    await t.services.privacy.runExport(answers.find((r) => r.status === 200)!.body.data.id);
    const later = await Promise.all(Array.from({ length: 20 }, () => as(me.token).post("/api/privacy/export")));
    expect(later.map((r) => r.status)).toEqual(Array(20).fill(429));
    expect(await t.db.dataExport.count({ where: { userId: me.userId } })).toBe(2);
  });
});

describe("the emails about my data", () => {
  it("are written in the account's language", async () => {
    const person = await visitor(t);
    const email = `privacy-ru-${person.userId}@example.com`;
    await t.db.user.update({ where: { id: person.userId }, data: { email, language: "ru" } });
    await as(person.token).post("/api/privacy/export").expect(200);
    await t.services.privacy.runExport((await t.db.dataExport.findFirstOrThrow({ where: { userId: person.userId } })).id);
    const support = await staffMember(t, ["support"]);
    await t.http.post(`/admin/api/users/${person.userId}/delete-account`).set("token", support.token).send({ reason: "asked by letter" }).expect(200);
    const mails = await t.db.outboxEmail.findMany({ where: { to: email }, orderBy: { id: "asc" } });
    expect(mails.map((m) => m.subject)).toEqual(["Выгрузка ваших данных Reverie готова", "Ваш аккаунт Reverie будет удалён"]);
    expect(mails.map((m) => m.body)).toEqual([expect.stringContaining("Мои данные"), expect.stringContaining("Мои данные")]);
  });
});

describe("my account gone", () => {
  it("a guest confirms in the app; undo during the grace period keeps everything", async () => {
    const me = await visitor(t);
    expect((await as(me.token).get("/api/privacy/status").expect(200)).body.data.confirm_by).toBe("app");
    const code = await as(me.token).post("/api/privacy/deletion/code").expect(400);
    expect(code.body.msg).toBe("This account has no email; confirm the deletion in the app");
    const bare = await as(me.token).post("/api/privacy/deletion").send({}).expect(400);
    expect(bare.body.msg).toBe("Please confirm that you want to delete your account");
    const asked = await as(me.token).post("/api/privacy/deletion").send({ confirm: true }).expect(200);
    expect(asked.body.data.status).toBe("pending");
    expect(new Date(asked.body.data.erase_after).getTime()).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);
    await as(me.token).post("/api/privacy/deletion").send({ confirm: true }).expect(409);
    await as(me.token).post("/api/privacy/deletion/undo").expect(200);
    await as(me.token).post("/api/privacy/deletion/undo").expect(404);
    // undone: the erase job, when it comes, changes nothing
    expect(await t.services.privacy.eraseDue(asked.body.data.id, new Date(Date.now() + 8 * 86_400_000))).toBe(false);
    await as(me.token).get("/api/Personal/personal_info").expect(200);
  });

  it("an account with an email confirms with the emailed code; a wrong code changes nothing", async () => {
    const me = await emailAccount("delete-code@example.com");
    await as(me.token).post("/api/privacy/deletion").send({ confirm: true }).expect(400);
    await as(me.token).post("/api/privacy/deletion/code").expect(200);
    const code = smtp.codeFor("delete-code@example.com");
    const wrong = code === "000000" ? "111111" : "000000";
    await as(me.token).post("/api/privacy/deletion").send({ code: wrong }).expect(400);
    expect(await t.db.accountDeletion.count({ where: { userId: me.userId } })).toBe(0);
    await as(me.token).post("/api/privacy/deletion").send({ code }).expect(200);
    expect(smtp.received.some((m) => m.to.includes("delete-code@example.com") && m.data.includes("will be deleted"))).toBe(true);
  });

  it("a deletion code has its own resend window and email, and is not a sign-in code (nor a sign-in code a deletion code)", async () => {
    // issue 46 item 8: with the real 60 s window, the code asked right after signing in is sent, not refused
    const app = await createTestApp({ SMTP_URL: smtp.url });
    try {
      const email = `delete-own-window-${Date.now()}@example.com`;
      await app.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
      const login = await app.http
        .post("/api/login/emailLogin")
        .send({ email, code: smtp.codeFor(email) })
        .expect(200);
      const token = login.body.data.token as string;
      const sent = await app.http.post("/api/privacy/deletion/code").set("token", token).expect(200);
      expect(sent.body.data).toMatchObject({ resend_in: 60 });
      const deletionCode = smtp.codeFor(email);
      const mail = await app.db.outboxEmail.findFirstOrThrow({ where: { to: email }, orderBy: { id: "desc" } });
      expect(mail.subject).toMatch(/^Code to delete your Reverie account: /);
      expect(mail.body).toContain("delete your Reverie account");
      // a second one within its own window: refused with the wait to count down
      const again = await app.http.post("/api/privacy/deletion/code").set("token", token).expect(429);
      expect(again.body.data.resend_in).toBeGreaterThan(55);
      expect(again.body.data.resend_in).toBeLessThanOrEqual(60);
      // the deletion code does not sign in; a sign-in code does not delete
      await app.http.post("/api/login/emailLogin").send({ email, code: deletionCode }).expect(400);
      await app.db.emailCode.updateMany({ where: { email, purpose: "login" }, data: { createdAt: new Date(Date.now() - 61_000) } });
      await app.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
      await app.http
        .post("/api/privacy/deletion")
        .set("token", token)
        .send({ code: smtp.codeFor(email) })
        .expect(400);
      expect(await app.db.accountDeletion.count({ where: { user: { email } } })).toBe(0);
      await app.http.post("/api/privacy/deletion").set("token", token).send({ code: deletionCode }).expect(200);
    } finally {
      await app.close();
    }
  });

  it("the deletion code's email is written in the account's language", async () => {
    const me = await emailAccount("delete-code-ja@example.com");
    await t.db.user.update({ where: { id: me.userId }, data: { language: "ja" } });
    await as(me.token).post("/api/privacy/deletion/code").expect(200);
    const mail = await t.db.outboxEmail.findFirstOrThrow({ where: { to: "delete-code-ja@example.com" }, orderBy: { id: "desc" } });
    expect(mail.subject).toMatch(/^Reverieのアカウントを削除するコード：/);
    expect(mail.body).toContain("マイデータ");
  });

  it("another account can neither delete me nor undo my deletion", async () => {
    const me = await visitor(t);
    const other = await visitor(t);
    await as(me.token).post("/api/privacy/deletion").send({ confirm: true }).expect(200);
    await as(other.token).post("/api/privacy/deletion/undo").expect(404);
    expect(await t.db.accountDeletion.count({ where: { userId: me.userId, status: "pending" } })).toBe(1);
    expect(await t.db.accountDeletion.count({ where: { userId: other.userId } })).toBe(0);
  });

  it("after the grace period removes personal data and media, keeps orders and ledger, and the ledger still adds up", async () => {
    const me = await googleAccount("erase-me@example.com");
    const data = await accountWithData(me.userId);
    // the profile photo chosen from the person's own uploads (decision 259)
    await as(me.token).post("/api/Personal/user_update").send({ photo_image_id: data.upload.id }).expect(200);
    // every column the erasure must clear is filled first, or its check below would pass for a column it ignores
    const filled = await t.db.user.findUniqueOrThrow({ where: { id: me.userId } });
    expect(filled).toMatchObject({
      nickname: "Erin Example",
      email: "erase-me@example.com",
      googleSub: expect.any(String),
      photo: expect.any(String),
      photoKey: data.uploadKey,
      title: "Dr",
      channelId: "ch-erase",
      utmCampaign: "spring",
      utmAdset: "set-7",
      utmAd: "ad-3",
      bemobClickId: "bm-123",
    });
    await as(me.token).post("/api/privacy/export").expect(200);
    const exp = await t.db.dataExport.findFirstOrThrow({ where: { userId: me.userId } });
    await t.services.privacy.runExport(exp.id);
    const archiveKey = (await t.db.dataExport.findUniqueOrThrow({ where: { id: exp.id } })).storageKey!;
    await as(me.token).post("/api/privacy/deletion/code").expect(200);
    const asked = await as(me.token)
      .post("/api/privacy/deletion")
      .send({ code: smtp.codeFor("erase-me@example.com") })
      .expect(200);
    // not yet due: nothing happens
    expect(await t.services.privacy.eraseDue(asked.body.data.id)).toBe(false);
    const later = new Date(Date.now() + 8 * 86_400_000);
    const [first, second] = await Promise.all([t.services.privacy.eraseDue(asked.body.data.id, later), t.services.privacy.eraseDue(asked.body.data.id, later)]);
    expect([first, second].filter(Boolean)).toHaveLength(1);

    const user = await t.db.user.findUniqueOrThrow({ where: { id: me.userId } });
    for (const f of ["nickname", "email", "googleSub", "photo", "title", "channelId", "utmCampaign", "utmAdset", "utmAd", "bemobClickId", "photoKey"] as const)
      expect(user[f], f).toBeNull();
    expect(user.erasedAt).not.toBeNull();
    for (const key of [data.uploadKey, data.outputKey, archiveKey]) expect(await t.services.storage.exists(key)).toBe(false);
    expect(await t.db.upload.count({ where: { userId: me.userId } })).toBe(0);
    expect(await t.db.generationTask.count({ where: { userId: me.userId } })).toBe(0);
    expect(await t.db.conversation.count({ where: { userId: me.userId } })).toBe(0);
    expect(await t.db.chatMessage.count({ where: { conversationId: data.chat.id } })).toBe(0);
    expect(await t.db.character.count({ where: { userId: me.userId, name: { not: "" } } })).toBe(0);
    expect(await t.db.dataExport.count({ where: { userId: me.userId } })).toBe(0);
    expect(await t.db.emailCode.count({ where: { email: "erase-me@example.com" } })).toBe(0);
    expect(await t.db.outboxEmail.count({ where: { to: "erase-me@example.com" } })).toBe(0);
    const order = await t.db.order.findUniqueOrThrow({ where: { id: data.order.id } });
    expect(order).toMatchObject({ finalPriceMinor: 199, status: "paid", payUrl: null });
    const ledger = await t.db.ledgerEntry.aggregate({ where: { userId: me.userId }, _sum: { delta: true } });
    expect(ledger._sum.delta).toBe(user.points);
    // every login ended
    await as(me.token).get("/api/Personal/personal_info").expect(401);
  });
});

describe("erasing a messaging-channel account", () => {
  it("removes the Telegram player id, name and photo it signed in with", async () => {
    const res = await t.http
      .post("/api/OrderJpay/channelServerLogin")
      .set(ATTRIBUTION)
      .send({ channel_token: telegramInitData(BOT_TOKEN, { userId: 7301, firstName: "Tanya" }) })
      .expect(200);
    const me = { token: res.body.data.token as string, userId: res.body.data.user_info.id as number };
    expect(await t.db.user.findUniqueOrThrow({ where: { id: me.userId } })).toMatchObject({
      playerUid: "7301",
      nickname: "Tanya",
      photo: expect.any(String),
      channelId: "ch-erase",
      bemobClickId: "bm-123",
    });
    const asked = await as(me.token).post("/api/privacy/deletion").send({ confirm: true }).expect(200);
    expect(await t.services.privacy.eraseDue(asked.body.data.id, new Date(Date.now() + 8 * 86_400_000))).toBe(true);
    expect(await t.db.user.findUniqueOrThrow({ where: { id: me.userId } })).toMatchObject({
      playerUid: null,
      nickname: null,
      photo: null,
      channelId: null,
      bemobClickId: null,
      erasedAt: expect.any(Date),
    });
  });
});

describe("support runs both from the console", () => {
  it("asks for an export and a deletion for a user, undoes it, each audited; a moderator may not", async () => {
    const person = await visitor(t);
    const support = await staffMember(t, ["support"]);
    const moderator = await staffMember(t, ["moderator"]);
    await t.http.post(`/admin/api/users/${person.userId}/data-export`).set("token", moderator.token).send({ reason: "asked by email" }).expect(403);
    await t.http.post(`/admin/api/users/${person.userId}/data-export`).set("token", support.token).send({ reason: "asked by email" }).expect(200);
    await t.http.post(`/admin/api/users/${person.userId}/delete-account`).set("token", support.token).send({ reason: "asked by letter" }).expect(200);
    await t.http.post(`/admin/api/users/${person.userId}/undo-delete-account`).set("token", support.token).send({ reason: "changed their mind" }).expect(200);
    const audit = await t.db.auditLog.findMany({ where: { staffId: support.staffId, resourceId: String(person.userId) }, orderBy: { id: "asc" } });
    expect(audit.map((a) => [a.action, a.reason])).toEqual([
      ["data_export", "asked by email"],
      ["account_deletion", "asked by letter"],
      ["account_deletion_undo", "changed their mind"],
    ]);
  });

  it("answers 404 for an account that does not exist, creating nothing", async () => {
    const support = await staffMember(t, ["support"]);
    const missing = 2_000_000_000;
    for (const action of ["data-export", "delete-account", "undo-delete-account"])
      await t.http.post(`/admin/api/users/${missing}/${action}`).set("token", support.token).send({ reason: "asked by email" }).expect(404);
    expect(await t.db.dataExport.count({ where: { userId: missing } })).toBe(0);
    expect(await t.db.accountDeletion.count({ where: { userId: missing } })).toBe(0);
  });
});
