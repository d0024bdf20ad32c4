import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { newStaff } from "../../../../tests/staff-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { registeredUser, uploadImage } from "../../../../tests/training-utils.ts";
import { CREATOR_MESSAGES as M } from "../../contract/creators.ts";

let t: TestApp;
let appDir: string;
let n = 0;

beforeAll(async () => {
  // the built app's index.html, as the link preview rewrites it
  appDir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-creators-app-"));
  await fs.writeFile(path.join(appDir, "index.html"), "<!doctype html><html><head><title>Reverie</title></head><body><div id=root></div></body></html>");
  t = await createTestApp({ CONSUMER_DIST_DIR: appDir, PUBLIC_URL: "https://reverie.example" });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fs.rm(appDir, { recursive: true, force: true });
});

/** A registered account with a finished character model (its cover an uploaded photo); answers the model id. */
async function creatorWithModel(homeLink: string) {
  const who = await registeredUser(t);
  const cover = await uploadImage(t, who.token, await photo(640, 800));
  const model = await t.db.characterModel.create({ data: { userId: who.userId, name: `Model ${++n}`, homeLink, coverUploadId: cover, status: "success", cost: 5, triggerWord: "rvr" } });
  return { ...who, modelId: model.id };
}

const publish = (token: string, body: Record<string, unknown>) => t.http.post("/api/Subscribe/publishPage").set("token", token).send(body);

const info = (link: string, token?: string) => {
  const req = t.http.get("/api/Subscribe/getHomeLinkInfo").query({ home_link: link });
  return token ? req.set("token", token) : req;
};
const bind = (token: string, link: string, subscribe: 0 | 1) => t.http.post("/api/Subscribe/binding").set("token", token).send({ home_link: link, subscribe });

describe("creator pages: publishing and the public page", () => {
  it("publishes a page for a finished model, makes the account a creator, and shows only real figures", async () => {
    const c = await creatorWithModel("LunaRay");
    const res = await publish(c.token, { role_id: c.modelId, bio: "Hi, I am Luna", social_links: ["https://www.instagram.com/luna"] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ home_link: "LunaRay", title: expect.stringMatching(/^Model/), bio: "Hi, I am Luna", subscriber_count: 0, is_owner: true, library: [] });
    expect((await t.db.user.findUniqueOrThrow({ where: { id: c.userId } })).role).toBe("creator");
    // any case finds it; a stranger sees the same page, not as its owner
    const page = await info("lunaray").expect(200);
    expect(page.body.data).toMatchObject({ home_link: "LunaRay", subscriber_count: 0, subscribed: false, is_owner: false });
    expect(page.body.data.cover_url).toEqual(expect.any(String));
    // a second page, or a page for a model still training, is refused
    expect((await publish(c.token, { role_id: c.modelId })).body.msg).toBe(M.hasPage);
    const other = await registeredUser(t);
    const training = await t.db.characterModel.create({ data: { userId: other.userId, name: "Still", homeLink: "StillTraining", status: "doing", cost: 5 } });
    expect((await publish(other.token, { role_id: training.id })).body).toMatchObject({ code: 400, msg: M.modelNotReady });
    // someone else's finished model is not the caller's
    expect((await publish(other.token, { role_id: c.modelId })).body.msg).toBe(M.modelNotReady);
  });

  it("answers the SPEC messages for an empty and an unknown link, and refuses unknown social networks", async () => {
    expect((await info("").expect(400)).body.msg).toBe(M.noDomainInformation);
    expect((await info("nobody-here").expect(404)).body.msg).toBe(M.domainNotFound);
    const c = await creatorWithModel("SocialTest");
    const bad = await publish(c.token, { role_id: c.modelId, social_links: ["http://instagram.com/x"] });
    expect(bad.body).toMatchObject({ code: 400, msg: M.socialLink });
    const evil = await publish(c.token, { role_id: c.modelId, social_links: ["https://instagram.com.evil.example/x"] });
    expect(evil.body.msg).toBe(M.socialLink);
    expect(await t.db.creatorPage.count({ where: { userId: c.userId } })).toBe(0);
  });

  it("lets only its creator edit the page", async () => {
    const c = await creatorWithModel("EditMe");
    await publish(c.token, { role_id: c.modelId }).expect(200);
    const edited = await t.http.post("/api/Subscribe/updatePage").set("token", c.token).send({ bio: "New bio", social_links: ["https://x.com/editme"] }).expect(200);
    expect(edited.body.data).toMatchObject({ bio: "New bio", social_links: ["https://x.com/editme"] });
    // a fan has no page to edit: refused by permission, and the creator's page is unchanged
    const fan = await visitor(t);
    expect((await t.http.post("/api/Subscribe/updatePage").set("token", fan.token).send({ bio: "hacked" })).status).toBe(403);
    expect((await t.db.creatorPage.findUniqueOrThrow({ where: { userId: c.userId } })).bio).toBe("New bio");
  });
});

describe("subscribe and unsubscribe", () => {
  it("ends 50 concurrent subscribes from one fan in one subscription, and the count is the rows'", async () => {
    const c = await creatorWithModel("Popular");
    await publish(c.token, { role_id: c.modelId }).expect(200);
    const fan = await visitor(t);
    const answers = await Promise.all(Array.from({ length: 50 }, () => bind(fan.token, "popular", 1)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const page = await t.db.creatorPage.findUniqueOrThrow({ where: { userId: c.userId } });
    expect(await t.db.subscription.count({ where: { creatorPageId: page.id } })).toBe(1);
    expect((await info("Popular", fan.token)).body.data).toMatchObject({ subscriber_count: 1, subscribed: true });

    // subscribes and unsubscribes racing: one row or none, and whatever the outcome, the count matches it
    const mixed = await Promise.all(Array.from({ length: 50 }, (_, i) => bind(fan.token, "Popular", (i % 2) as 0 | 1)));
    expect(mixed.every((a) => a.status === 200)).toBe(true);
    const rows = await t.db.subscription.count({ where: { creatorPageId: page.id, active: true } });
    expect(rows).toBeLessThanOrEqual(1);
    expect((await info("Popular", fan.token)).body.data.subscriber_count).toBe(rows);

    await bind(fan.token, "Popular", 0).expect(200);
    const after = await bind(fan.token, "Popular", 0).expect(200);
    expect(after.body.data).toEqual({ subscribed: false, subscriber_count: 0 });
  });

  it("refuses subscribing to one's own page and to a link that is not there", async () => {
    const c = await creatorWithModel("SelfFan");
    await publish(c.token, { role_id: c.modelId }).expect(200);
    expect((await bind(c.token, "SelfFan", 1)).body).toMatchObject({ code: 400, msg: M.ownPage });
    const fan = await visitor(t);
    expect((await bind(fan.token, "NoSuchPage", 1)).body).toMatchObject({ code: 404, msg: M.domainNotFound });
    expect(await t.db.subscription.count({ where: { userId: { in: [c.userId, fan.userId] } } })).toBe(0);
  });

  it("moves a guest's subscriptions to the account it signs in to", async () => {
    const c = await creatorWithModel("MergeMe");
    await publish(c.token, { role_id: c.modelId }).expect(200);
    const guest = await visitor(t);
    await bind(guest.token, "MergeMe", 1).expect(200);
    const account = await registeredUser(t);
    await t.db.$transaction((tx) => t.services.creators.moveToUser(tx, guest.userId, account.userId));
    expect((await info("MergeMe", account.token)).body.data).toMatchObject({ subscribed: true, subscriber_count: 1 });
  });
});

describe("a taken-down page", () => {
  it("answers 'Domain not found' to everyone, while the console still has it", async () => {
    const c = await creatorWithModel("GoneSoon");
    await publish(c.token, { role_id: c.modelId }).expect(200);
    const page = await t.db.creatorPage.findUniqueOrThrow({ where: { userId: c.userId } });
    const moderator = await newStaff(t, ["moderator"]);
    await t.services.moderation.takeDownContent(moderator.staffId, "creator_page", page.id, "Impersonation");
    expect((await info("GoneSoon").expect(404)).body.msg).toBe(M.domainNotFound);
    expect((await info("GoneSoon", c.token).expect(404)).body.msg).toBe(M.domainNotFound);
    expect((await t.services.moderation.getCreatorPage(page.id))?.state).toBe("removed");
    // its link no longer previews as the creator
    const html = await t.http.get("/GoneSoon").set("accept", "text/html").expect(200);
    expect(html.text).not.toContain("og:title");
  });
});

describe("link previews", () => {
  it("serves /{homeLink} with the creator's title, description and Open Graph image, escaped", async () => {
    const c = await creatorWithModel("PreviewMe");
    await publish(c.token, { role_id: c.modelId, bio: `Fan art & "quotes" <b>bold</b>` }).expect(200);
    const res = await t.http.get("/previewme").set("accept", "text/html").expect(200);
    expect(res.text).toContain('<meta property="og:title" content="Model');
    expect(res.text).toContain("Fan art &#38; &#34;quotes&#34; &#60;b&#62;bold&#60;/b&#62;");
    expect(res.text).not.toContain("<b>bold</b>");
    expect(res.text).toMatch(/<meta property="og:image" content="https:\/\/reverie\.example\/[^"]+"/);
    expect(res.text).toContain('<meta property="og:url" content="https://reverie.example/previewme">');
    expect(res.text.match(/<title>/g)).toHaveLength(1);
    // any other path is the plain app; a malformed escape is not an error
    expect((await t.http.get("/no-such-creator").set("accept", "text/html").expect(200)).text).not.toContain("og:title");
    expect((await t.http.get("/%E0%A4%A").set("accept", "text/html")).status).toBe(200);
  });
});
