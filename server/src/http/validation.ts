import type { Request } from "express";
import type { z } from "zod";
import { HttpError } from "./errors.ts";
import { MSG } from "./messages.ts";

/** Parses body, query and params with the route's zod schemas; the first problem's message is the answer. */
export function validated(spec: { body?: z.ZodType; query?: z.ZodType; params?: z.ZodType }, req: Request) {
  const { t: _cacheBuster, ...query } = req.query as Record<string, unknown>;
  return {
    body: spec.body ? parse(spec.body, req.body ?? {}) : undefined,
    query: spec.query ? parse(spec.query, query) : {},
    params: spec.params ? parse(spec.params, req.params) : req.params,
  };
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw HttpError.badRequest(result.error.issues[0]?.message ?? MSG.badRequest);
}
