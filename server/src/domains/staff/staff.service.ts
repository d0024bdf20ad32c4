import type { Db } from "../../db/client.ts";
import { authBtnList, packedRules, type AppAbility } from "../../authz/abilities.ts";
import { HttpError } from "../../http/errors.ts";

export function createStaffService(db: Db) {
  return {
    /** Who is signed in to the console and what the console may show them (the server checks every request again). */
    async me(staffId: number, ability: AppAbility) {
      const staff = await db.staff.findUnique({ where: { id: staffId }, select: { id: true, username: true, roles: true } });
      if (!staff) throw HttpError.unauthorized();
      return { id: staff.id, username: staff.username, roles: staff.roles, authBtnList: authBtnList(ability), rules: packedRules(ability) };
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
