import type { Response } from "express";
import { MSG } from "./messages.ts";

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export function sendOk(res: Response, data: unknown): void {
  send(res, 200, { code: 200, msg: MSG.ok, data: data ?? null });
}

export function sendError(res: Response, status: number, msg: string, data: unknown = null): void {
  send(res, status, { code: status, msg, data });
}

/**
 * Written directly rather than through Express's `res.json`: API answers carry no ETag and are never "fresh", so the
 * charset lookup, ETag hook and freshness check it runs on every answer were pure cost (docs/decisions/226).
 */
function send(res: Response, status: number, envelope: Envelope): void {
  const body = JSON.stringify(envelope);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(res.req.method === "HEAD" ? undefined : body);
}
