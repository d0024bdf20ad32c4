import crypto from "node:crypto";
import type { Db } from "../../db/client.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { authBtnList, packedRules, type AppAbility } from "../../authz/abilities.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { hashPassword } from "../auth/password.ts";
import { newTotpSecret, otpauthUri } from "../auth/totp.ts";
import type { OutboxFilter, StaffCreateBody, StaffFilter, StaffUpdateBody } from "./staff.schema.ts";

/** Never the password hash or the one-time-code secret. */
const staffFields = { id: true, username: true, roles: true, active: true, createdAt: true, updatedAt: true } satisfies Prisma.StaffSelect;

/** A new password and one-time-code secret, answered once and never stored in clear. */
async function freshCredentials(username: string) {
  const password = crypto.randomBytes(12).toString("base64url");
  const totpSecret = newTotpSecret();
  return { password, totpSecret, otpauthUri: otpauthUri(username, totpSecret), passwordHash: await hashPassword(password) };
}

/** Staff accounts (admin only) and what the console needs to know about the signed-in staff member. */
export function createStaffService(db: Db, audit: AuditService) {
  return {
    /** Who is signed in to the console and what the console may show them (the server checks every request again). */
    async me(staffId: number, ability: AppAbility) {
      const staff = await db.staff.findUnique({ where: { id: staffId }, select: { id: true, username: true, roles: true } });
      if (!staff) throw HttpError.unauthorized();
      return { id: staff.id, username: staff.username, roles: staff.roles, authBtnList: authBtnList(ability), rules: packedRules(ability) };
    },

    list: (params: ListParams<StaffFilter>) => {
      const f = params.filter;
      return pageOf(
        db.staff,
        params,
        { ...matching(f, ["active"]), ...(f.q ? { username: { contains: f.q, mode: "insensitive" } } : {}), ...(f.role ? { roles: { has: f.role } } : {}) },
        { select: staffFields },
      );
    },
    get: (id: number) => db.staff.findUnique({ where: { id }, select: staffFields }),

    /** Answers the new member's password and one-time-code secret; this is the only time they are shown. */
    async create(staffId: number, body: StaffCreateBody) {
      const creds = await freshCredentials(body.username);
      return db.$transaction(async (tx) => {
        if (await tx.staff.findUnique({ where: { username: body.username } })) throw HttpError.conflict("This username is taken");
        const after = await tx.staff.create({
          data: { username: body.username, roles: body.roles, passwordHash: creds.passwordHash, totpSecret: creds.totpSecret },
          select: staffFields,
        });
        await audit.record(tx, { staffId, action: "create", resource: "Staff", resourceId: after.id, after });
        return { ...after, password: creds.password, totpSecret: creds.totpSecret, otpauthUri: creds.otpauthUri };
      });
    },

    /** Roles or active flag; a member whose access shrinks is signed out everywhere. */
    async update(staffId: number, id: number, body: StaffUpdateBody) {
      return db.$transaction(async (tx) => {
        const before = await tx.staff.findUnique({ where: { id }, select: staffFields });
        if (!before) throw HttpError.notFound();
        if (id === staffId && (body.active === false || (body.roles && !body.roles.includes("admin")))) {
          throw HttpError.conflict("You cannot remove your own admin access");
        }
        const after = await tx.staff.update({ where: { id }, data: body, select: staffFields });
        const lostRole = before.roles.some((r) => !after.roles.includes(r));
        if (lostRole || !after.active) await tx.session.updateMany({ where: { staffId: id, revokedAt: null }, data: { revokedAt: new Date() } });
        await audit.record(tx, { staffId, action: "update", resource: "Staff", resourceId: id, before, after });
        return after;
      });
    },

    /** New password and one-time-code secret (the old authenticator entry stops working); signs the member out. */
    async resetPassword(staffId: number, id: number, reason: string) {
      const before = await db.staff.findUnique({ where: { id }, select: staffFields });
      if (!before) throw HttpError.notFound();
      const creds = await freshCredentials(before.username);
      return db.$transaction(async (tx) => {
        const after = await tx.staff.update({
          where: { id },
          data: { passwordHash: creds.passwordHash, totpSecret: creds.totpSecret, totpLastStep: null },
          select: staffFields,
        });
        await tx.session.updateMany({ where: { staffId: id, revokedAt: null }, data: { revokedAt: new Date() } });
        await audit.record(tx, { staffId, action: "reset_password", resource: "Staff", resourceId: id, before, after, reason });
        return { ...after, password: creds.password, totpSecret: creds.totpSecret, otpauthUri: creds.otpauthUri };
      });
    },

    /**
     * What the product sent (or could not send), with login codes masked. Reading it says who writes to whom, so every
     * read is audited: the list with its filter, one email with its id.
     */
    outbox: {
      list: async (staffId: number, params: ListParams<OutboxFilter>) => {
        const f = params.filter;
        await audit.record(db, {
          staffId,
          action: "list",
          resource: "OutboxEmail",
          resourceId: null,
          after: { filter: f, sort: params.sort, range: params.range },
        });
        return pageOf(db.outboxEmail, params, {
          ...matching(f, ["to"]),
          ...(f.q ? { OR: [{ to: { contains: f.q, mode: "insensitive" } }, { subject: { contains: f.q, mode: "insensitive" } }] } : {}),
        });
      },
      get: async (staffId: number, id: number) => {
        const row = await db.outboxEmail.findUnique({ where: { id } });
        if (row) await audit.record(db, { staffId, action: "read", resource: "OutboxEmail", resourceId: id });
        return row;
      },
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
