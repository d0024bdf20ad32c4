import { Prisma } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";

/**
 * The users columns behind personal_info, for a query that names the users table `u`. The session lookup reads them
 * in its own round trip, so personal_info costs no second query (docs/decisions/001).
 */
export const accountColumns = Prisma.sql`u.uuid::text AS uuid, u.nickname, u.supplier_id, u.login_type::text AS login_type, u.email, u.title,
  u.photo, u.photo_key, floor(extract(epoch FROM u.created_at))::float8 AS created_s, u.role::text AS role, u.bemob_click_id, u.language,
  u.points, u.all_points, u.payment_permission, u.free_generations, u.google_sub IS NOT NULL AS google_linked,
  u.player_uid IS NOT NULL AS telegram_linked`;

/** One account's personal_info columns (authz/principal.ts Account). */
export const accountOf = statement({
  columns: {
    uuid: col.text,
    nickname: col.text.orNull,
    supplier_id: col.int.orNull,
    login_type: col.text,
    email: col.text.orNull,
    title: col.text.orNull,
    photo: col.text.orNull,
    photo_key: col.text.orNull,
    created_s: col.float,
    role: col.text,
    bemob_click_id: col.text.orNull,
    language: col.text,
    points: col.int,
    all_points: col.int,
    payment_permission: col.bool,
    free_generations: col.int,
    google_linked: col.bool,
    telegram_linked: col.bool,
  },
  sql: (p: { userId: number }) => Prisma.sql`SELECT ${accountColumns} FROM users u WHERE u.id = ${p.userId}`,
  example: { userId: 1 },
});
