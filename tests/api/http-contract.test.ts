import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../../server/src/app.ts";
import { createDb } from "../../server/src/db/client.ts";
import { HttpError } from "../../server/src/http/errors.ts";
import { createTestApp, testConfig, visitor, type TestApp } from "../db-utils.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  t.api.get("/api/test/boom", { summary: "test", auth: "public", response: z.never() }, () => {
    throw new Error("secret detail: SELECT * FROM users at /srv/app.ts:1");
  });
  t.api.get("/api/test/gone", { summary: "test", auth: "public", response: z.never() }, () => {
    throw HttpError.notFound();
  });
  t.api.get(
    "/api/test/echo",
    {
      summary: "test",
      auth: "public",
      query: z.object({ page: z.coerce.number().int().min(1, { error: "page must be at least 1" }) }).strict(),
      response: z.object({ page: z.number() }),
    },
    ({ query }) => query,
  );
});
afterAll(() => t.close());

describe("response envelope and errors", () => {
  it("wraps success as {code:200,msg:'success',data} with HTTP 200", async () => {
    const res = await t.http.get("/api/health").expect(200);
    expect(res.body).toEqual({ code: 200, msg: "success", data: { status: "ok" } });
  });

  it("answers an unknown API path 404 'The access resource does not exist'", async () => {
    for (const path of ["/api/nope", "/admin/api/nope", "/elsewhere"]) {
      expect((await t.http.get(path).expect(404)).body).toEqual({ code: 404, msg: "The access resource does not exist", data: null });
    }
    expect((await t.http.get("/api/test/gone").expect(404)).body.msg).toBe("The access resource does not exist");
  });

  it("turns an unexpected error into the generic 500 without leaking details", async () => {
    const res = await t.http.get("/api/test/boom").expect(500);
    expect(res.body).toEqual({ code: 500, msg: "An unknown error in the system. Please report it to the administrator", data: null });
    expect(res.text).not.toContain("secret");
  });

  it("answers malformed and oversized JSON with 4xx, not 500", async () => {
    const bad = await t.http.post("/api/login/sendEmailCode").set("content-type", "application/json").send('{"email": ').expect(400);
    expect(bad.body).toEqual({ code: 400, msg: "Invalid request", data: null });
    const big = await t.http
      .post("/api/login/sendEmailCode")
      .send({ email: "a@example.com", pad: "x".repeat(1_100_000) })
      .expect(413);
    expect(big.body.code).toBe(413);
  });

  it("matches paths case-insensitively (SPEC.md uses both /api/order and /api/Order)", async () => {
    const { token } = await visitor(t);
    await t.http.get("/api/personal/PERSONAL_INFO").set("token", token).expect(200);
  });

  it("ignores the t cache-buster, even where the query is strict", async () => {
    expect((await t.http.get("/api/test/echo?page=2&t=1700000000000").expect(200)).body.data).toEqual({ page: 2 });
    expect((await t.http.get("/api/test/echo?page=0&t=1").expect(400)).body.msg).toBe("page must be at least 1");
  });

  it("accepts urlencoded forms", async () => {
    const res = await t.http.post("/api/login/sendEmailCode").type("form").send("email=not-valid").expect(400);
    expect(res.body.msg).toBe("Please enter a valid email");
  });
});

describe("headers", () => {
  it("sets helmet's security headers, no-store on API answers and no x-powered-by", async () => {
    const res = await t.http.get("/api/health").expect(200);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["strict-transport-security"]).toMatch(/max-age=/);
    expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-powered-by"]).toBeUndefined();
  });

  it("gives every response a request id, keeping a sane one the caller sent", async () => {
    const a = await t.http.get("/api/health");
    expect(a.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const b = await t.http.get("/api/health").set("x-request-id", "lb-1234");
    expect(b.headers["x-request-id"]).toBe("lb-1234");
    const c = await t.http.get("/api/health").set("x-request-id", "bad id with spaces");
    expect(c.headers["x-request-id"]).not.toBe("bad id with spaces");
  });
});

/** A logger whose JSON lines are collected, parsed, in `lines`. */
function capturedLog() {
  const lines: Record<string, any>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, log: pino({ level: "info" }, sink) };
}

describe("structured request logs", () => {
  it("writes one JSON line per request with the request id, status and a URL without t", async () => {
    const { lines, log } = capturedLog();
    const { app } = createApp({ db: t.db, config: testConfig({ LOG_LEVEL: "info" }), log });
    const res = await supertest(app).get("/api/health?t=1700000000000").set("x-request-id", "trace-77").expect(200);
    await new Promise((r) => setImmediate(r));
    const entry = lines.find((l) => l.req?.id === "trace-77");
    expect(entry).toMatchObject({ level: 30, req: { method: "GET", url: "/api/health?t=" }, res: { statusCode: 200 } });
    expect(typeof entry?.responseTime).toBe("number");
    expect(res.headers["x-request-id"]).toBe("trace-77");
  });
});

describe("request logs of failed and abandoned requests", () => {
  it("writes a 5xx at error level and a request the client gave up on at warn level", async () => {
    const { lines, log } = capturedLog();
    const { app, api, services } = createApp({ db: t.db, config: testConfig({ LOG_LEVEL: "info" }), log });
    api.get("/api/test/fails", { summary: "test", auth: "public", response: z.never() }, () => {
      throw new Error("broken");
    });
    // answers only after the caller has gone
    api.get(
      "/api/test/slow",
      { summary: "test", auth: "public", response: { kind: "file", contentType: "text/plain", description: "nothing, once the caller has gone" } },
      ({ req, res }) => new Promise<void>((resolve) => req.once("close", () => resolve(void res.end()))),
    );
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect((await fetch(`${base}/api/test/fails`, { headers: { "x-request-id": "fails-1" } })).status).toBe(500);
      const abort = new AbortController();
      const pending = fetch(`${base}/api/test/slow`, { headers: { "x-request-id": "slow-1" }, signal: abort.signal }).catch((e: Error) => e.name);
      setTimeout(() => abort.abort(), 100);
      expect(await pending).toBe("AbortError");
      await expect.poll(() => lines.find((l) => l.req?.id === "slow-1")).toMatchObject({ level: 40, msg: "request aborted" });
      expect(lines.find((l) => l.req?.id === "fails-1")).toMatchObject({ level: 50, msg: "request errored", res: { statusCode: 500 } });
    } finally {
      server.closeAllConnections();
      server.close();
      await services.close();
    }
  });
});

describe("GET /api/health", () => {
  it("is 503 when the database cannot be reached", async () => {
    const dead = createDb("postgresql://nobody:x@127.0.0.1:1/none", 1);
    try {
      const { app } = createApp({ db: dead, config: testConfig(), log: pino({ level: "silent" }) });
      const res = await supertest(app).get("/api/health").expect(503);
      expect(res.body).toEqual({ code: 503, msg: "Database unreachable", data: null });
    } finally {
      await dead.$disconnect();
    }
  });
});

describe("GET /api/docs", () => {
  it("is an OpenAPI 3 document of every route, with the zod schemas", async () => {
    const doc = (await t.http.get("/api/docs").expect(200)).body;
    expect(doc.openapi).toBe("3.0.3");
    for (const [path, method] of [
      ["/api/health", "get"],
      ["/api/login/visitor", "post"],
      ["/api/login/sendEmailCode", "post"],
      ["/api/login/emailLogin", "post"],
      ["/api/login/googleLogin", "post"],
      ["/api/login/getLoginUrl", "get"],
      ["/api/login/logout", "post"],
      ["/api/Personal/personal_info", "get"],
      ["/api/Personal/select_users_integral", "get"],
      ["/api/Personal/user_update", "post"],
      ["/api/Personal/uploadUserInfo", "post"],
      ["/admin/api/login", "post"],
      ["/admin/api/logout", "post"],
      ["/admin/api/me", "get"],
    ]) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const emailLogin = doc.paths["/api/login/emailLogin"].post.requestBody.content["application/json"].schema;
    expect(Object.keys(emailLogin.properties)).toEqual(["email", "code"]);
    expect(doc.paths["/api/Personal/personal_info"].get.security).toEqual([{ token: [] }]);
    expect(doc.components.securitySchemes.token).toMatchObject({ type: "apiKey", in: "header", name: "token" });
  });
});
