import { sqlPool, type Db, type Tx } from "../../db/client.ts";
import { authBtnList, packedRules, type AppAbility } from "../../authz/abilities.ts";
import type { Account } from "../../authz/principal.ts";
import { HttpError } from "../../http/errors.ts";
import { accountOf } from "./users.queries.ts";
import type { UserUpdateBody } from "./users.schema.ts";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "../../contract/locales.ts";
import { displayNickname } from "../../contract/users.ts";

/** The consumer app's bottom-bar entries (SPEC.md §2), shown to every signed-in user. */
const MENU = ["video", "homeLink", "results", "buyCredits", "videoPlus"];
const MENU_JSON = JSON.stringify(MENU);

export function createUsersService(db: Db) {
  return {
    /** SPEC.md §3 user info, plus what the client needs to hide what the server would refuse. */
    async personalInfo(userId: number, ability: AppAbility, account?: Account) {
      const u = account ?? (await accountOf.first(sqlPool(db), { userId }));
      if (!u) throw HttpError.notFound();
      const nickname = displayNickname(u.nickname, u.uuid);
      return {
        id: userId,
        uuid: u.uuid,
        nickname,
        supplier_id: u.supplier_id,
        type: u.login_type,
        menu: MENU,
        userName: nickname,
        username: nickname,
        email: u.email,
        title: u.title,
        photo: u.photo,
        time: u.created_s,
        menuJson: MENU_JSON,
        roles: [u.role],
        authBtnList: authBtnList(ability),
        rules: packedRules(ability),
        bemobClickId: u.bemob_click_id,
        language: u.language,
        points: u.points,
        all_points: u.all_points,
        payment_permission: u.payment_permission,
      };
    },

    /** SPEC.md §6: an account becomes a creator when it publishes its first page (in that transaction). */
    async makeCreator(tx: Tx, userId: number): Promise<void> {
      await tx.user.updateMany({ where: { id: userId, role: { not: "creator" } }, data: { role: "creator" } });
    },

    /** Where and in which language to write to a person (null when the account has no email: a guest, a channel login). */
    async contactOf(userId: number): Promise<{ email: string; language: Language } | null> {
      const u = await db.user.findUnique({ where: { id: userId }, select: { email: true, language: true } });
      if (!u?.email) return null;
      return { email: u.email, language: (LANGUAGES as readonly string[]).includes(u.language) ? (u.language as Language) : DEFAULT_LANGUAGE };
    },

    async update(userId: number, patch: UserUpdateBody): Promise<void> {
      await db.user.update({ where: { id: userId }, data: patch });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
