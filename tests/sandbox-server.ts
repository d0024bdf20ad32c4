import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { seedProducts } from "../server/src/domains/products/products.seed.ts";
import { startTestServer } from "./server-utils.ts";

export type SandboxServer = Awaited<ReturnType<typeof startTestServer>>;
export type Answer = { code: number; msg: string; data: any };

/**
 * A listening server with the demo products for the test file that calls this: the sandbox delivers its notifications
 * over HTTP to PUBLIC_URL, so the server must listen there. After each test the ledger must still add up.
 */
export function sandboxServerForThisFile() {
  let s: SandboxServer | undefined;
  beforeAll(async () => {
    s = await startTestServer({}, undefined, { ownPublicUrl: true });
    await seedProducts(s.db);
  });
  afterAll(() => s?.stop());
  afterEach(async () => {
    expect(await s!.services.credits.findLedgerMismatches()).toEqual([]);
  });
  return {
    server: (): SandboxServer => s!,
    /** A JSON call as the app makes it: GET without a body, POST with one. */
    async api(path: string, token: string, body?: unknown): Promise<Answer> {
      const res = await fetch(`${s!.url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { token, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as Answer;
    },
  };
}
