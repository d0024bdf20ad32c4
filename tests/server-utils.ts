import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createTestApp, type TestDb } from "./db-utils.ts";

/** A real listening Reverie API on a loopback port (overrides.PORT, else a free one), for browsers, load and multi-instance tests. */
export async function startTestServer(overrides: Record<string, string> = {}, existing?: TestDb) {
  const t = await createTestApp(overrides, existing);
  const server: Server = await new Promise((resolve) => {
    const s = t.app.listen(Number(overrides.PORT ?? 0), "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...t,
    url,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}
