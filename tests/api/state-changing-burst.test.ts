import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BURSTS, send, setScene, stateChangingRoutes, type Scene } from "../burst-routes.ts";
import { chatBackendsEnv } from "../chat-utils.ts";
import { startFakeOpenAi, type FakeOpenAi } from "../fixtures/fake-openai.ts";
import { freePort } from "../net-utils.ts";
import { startTestServer } from "../server-utils.ts";
import { MESSAGE_LEDGER_REASON } from "../../server/src/contract/messages.ts";

/**
 * Issue 29 defect 1: one account sending 50 identical requests at once to every state-changing route it can reach
 * stalls nobody and breaks nothing. The latency targets (each answer within 2 s, a bystander's personal_info within
 * 200 ms) are measured by bench/burst.bench.ts; here a generous bound catches a stall like the one of the issue (every
 * request waiting 15 s), without failing on a loaded 2-core machine.
 */
const AT_ONCE = 50;
const STALL_MS = 10_000;

/** A success: any 2xx, or the 303 to the next page a hosted form (the sandbox checkout) answers a post with. */
const succeeds = (status: number) => (status >= 200 && status < 300) || status === 303;
const statuses = (answers: { status: number }[]) =>
  [...new Set(answers.map((a) => a.status))].map((status) => `${answers.filter((a) => a.status === status).length}× ${status}`).join(", ");

let s: Awaited<ReturnType<typeof startTestServer>>;
let chat: FakeOpenAi;
let scene: Scene;

beforeAll(async () => {
  chat = await startFakeOpenAi();
  // the sandbox checkout notifies PUBLIC_URL: the server listens there, so the burst's payment can succeed
  const port = await freePort();
  s = await startTestServer({ CHAT_BACKENDS: chatBackendsEnv([chat]), LOG_LEVEL: "silent", PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
  scene = await setScene(s.url, s);
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await chat?.close();
});

describe("50 identical requests at once from one account, on every state-changing route", () => {
  it("has a request for every state-changing route a creator, fan or guest can reach, and none for a route that is gone", () => {
    const declared = stateChangingRoutes(s.api).sort();
    const covered = BURSTS.map(([route]) => route).sort();
    expect(covered).toEqual(declared);
  });

  it("answers every request without a 500 or a stall, keeps a bystander served, and moves credits exactly once", async () => {
    const bystander = (await (await fetch(`${s.url}/api/login/visitor`, { method: "POST" })).json()).data.token as string;
    const seen: { status: number; ms: number }[] = [];
    let bursting = true;
    const watching = (async () => {
      while (bursting) {
        const started = performance.now();
        const res = await fetch(`${s.url}/api/Personal/personal_info`, { headers: { token: bystander } });
        await res.arrayBuffer();
        seen.push({ status: res.status, ms: performance.now() - started });
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const failures: string[] = [];
    try {
      for (const [route, call] of BURSTS) {
        const request = await call(scene);
        const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => send(scene, route, request)));
        const succeeded = answers.filter((a) => succeeds(a.status)).length;
        if (request.refused) {
          // no success is possible here: each answer is one of the refusals this setup leaves
          for (const a of answers)
            if (!request.refused.includes(a.status)) failures.push(`${route}: ${a.status} ${a.msg ?? ""}, not one of ${request.refused}`);
        } else if (request.once ? succeeded !== 1 : succeeded === 0) {
          failures.push(`${route}: ${succeeded} of ${AT_ONCE} succeeded, ${request.once ? "not exactly one" : "none"} (${statuses(answers)})`);
        }
        for (const a of answers) {
          // a 503 is truthful only where this setup has the back end unconfigured (listed as refused); a 500 never is
          if (a.status >= 500 && !request.refused?.includes(a.status)) failures.push(`${route}: ${a.status} ${a.msg ?? ""}`);
          if (a.code !== undefined && a.code !== a.status) failures.push(`${route}: code ${a.code} with status ${a.status}`);
          if (a.ms > STALL_MS) failures.push(`${route}: answered after ${Math.round(a.ms)} ms`);
        }
      }
    } finally {
      bursting = false;
      await watching;
    }
    expect([...new Set(failures)]).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((b) => b.status !== 200)).toEqual([]);
    expect(Math.max(...seen.map((b) => b.ms))).toBeLessThan(STALL_MS);

    // exactly once, whatever was repeated
    expect(await s.services.credits.findLedgerMismatches()).toEqual([]);
    expect(await s.db.user.count({ where: { points: { lt: 0 } } })).toBe(0);
    expect(await s.db.creatorPayout.count({ where: { creatorPage: { userId: scene.creatorId } } })).toBe(1);
    expect(await s.db.customRequest.count({ where: { fanUserId: scene.fanId } })).toBe(4);
    expect(await s.db.creatorMembership.count({ where: { fanUserId: scene.fanId } })).toBe(1);
    expect(await s.db.ledgerEntry.count({ where: { userId: scene.fanId, reason: "purchase" } })).toBe(1);
    expect(await s.db.message.count({ where: { sender: "fan", thread: { fanUserId: scene.fanId } } })).toBe(1);
    expect(await s.db.ledgerEntry.count({ where: { userId: scene.fanId, reason: MESSAGE_LEDGER_REASON.unlock } })).toBe(1);
  }, 110_000);
});
