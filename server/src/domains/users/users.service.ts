import type { Db } from "../../db/client.ts";
import { authBtnList, packedRules, type AppAbility } from "../../authz/abilities.ts";
import { HttpError } from "../../http/errors.ts";
import type { UserUpdateBody } from "./users.schema.ts";

/** The consumer app's bottom-bar entries (SPEC.md §2), shown to every signed-in user. */
const MENU = ["video", "homeLink", "results", "buyCredits", "videoPlus"];

/** SPEC.md §3: a missing nickname reads Guest_ plus the last 6 characters of the uuid. */
export function displayNickname(nickname: string | null, uuid: string): string {
  return nickname ?? `Guest_${uuid.replace(/-/g, "").slice(-6)}`;
}

export function createUsersService(db: Db) {
  return {
    /** SPEC.md §3 user info, plus what the client needs to hide what the server would refuse. */
    async personalInfo(userId: number, ability: AppAbility) {
      const u = await db.user.findUnique({ where: { id: userId } });
      if (!u) throw HttpError.notFound();
      const nickname = displayNickname(u.nickname, u.uuid);
      return {
        id: u.id,
        uuid: u.uuid,
        nickname,
        supplier_id: u.supplierId,
        type: u.loginType,
        menu: MENU,
        userName: nickname,
        username: nickname,
        email: u.email,
        title: u.title,
        photo: u.photo,
        time: Math.floor(u.createdAt.getTime() / 1000),
        menuJson: JSON.stringify(MENU),
        roles: [u.role],
        authBtnList: authBtnList(ability),
        rules: packedRules(ability),
        bemobClickId: u.bemobClickId,
        language: u.language,
        points: u.points,
        all_points: u.allPoints,
        payment_permission: u.paymentPermission,
      };
    },

    async update(userId: number, patch: UserUpdateBody): Promise<void> {
      await db.user.update({ where: { id: userId }, data: patch });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
