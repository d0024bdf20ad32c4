import type { AddressInfo } from "node:net";
import http from "node:http";
import { createTestApp, type TestDb } from "./db-utils.ts";

/** A real listening Reverie API on a loopback port (overrides.PORT, else a free one), for browsers, load and multi-instance tests. */
export async function startTestServer(overrides: Record<string, string> = {}, existing?: TestDb, o: { ownPublicUrl?: boolean } = {}) {
  // bound before the app exists, so an app whose PUBLIC_URL is its own address learns a port already its own: a port
  // chosen free beforehand could be taken by another file's server meanwhile
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(overrides.PORT ?? 0), "127.0.0.1", resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const t = await createTestApp(o.ownPublicUrl ? { PUBLIC_URL: url, ...overrides } : overrides, existing).catch((err: unknown) => {
    server.close();
    throw err;
  });
  server.on("request", t.app);
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
