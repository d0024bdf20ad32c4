import type { RequestHandler } from "express";
import { HttpError } from "./errors.ts";

/**
 * At most `max` requests of one signed-in account run at once on this instance; another is refused at once (429)
 * instead of queueing behind them. Image decoding has a few slots for the whole instance: without this, one account's
 * fifty parallel uploads hold them all and everyone's upload waits (issue 29, docs/decisions/252).
 */
export function perAccountInFlight(max: number, message: string): RequestHandler {
  const running = new Map<number, number>();
  return (req, res, next) => {
    const id = req.principal?.kind === "user" ? req.principal.userId : undefined;
    if (id === undefined) return next();
    const now = running.get(id) ?? 0;
    if (now >= max) return next(new HttpError(429, message));
    running.set(id, now + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (running.get(id) ?? 1) - 1;
      if (left > 0) running.set(id, left);
      else running.delete(id);
    };
    // "close" also comes when the client goes away before the answer
    res.once("finish", release);
    res.once("close", release);
    next();
  };
}
