import type { Response } from "express";
import { MSG } from "./messages.ts";

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export function sendOk(res: Response, data: unknown): void {
  res.status(200).json({ code: 200, msg: MSG.ok, data: data ?? null } satisfies Envelope);
}

export function sendError(res: Response, status: number, msg: string, data: unknown = null): void {
  res.status(status).json({ code: status, msg, data } satisfies Envelope);
}
