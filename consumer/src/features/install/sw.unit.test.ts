import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { describe, expect, it } from "vitest";

/**
 * The service worker (consumer/public/sw.js, docs/decisions/270) run in a sandbox with a fake cache and network: the
 * files the server revalidates on every load (serveConsumerApp: the manifest, icons, offline page) must not be frozen
 * at their install-time copies, while hashed assets are served from the cache and pages fall back to the offline page.
 */
const SOURCE = fs.readFileSync(path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../../public/sw.js"), "utf8");
const ORIGIN = "https://app.example";

function worker(network: (url: string) => Promise<Response>) {
  const stored = new Map<string, Response>();
  const listeners: Record<string, (event: unknown) => void> = {};
  const key = (r: Request | string) => new URL(typeof r === "string" ? r : r.url, ORIGIN).href;
  const cache = {
    addAll: async (urls: string[]) => {
      for (const u of urls) stored.set(key(u), new Response(`cached ${new URL(key(u)).pathname}`));
    },
    put: async (r: Request, res: Response) => void stored.set(key(r), res),
  };
  const caches = {
    open: async () => cache,
    match: async (r: Request | string) => stored.get(key(r))?.clone(),
    keys: async () => [],
    delete: async () => true,
  };
  const self = { location: { origin: ORIGIN }, addEventListener: (t: string, f: (e: unknown) => void) => (listeners[t] = f), skipWaiting: () => undefined };
  vm.runInNewContext(SOURCE, { self, caches, fetch: (r: Request) => network(key(r)), URL, Response, Promise });

  return {
    async install() {
      let done: Promise<unknown> = Promise.resolve();
      listeners.install({ waitUntil: (p: Promise<unknown>) => (done = p) });
      await done;
    },
    /** What the worker answers for a GET of `pathname`; undefined when it lets the browser fetch it. */
    async get(pathname: string, mode = "no-cors"): Promise<string | undefined> {
      let answer: Promise<Response> | undefined;
      listeners.fetch({ request: { method: "GET", url: `${ORIGIN}${pathname}`, mode }, respondWith: (p: Promise<Response>) => (answer = p) });
      return answer && (await answer).text();
    },
  };
}

const online = async (url: string) => new Response(`fresh ${new URL(url).pathname}`);
const offline = async () => {
  throw new TypeError("Failed to fetch");
};

describe("the service worker", () => {
  it("serves the manifest and icons from the network when online, so a deploy's new ones arrive", async () => {
    const sw = worker(online);
    await sw.install();
    expect(await sw.get("/manifest.webmanifest")).toBe("fresh /manifest.webmanifest");
    expect(await sw.get("/icon.svg")).toBe("fresh /icon.svg");
  });

  it("offline: the copies kept at install, and the offline page for a page", async () => {
    const sw = worker(offline);
    await sw.install();
    expect(await sw.get("/icon.svg")).toBe("cached /icon.svg");
    expect(await sw.get("/creationStudio", "navigate")).toBe("cached /offline.html");
  });

  it("leaves the API and media to the browser", async () => {
    const sw = worker(online);
    await sw.install();
    expect(await sw.get("/api/User/info")).toBeUndefined();
    expect(await sw.get("/media/x.jpg")).toBeUndefined();
  });
});
