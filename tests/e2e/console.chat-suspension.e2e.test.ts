import { describe, expect, it } from "vitest";
import { visitor } from "../db-utils.ts";
import { staffMember, type StaffLogin } from "../staff-utils.ts";
import { screenshot } from "./browser.ts";
import { signInToConsole } from "./console-build.ts";
import { consoleForThisFile } from "./console-per-file.ts";

/** A moderator sees why an account's chat was suspended and lifts it with a reason; support has no such button. */
const app = consoleForThisFile({ CHAT_POLICY_STRIKES: "2" });

const signIn = (s: StaffLogin) => signInToConsole(app.browser, app.server.url, s);

describe("console: chat suspensions", () => {
  it("a moderator reads the policy hits and lifts the suspension; support cannot", async () => {
    const person = await visitor(app.server);
    for (const description of ["a 14-year-old schoolgirl", "she is a little girl, ageplay"]) {
      await app.server.http.post("/api/RoleChat/creatCharacter").set("token", person.token).send({ name: "X", description }).expect(400);
    }
    await app.server.http
      .post("/api/RoleChat/creatCharacter")
      .set("token", person.token)
      .send({ name: "Juno", description: "An adult astronomer" })
      .expect(403);

    const moderator = await signIn(await staffMember(app.server, ["moderator"]));
    await moderator.goto(`${app.server.url}/console/chat-suspensions`);
    await moderator.locator("td.column-hits:has-text('2')").first().waitFor();
    await screenshot(moderator, "console-chat-suspensions");
    await moderator.goto(`${app.server.url}/console/chat-suspensions/${person.userId}/show`);
    await moderator.getByTestId("suspension-hits").waitFor();
    expect(await moderator.getByTestId("suspension-hits").textContent()).toContain("14-year-old");
    await screenshot(moderator, "console-chat-suspension-show");
    await moderator.click('[data-action="chat-suspensions-lift"]');
    await moderator.fill('textarea[name="reason"]', "Appeal reviewed: a typo in the card");
    await screenshot(moderator, "console-chat-suspension-lift-dialog");
    await moderator.click('[data-submit="chat-suspensions-lift"]');
    await moderator.waitForSelector('[data-testid="suspension-state"]:has-text("Not suspended")');
    expect(await moderator.locator('[data-action="chat-suspensions-lift"]').count()).toBe(0);
    await screenshot(moderator, "console-chat-suspension-lifted");
    await app.server.http
      .post("/api/RoleChat/creatCharacter")
      .set("token", person.token)
      .send({ name: "Juno", description: "An adult astronomer" })
      .expect(200);
    expect(
      await app.server.db.auditLog.count({
        where: { action: "lift_chat_suspension", resourceId: String(person.userId), reason: "Appeal reviewed: a typo in the card" },
      }),
    ).toBe(1);

    // support: no menu entry, and the page itself is refused
    const support = await signIn(await staffMember(app.server, ["support"]));
    expect(await support.locator(".RaSidebar-fixed a[href='/console/chat-suspensions']").count()).toBe(0);
  }, 120_000);
});
