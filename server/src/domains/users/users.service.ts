import { sqlPool, type Db, type Tx } from "../../db/client.ts";
import { authBtnList, packedRules, type AppAbility } from "../../authz/abilities.ts";
import type { Account } from "../../authz/principal.ts";
import { HttpError } from "../../http/errors.ts";
import { accountOf } from "./users.queries.ts";
import type { UserUpdateBody } from "./users.schema.ts";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "../../contract/locales.ts";
import { displayNickname, SIGN_IN_METHODS, type SignInMethod } from "../../contract/users.ts";

/** The consumer app's bottom-bar entries (SPEC.md §2), shown to every signed-in user. */
const MENU = ["video", "homeLink", "results", "buyCredits", "videoPlus"];
const MENU_JSON = JSON.stringify(MENU);

/** The sign-in methods linked to an account (the profile shows them beside the email). */
function signInMethods(u: Account): SignInMethod[] {
  const linked: Record<SignInMethod, boolean> = { email: u.email !== null, google: u.google_linked, telegram: u.telegram_linked };
  return SIGN_IN_METHODS.filter((m) => linked[m]);
}

/** What the users domain takes from the uploads domain and storage for a profile photo (wired in services.ts). */
export interface ProfilePhotos {
  /** the storage key of one of the person's own usable image uploads; refuses anything else */
  ownImageKey(userId: number, uploadId: number): Promise<string>;
  signedUrl(key: string): Promise<string>;
}

export function createUsersService(db: Db, photos: ProfilePhotos) {
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
        photo: u.photo_key ? await photos.signedUrl(u.photo_key) : u.photo,
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
        sign_in_methods: signInMethods(u),
      };
    },

    /**
     * What an account holds that logging out of a guest account would lose for good (issue 46 item 1): a guest has no
     * way back in, so the app warns before the tap when any of these is there.
     */
    async belongings(userId: number) {
      const [u, results, plan, page] = await Promise.all([
        db.user.findUnique({ where: { id: userId }, select: { points: true } }),
        // made, making or waiting: a failed or expired task gave its credits back and holds nothing
        db.generationTask.count({ where: { userId, status: { notIn: ["failed", "expired"] }, state: { not: "removed" } } }),
        db.membership.count({ where: { userId, status: { not: "ended" } } }),
        db.creatorPage.count({ where: { userId } }),
      ]);
      if (!u) throw HttpError.notFound();
      return { credits: u.points, results, plan: plan > 0, creator_page: page > 0 };
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
      const { photo_image_id: imageId, time_zone: timeZone, ...rest } = patch;
      // a photo address given directly replaces a chosen upload, and the other way round
      const photo = imageId ? { photoKey: await photos.ownImageKey(userId, imageId) } : rest.photo ? { photoKey: null } : {};
      await db.user.update({ where: { id: userId }, data: { ...rest, ...photo, ...(timeZone ? { timeZone } : {}) } });
    },

    /**
     * The zone the account's day is counted in (daily check-in, docs/decisions/302): the stored one, else the browser's
     * `given` one, stored then (the first check-in sets it); null when neither is known.
     */
    async timeZoneOf(userId: number, given?: string): Promise<string | null> {
      const u = await db.user.findUnique({ where: { id: userId }, select: { timeZone: true } });
      if (!u) throw HttpError.notFound();
      if (u.timeZone || !given) return u.timeZone;
      await db.user.updateMany({ where: { id: userId, timeZone: null }, data: { timeZone: given } });
      return (await db.user.findUniqueOrThrow({ where: { id: userId }, select: { timeZone: true } })).timeZone;
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
