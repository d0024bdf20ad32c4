import { z } from "zod";

/**
 * Filter pieces every console list shares. react-admin's getMany sends `{ id: [1, 2] }`,
 * getManyReference `{ <target>: 3 }`, date inputs ISO strings.
 */
export const idsFilter = z
  .union([z.coerce.number().int().positive(), z.array(z.coerce.number().int().positive()).max(1000)])
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .optional();
export const intFilter = z.coerce.number().int().optional();
export const dateFilter = z.coerce.date({ error: "Invalid date" }).optional();
export const textFilter = z.string().trim().max(200).optional();
export const boolFilter = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]).optional();
