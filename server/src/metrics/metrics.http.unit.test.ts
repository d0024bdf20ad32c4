import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorHandler } from "../http/error-handler.ts";
import { createMetrics } from "./metrics.ts";
import { serveMetrics } from "./metrics.http.ts";

const TOKEN = "scrape-token-0123456789abcdef";
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  // the default layout: loopback allowed, and a proxy on the same host, so every client's socket is 127.0.0.1
  const app = express();
  app.set("trust proxy", "loopback");
  serveMetrics(app, createMetrics(), { token: TOKEN, allow: ["127.0.0.1", "::1"] });
  app.use(errorHandler(pino({ level: "silent" })));
  const server = await new Promise<import("node:http").Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close?.());

describe("/metrics behind a proxy on the same host", () => {
  it("lets a scraper on an allowed address in without the token when no proxy header says the request came from elsewhere", async () => {
    expect((await fetch(url)).status).toBe(200);
  });

  const forwarded: Record<string, string>[] = [
    { "x-forwarded-for": "203.0.113.7" },
    { forwarded: "for=203.0.113.7" },
    { "x-real-ip": "203.0.113.7" },
    { "x-forwarded-host": "reverie.example" },
    { "x-forwarded-proto": "https" },
    { via: "1.1 nginx" },
    { "cf-connecting-ip": "203.0.113.7" },
    { "true-client-ip": "203.0.113.7" },
    { "x-client-ip": "203.0.113.7" },
    // a proxy naming the loopback address is still a proxy speaking for a client
    { "x-forwarded-for": "127.0.0.1" },
  ];

  it("refuses any request carrying a proxy header without the token, whatever the header says", async () => {
    for (const headers of forwarded) {
      const res = await fetch(url, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.text()).not.toMatch(/reverie_/);
    }
  });

  it("lets the same forwarded requests in with the token", async () => {
    for (const headers of forwarded) {
      const res = await fetch(url, { headers: { ...headers, authorization: `Bearer ${TOKEN}` } });
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
  });
});
