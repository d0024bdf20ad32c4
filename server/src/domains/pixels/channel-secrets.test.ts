import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, silentLog, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";
import { createChannelSecrets } from "./channel-secrets.ts";
import { createSecretBox } from "./secret-box.ts";

/** Conversion API tokens in the secret store (docs/decisions/191): admins write them, nobody reads them back. */
const KEY = crypto.randomBytes(32).toString("hex");
const TOKEN = "EAAG-meta-access-token-0123456789";

let t: TestApp;
let admin: { token: string };
let marketer: { token: string };
let channelId: number;

beforeAll(async () => {
  t = await createTestApp({ SECRETS_KEY: KEY });
  admin = await staffMember(t, ["admin"]);
  marketer = await staffMember(t, ["marketer"]);
  channelId = (await t.db.channel.create({ data: { code: "capi", name: "CAPI", serverConversions: { meta: { pixelId: "123456789" } } } })).id;
});
afterAll(() => t.close());

const setSecret = (who: { token: string }, body: object, id = channelId) => t.http.post(`/admin/api/channels/${id}/secrets`).set("token", who.token).send(body);

describe("channel secrets", () => {
  it("an admin sets a token: the answer and every later read show only 'set' and its last 4 characters; it is sealed at rest and audited without its value", async () => {
    const res = await setSecret(admin, { vendor: "meta", field: "accessToken", value: TOKEN }).expect(200);
    expect(JSON.stringify(res.body)).not.toContain(TOKEN);
    expect(res.body.configured).toBe(true);
    expect(res.body.secrets).toContainEqual(expect.objectContaining({ vendor: "meta", field: "accessToken", set: true, last4: "6789" }));
    expect(res.body.secrets).toContainEqual(expect.objectContaining({ vendor: "tiktok", field: "accessToken", set: false, last4: null }));

    const status = await t.http.get(`/admin/api/channels/${channelId}/secrets`).set("token", admin.token).expect(200);
    expect(JSON.stringify(status.body)).not.toContain(TOKEN);
    const channel = await t.http.get(`/admin/api/channels/${channelId}`).set("token", admin.token).expect(200);
    expect(JSON.stringify(channel.body)).not.toContain(TOKEN);

    const row = await t.db.channelSecret.findUniqueOrThrow({ where: { channelId_vendor_field: { channelId, vendor: "meta", field: "accessToken" } } });
    expect(row.sealed).not.toContain(TOKEN);
    expect(row.sealed).not.toContain(Buffer.from(TOKEN).toString("base64").slice(0, 12));
    const audits = await t.db.auditLog.findMany({ where: { resource: "ChannelSecret", resourceId: String(channelId) } });
    expect(audits.map((a) => a.action)).toContain("set_secret");
    expect(JSON.stringify(audits)).not.toContain(TOKEN);
    // only the conversion sender opens it
    expect(await openFor(channelId)).toEqual({ meta: { accessToken: TOKEN } });
  });

  it("a marketer can neither read nor set a token, not even through the channel form", async () => {
    await t.http.get(`/admin/api/channels/${channelId}/secrets`).set("token", marketer.token).expect(403);
    await setSecret(marketer, { vendor: "meta", field: "accessToken", value: "EAAG-marketer-token-xxxxxx" }).expect(403);
    await setSecret(marketer, { vendor: "meta", field: "accessToken", value: null }).expect(403);
    const before = await t.db.channel.findUniqueOrThrow({ where: { id: channelId } });
    const form = await t.http
      .put(`/admin/api/channels/${channelId}`)
      .set("token", marketer.token)
      .send({ serverConversions: { meta: { pixelId: "123456789", accessToken: "EAAG-marketer-token-xxxxxx" } } })
      .expect(400);
    expect(form.body.msg).toContain("accessToken");
    expect((await t.db.channel.findUniqueOrThrow({ where: { id: channelId } })).serverConversions).toEqual(before.serverConversions);
    // what a marketer may read of the channel carries no token
    const read = await t.http.get(`/admin/api/channels/${channelId}`).set("token", marketer.token).expect(200);
    expect(JSON.stringify(read.body)).not.toContain(TOKEN);
    const list = await t.http.get("/admin/api/channels").set("token", marketer.token).expect(200);
    expect(JSON.stringify(list.body)).not.toContain(TOKEN);
    // the admin's token is still the one stored
    const row = await t.db.channelSecret.findUniqueOrThrow({ where: { channelId_vendor_field: { channelId, vendor: "meta", field: "accessToken" } } });
    expect(row.updatedBy).not.toBeNull();
    expect(row.last4).toBe("6789");
  });

  it("refuses a vendor or field that is not a token, and clears a token with null", async () => {
    expect((await setSecret(admin, { vendor: "meta", field: "pixelId", value: "x" }).expect(400)).body.msg).toContain("This vendor has no such token");
    await setSecret(admin, { vendor: "bing", field: "accessToken", value: "x" }).expect(400);
    await setSecret(admin, { vendor: "meta", field: "accessToken", value: "x", extra: 1 }).expect(400);
    await setSecret(admin, { vendor: "meta", field: "accessToken", value: TOKEN }, 999_999).expect(404);
    await setSecret(admin, { vendor: "tiktok", field: "accessToken", value: "short" }).expect(200);
    const short = await t.db.channelSecret.findUniqueOrThrow({ where: { channelId_vendor_field: { channelId, vendor: "tiktok", field: "accessToken" } } });
    expect(short.last4).toBe(""); // four characters of a short token would give away too much of it
    const cleared = await setSecret(admin, { vendor: "tiktok", field: "accessToken", value: null }).expect(200);
    expect(cleared.body.secrets).toContainEqual(expect.objectContaining({ vendor: "tiktok", field: "accessToken", set: false }));
    expect(await t.db.auditLog.count({ where: { resource: "ChannelSecret", action: "clear_secret" } })).toBe(1);
  });

  it("tokens an older version left in a channel row move into the store at start-up, once", async () => {
    const legacy = await t.db.channel.create({
      data: {
        code: "legacy",
        name: "Legacy",
        serverConversions: {
          meta: { pixelId: "42", accessToken: "EAAG-legacy-token-abcdefgh" },
          tiktok: { pixelCode: "CTT", accessToken: "tt-legacy-token-ijklmnop" },
        },
      },
    });
    // meanwhile an admin had already set TikTok's token in the store: that one wins
    await setSecret(admin, { vendor: "tiktok", field: "accessToken", value: "tt-newer-token-qrstuvwx" }, legacy.id).expect(200);
    expect(JSON.stringify((await t.http.get(`/admin/api/channels/${legacy.id}`).set("token", marketer.token).expect(200)).body)).not.toContain("legacy-token");

    expect(await t.services.pixels.sealLegacyTokens(silentLog)).toBe(2);
    const row = await t.db.channel.findUniqueOrThrow({ where: { id: legacy.id } });
    expect(row.serverConversions).toEqual({ meta: { pixelId: "42" }, tiktok: { pixelCode: "CTT" } });
    const opened = await openFor(legacy.id);
    expect(opened).toEqual({ meta: { accessToken: "EAAG-legacy-token-abcdefgh" }, tiktok: { accessToken: "tt-newer-token-qrstuvwx" } });
    expect(await t.db.auditLog.count({ where: { resource: "ChannelSecret", action: "move_secrets", resourceId: String(legacy.id) } })).toBe(1);
    expect(await t.services.pixels.sealLegacyTokens(silentLog)).toBe(0);
  });

  it("a sealed token opens only with the same key for the same channel, vendor and field", () => {
    const box = createSecretBox(Buffer.from(KEY, "hex"));
    const sealed = box.seal(TOKEN, "channel:1:meta.accessToken");
    expect(box.open(sealed, "channel:1:meta.accessToken")).toBe(TOKEN);
    expect(() => box.open(sealed, "channel:2:meta.accessToken")).toThrow();
    expect(() => createSecretBox(crypto.randomBytes(32)).open(sealed, "channel:1:meta.accessToken")).toThrow();
  });

  it("without SECRETS_KEY a token cannot be set, and says why", async () => {
    const bare = await createTestApp({}, t.testDb);
    try {
      const a = await staffMember(bare, ["admin"]);
      const res = await bare.http
        .post(`/admin/api/channels/${channelId}/secrets`)
        .set("token", a.token)
        .send({ vendor: "meta", field: "accessToken", value: TOKEN })
        .expect(503);
      expect(res.body.msg).toBe("The secret store is not configured (SECRETS_KEY)");
      expect((await bare.http.get(`/admin/api/channels/${channelId}/secrets`).set("token", a.token).expect(200)).body.configured).toBe(false);
    } finally {
      await bare.close();
    }
  });
});

/** What the conversion sender gets for a channel. */
const openFor = (id: number) => createChannelSecrets(t.db, t.services.audit, KEY).forSending(t.db, id, silentLog);
