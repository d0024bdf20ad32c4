import { Prisma } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";

/** Models holding a home link, without regard to case (the lower() index of migration 0040). */
export const modelsWithHomeLink = statement({
  columns: { n: col.int },
  sql: (p: { homeLink: string }) => Prisma.sql`SELECT count(*)::int AS n FROM character_models WHERE lower(home_link) = lower(${p.homeLink})`,
  example: { homeLink: "home" },
});
