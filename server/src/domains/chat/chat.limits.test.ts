import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { LIMIT_MESSAGES, quotaMessage } from "../../contract/limits.ts";
import { MSG } from "../../http/messages.ts";

/**
 * Issue 29 defect 7: what one account may make. One guest made 150 public maximum-length characters and 150
 * conversations in a row and filled the public catalogue's newest page. Quotas are counted from the rows under a lock,
 * hourly rates in PostgreSQL (shared by every API instance, kept over restarts).
 */
/** A short card: the catalogue and the quotas care about how many, not what they say. */
const CARD = { name: "Mira", description: "A 29-year-old lighthouse keeper", greeting: "Welcome in, stranger.", age: 29 };
/** Small quotas, roomy rates. */
let t: TestApp;
/** The same database with small hourly rates (another API instance). */
let rates: TestApp;
const RATES = {
  RATE_LIMIT_CHARACTERS_PER_HOUR: "3",
  RATE_LIMIT_CONVERSATIONS_PER_HOUR: "3",
  RATE_LIMIT_DRAFTS_PER_HOUR: "2",
  RATE_LIMIT_AVATARS_PER_HOUR: "2",
  RATE_LIMIT_REPORTS_PER_ACCOUNT_PER_HOUR: "2",
};

beforeAll(async () => {
  t = await createTestApp({ QUOTA_CHARACTERS: "5", QUOTA_CONVERSATIONS: "4", RATE_LIMIT_CHARACTERS_PER_HOUR: "100", RATE_LIMIT_CONVERSATIONS_PER_HOUR: "100" });
  rates = await createTestApp(RATES, t.testDb);
});
afterAll(async () => {
  await rates?.close();
  await t?.close();
});

const post = (app: TestApp, path: string, body: object, token: string) => app.http.post(path).set("token", token).send(body);
const makeCharacter = (app: TestApp, token: string, extra: object = {}) => post(app, "/api/RoleChat/creatCharacter", { ...CARD, ...extra }, token);

describe("characters and conversations one account may make", () => {
  it("a guest's 12 characters at once: 5 are saved, the rest refused with the quota; all stay private and out of the catalogue", async () => {
    const guest = await visitor(t);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => makeCharacter(t, guest.token, { name: `Mira ${i}`, is_public: 1 })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body).toEqual({ code: 409, msg: quotaMessage("characters", 5), data: null });
    expect(answers.filter((a) => a.status === 200).map((a) => a.body.data.is_public)).toEqual([0, 0, 0, 0, 0]);
    expect(await t.db.character.count({ where: { userId: guest.userId } })).toBe(5);
    const catalogue = await t.http.get("/api/RoleChat/getCharacterList").query({ sort: "new", limit: 50 }).expect(200);
    expect(catalogue.body.data.list.filter((c: { name: string }) => c.name.startsWith("Mira "))).toEqual([]);
  });

  it("a guest's character becomes publishable once the account is registered", async () => {
    const guest = await visitor(t);
    const made = (await makeCharacter(t, guest.token, { is_public: 1 }).expect(200)).body.data;
    expect(made.is_public).toBe(0);
    await t.db.user.update({ where: { id: guest.userId }, data: { loginType: "registered", role: "user", email: `limits-${guest.userId}@example.com` } });
    const edited = (await makeCharacter(t, guest.token, { id: made.id, is_public: 1 }).expect(200)).body.data;
    expect(edited.is_public).toBe(1);
  });

  it("8 conversations at once against a quota of 4: 4 start; deleting one makes room for one more", async () => {
    const guest = await visitor(t);
    const character = (await makeCharacter(t, guest.token).expect(200)).body.data;
    const start = () => post(t, "/api/RoleChat/creatConversation", { character_id: character.id }, guest.token);
    const answers = await Promise.all(Array.from({ length: 8 }, start));
    const started = answers.filter((a) => a.status === 200);
    expect(started).toHaveLength(4);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body).toEqual({ code: 409, msg: quotaMessage("conversations", 4), data: null });
    await post(t, "/api/RoleChat/deleteConversation", { conversation_id: started[0]!.body.data.id }, guest.token).expect(200);
    await start().expect(200);
    await start().expect(409);
  });

  it("hourly rates per account: characters (edits not counted), conversations, drafts and avatars; a restarted instance still counts them", async () => {
    const guest = await visitor(rates);
    const made: { id: number }[] = [];
    for (let i = 0; i < 3; i++) made.push((await makeCharacter(rates, guest.token, { name: `Rate ${i}` }).expect(200)).body.data);
    expect((await makeCharacter(rates, guest.token).expect(429)).body).toEqual({ code: 429, msg: LIMIT_MESSAGES.hourly, data: null });
    await makeCharacter(rates, guest.token, { id: made[0]!.id, name: "Edited" }).expect(200);
    const start = () => post(rates, "/api/RoleChat/creatConversation", { character_id: made[0]!.id }, guest.token);
    for (let i = 0; i < 3; i++) await start().expect(200);
    expect((await start().expect(429)).body.msg).toBe(LIMIT_MESSAGES.hourly);
    // no chat back end nor AI image engine here: drafts and avatars are refused (503, saying why), and still counted
    const refusal = (res: { status: number; body: { msg: string } }) => [res.status, res.body.msg];
    for (let i = 0; i < 2; i++)
      expect(refusal(await post(rates, "/api/RoleChat/generateCharacterInfo", { idea: "a lighthouse keeper" }, guest.token))).toEqual([
        503,
        MSG.chatUnavailable,
      ]);
    expect(refusal(await post(rates, "/api/RoleChat/generateCharacterInfo", { idea: "a lighthouse keeper" }, guest.token))).toEqual([
      429,
      LIMIT_MESSAGES.hourly,
    ]);
    const avatar = { name: "Mira", description: "A lighthouse keeper", personality: "Calm", tags: [], age: 30 };
    for (let i = 0; i < 2; i++)
      expect(refusal(await post(rates, "/api/RoleChat/generateAvatar", avatar, guest.token))).toEqual([503, MSG.avatarNeedsImageModel]);
    expect(refusal(await post(rates, "/api/RoleChat/generateAvatar", avatar, guest.token))).toEqual([429, LIMIT_MESSAGES.hourly]);
    // another API instance on the same database (or this one restarted) counts the same hour
    const restarted = await createTestApp(RATES, t.testDb);
    try {
      await makeCharacter(restarted, guest.token).expect(429);
    } finally {
      await restarted.close();
    }
    // another account is not affected
    await makeCharacter(rates, (await visitor(rates)).token).expect(200);
  });
});

describe("reports one account may file", () => {
  async function publicCharacter(app: TestApp) {
    const owner = await visitor(app);
    await app.db.user.update({ where: { id: owner.userId }, data: { loginType: "registered", role: "user", email: `owner-${owner.userId}@example.com` } });
    return (await makeCharacter(app, owner.token, { is_public: 1 }).expect(200)).body.data as { id: number };
  }
  const report = (app: TestApp, token: string, id: number) =>
    post(app, "/api/report", { target_type: "character", target_id: id, reason: "other", details: "spam" }, token);

  it("one open report per account per content: 5 at once file one; another account may still report it", async () => {
    const target = await publicCharacter(t);
    const reporter = await visitor(t);
    const answers = await Promise.all(Array.from({ length: 5 }, () => report(t, reporter.token, target.id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body).toEqual({ code: 409, msg: LIMIT_MESSAGES.reportOpen, data: null });
    expect(await t.db.report.count({ where: { reporterUserId: reporter.userId, targetId: target.id } })).toBe(1);
    await report(t, (await visitor(t)).token, target.id).expect(200);
  });

  it("an hourly limit per account beside the one per address", async () => {
    const reporter = await visitor(rates);
    for (let i = 0; i < 2; i++) await report(rates, reporter.token, (await publicCharacter(rates)).id).expect(200);
    const refused = await report(rates, reporter.token, (await publicCharacter(rates)).id).expect(429);
    expect(refused.body.msg).toBe(LIMIT_MESSAGES.hourly);
  });
});
