import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { openEventStream } from "../../server/src/http/sse.ts";
import { createTestApp, type TestApp } from "../db-utils.ts";

/** A built app as scripts/build.ts leaves it: each text file with its Brotli and gzip copies beside it. */
async function builtApp(dir: string, files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text);
    await fs.writeFile(`${file}.br`, zlib.brotliCompressSync(text));
    await fs.writeFile(`${file}.gz`, zlib.gzipSync(text));
  }
}

const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word ${i}`))};\n`;
const html = `<!doctype html><html><head><title>Reverie</title></head><body>${"<p>landing</p>".repeat(200)}</body></html>`;

/** The bytes as they crossed the wire (supertest's and fetch's clients decode what they understand). */
function get(pathname: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port: (server.address() as AddressInfo).port, path: pathname, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

let t: TestApp;
let server: http.Server;
let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-compressed-"));
  await builtApp(path.join(dir, "consumer"), { "index.html": html, "sw.js": script, "assets/index-abc123.js": script });
  await builtApp(path.join(dir, "console"), { "index.html": html, "assets/index-def456.js": script });
  t = await createTestApp({ CONSUMER_DIST_DIR: path.join(dir, "consumer"), CONSOLE_DIR: path.join(dir, "console") });
  t.api.get("/api/test/big", { summary: "test", auth: "public", response: z.object({ words: z.array(z.string()) }) }, () => ({
    words: Array.from({ length: 500 }, (_, i) => `word ${i}`),
  }));
  t.api.get("/api/test/stream", { summary: "test", auth: "public", response: { kind: "events", schema: z.string(), description: "test" } }, ({ res }) => {
    openEventStream(res);
    res.write(`event: progress\ndata: ${JSON.stringify("x".repeat(4000))}\n\n`);
    res.end();
    return undefined;
  });
  server = await new Promise((resolve) => {
    const s = t.app.listen(0, "127.0.0.1", () => resolve(s));
  });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe("files the build compressed", () => {
  it("sends the Brotli copy to a client that accepts it, with its own length, Vary and a year's caching for a hashed asset", async () => {
    const res = await get("/assets/index-abc123.js", { "Accept-Encoding": "gzip, deflate, br" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it("sends gzip to a client without Brotli, and the file itself to one that accepts no encoding", async () => {
    const gz = await get("/assets/index-abc123.js", { "Accept-Encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).toString()).toBe(script);
    const plain = await get("/assets/index-abc123.js", { "Accept-Encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers["content-length"])).toBe(Buffer.byteLength(script));
  });

  it("revalidates the service worker and the app's page, which answers any path the app's router owns", async () => {
    const sw = await get("/sw.js", { "Accept-Encoding": "br" });
    expect(sw.headers["cache-control"]).toBe("no-cache");
    expect(sw.headers["content-encoding"]).toBe("br");
    const page = await get("/studio", { Accept: "text/html", "Accept-Encoding": "br" });
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(page.headers["content-encoding"]).toBe("br");
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(zlib.brotliDecompressSync(page.body).toString()).toBe(html);
  });

  it("does the same for the console, whose missing asset is a 404 rather than the app", async () => {
    const js = await get("/console/assets/index-def456.js", { "Accept-Encoding": "br" });
    expect(js.headers["content-encoding"]).toBe("br");
    expect(js.headers["cache-control"]).toContain("immutable");
    const deep = await get("/console/users/3/show", { "Accept-Encoding": "gzip" });
    expect(deep.status).toBe(200);
    expect(deep.headers["content-encoding"]).toBe("gzip");
    expect(deep.headers["cache-control"]).toBe("no-cache");
    await t.http.get("/console/assets/gone-000.js").expect(404);
  });
});

describe("answers made on the fly", () => {
  it("compresses API JSON over the threshold and leaves a small answer as it is", async () => {
    const big = await get("/api/test/big", { "Accept-Encoding": "br" });
    expect(big.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(zlib.brotliDecompressSync(big.body).toString()).data.words).toHaveLength(500);
    const small = await get("/api/health", { "Accept-Encoding": "br" });
    expect(small.headers["content-encoding"]).toBeUndefined();
  });

  it("never compresses an event stream, whose events must leave as they are written", async () => {
    const res = await get("/api/test/stream", { "Accept-Encoding": "gzip, br" });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.toString()).toContain("event: progress");
  });
});
