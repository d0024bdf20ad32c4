import { z } from "zod";

/**
 * The body of a console edit (PUT) from a create schema: every field optional and without its default
 * (a missing field stays as stored), unknown fields dropped (react-admin sends the whole record back,
 * with `id`, timestamps and computed fields).
 */
export function patchOf<S extends z.ZodRawShape>(schema: z.ZodObject<S>) {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([k, field]) => [k, (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType)).optional()]),
  ) as unknown as { [K in keyof S]: z.ZodOptional<S[K] extends z.ZodDefault<infer I> ? I : S[K]> };
  return z.object(shape);
}
