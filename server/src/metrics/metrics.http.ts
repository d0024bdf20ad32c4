import crypto from "node:crypto";
import type { Express, RequestHandler } from "express";
import { OTHER_ROUTE } from "../contract/metrics.ts";
import { HttpError } from "../http/errors.ts";
import type { Metrics } from "./metrics.ts";

/**
 * One observation per request when its response is done, labelled by the route's pattern, never its URL (ids and
 * query strings would make a series per request). Requests no API route took share one label.
 */
export function httpMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once("close", () => metrics.http.observe(req.method, req.routePattern ?? OTHER_ROUTE, res.statusCode, (performance.now() - started) / 1000));
    next();
  };
}

export interface MetricsAccess {
  /** A scraper presenting `Authorization: Bearer <token>` is let in from anywhere. */
  token?: string;
  /**
   * Addresses let in without the token (the scraper's, as the socket sees it; a proxy's X-Forwarded-For is not read),
   * and only for a request that no proxy forwarded.
   */
  allow: string[];
}

/**
 * Headers a proxy adds for the client it speaks for. Behind a proxy on the same host every Internet client's socket is
 * the loopback address, so a request carrying any of them is never let in by its address: it needs the token.
 */
const PROXY_HEADERS = ["forwarded", "via", "x-real-ip", "x-client-ip", "x-cluster-client-ip", "cf-connecting-ip", "true-client-ip", "fastly-client-ip"];

function forwardedByProxy(headers: Record<string, unknown>): boolean {
  return Object.keys(headers).some((name) => name.startsWith("x-forwarded-") || PROXY_HEADERS.includes(name));
}

/** `::ffff:127.0.0.1` is 127.0.0.1 reached over an IPv6 socket. */
const plainAddress = (a: string | undefined) => (a?.startsWith("::ffff:") ? a.slice(7) : (a ?? ""));

function tokenMatches(given: string | undefined, token: string | undefined): boolean {
  if (!token || !given?.startsWith("Bearer ")) return false;
  const a = crypto.createHash("sha256").update(given.slice(7)).digest();
  const b = crypto.createHash("sha256").update(token).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * `GET /metrics`: the Prometheus text exposition, beside the API and not part of it (not under /api, not in the OpenAPI
 * document). The socket's own address is checked, not the request's forwarded one, which a client can write; and a
 * forwarded request is never let in by address (issue 47).
 */
export function serveMetrics(app: Express, metrics: Metrics, access: MetricsAccess) {
  const allowed = new Set(access.allow.map(plainAddress));
  app.get("/metrics", async (req, res) => {
    const byAddress = !forwardedByProxy(req.headers) && allowed.has(plainAddress(req.socket.remoteAddress));
    if (!byAddress && !tokenMatches(req.get("authorization"), access.token)) throw HttpError.forbidden();
    const body = await metrics.text();
    res.setHeader("Cache-Control", "no-store");
    res.type(metrics.contentType).send(body);
  });
}
