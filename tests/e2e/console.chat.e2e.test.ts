import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../db-utils.ts";
import { chatBackendsEnv, chatCall } from "../chat-utils.ts";
import { startFakeOpenAi, type FakeOpenAi } from "../fixtures/fake-openai.ts";
import { startTestServer } from "../server-utils.ts";
import { staffMember, type StaffLogin } from "../staff-utils.ts";
import { launchBrowser, screenshot } from "./browser.ts";
import { ensureConsoleBuilt, signInToConsole } from "./console-build.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
let bare: Awaited<ReturnType<typeof startTestServer>>;
let fake: FakeOpenAi;
let browser: Browser;

beforeAll(async () => {
  await ensureConsoleBuilt();
  fake = await startFakeOpenAi();
  server = await startTestServer(
    {
      CHAT_BACKENDS: chatBackendsEnv([fake]),
      CHAT_FREE_MESSAGES: "0",
    },
    undefined,
    { ownPublicUrl: true },
  );
  bare = await startTestServer({}, server.testDb);
  browser = await launchBrowser();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await bare?.stop();
  await server?.stop();
  await fake?.close();
});

const signIn = (url: string, s: StaffLogin) => signInToConsole(browser, url, s);

describe("console: chat", () => {
  it("a moderator reads the lines of a reported conversation and the policy hits; an admin sees the back ends", async () => {
    const person = await visitor(server);
    await server.services.credits.grant({ userId: person.userId, amount: 10, reason: "test", idempotencyKey: `console-chat:${person.userId}` });
    const character = (
      await server.http
        .post("/api/RoleChat/creatCharacter")
        .set("token", person.token)
        .send({ name: "Juno", description: "An adult astronomer", greeting: "Clear skies tonight." })
        .expect(200)
    ).body.data;
    const conv = (await server.http.post("/api/RoleChat/creatConversation").set("token", person.token).send({ character_id: character.id }).expect(200)).body
      .data;
    await chatCall(server.url, "/api/RoleChat/chat", person.token, { conversation_id: conv.id, content: "Show me Saturn" });
    expect((await chatCall(server.url, "/api/RoleChat/chat", person.token, { conversation_id: conv.id, content: "now some age play" })).status).toBe(400);
    const report = (
      await server.http
        .post("/api/report")
        .set("token", person.token)
        .send({ target_type: "conversation", target_id: conv.id, reason: "other", details: "Please look" })
        .expect(200)
    ).body.data;

    const moderator = await signIn(server.url, await staffMember(server, ["moderator"]));
    await moderator.goto(`${server.url}/console/reports/${report.id}/show`);
    await moderator.getByTestId("conversation-lines").waitFor();
    expect(await moderator.getByTestId("conversation-lines").textContent()).toContain("Show me Saturn");
    await screenshot(moderator, "console-chat-report-lines");
    await moderator.goto(`${server.url}/console/chat-policy-hits`);
    await moderator.getByText("age_play").first().waitFor();
    await screenshot(moderator, "console-chat-policy-hits");
    await moderator.close();

    const admin = await signIn(server.url, await staffMember(server, ["admin"]));
    await admin.goto(`${server.url}/console/chat-backends`);
    await admin.getByText("fake-model").waitFor();
    await screenshot(admin, "console-chat-backends");
    await admin.close();

    const unconfigured = await signIn(bare.url, await staffMember(bare, ["admin"]));
    await unconfigured.goto(`${bare.url}/console/chat-backends`);
    await unconfigured.getByTestId("chat-backends-empty").waitFor();
    expect(await unconfigured.getByTestId("chat-backends-empty").textContent()).toContain("CHAT_BACKENDS");
    await screenshot(unconfigured, "console-chat-backends-none");
    await unconfigured.close();
  }, 120_000);
});
