import type { Db } from "../../db/client.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { matching, type ListParams } from "../../db/paging.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { auditedTable, byId } from "../audit/audited-table.ts";
import { BRAND_SETTING } from "../../contract/brand.ts";
import { REWARD_DEFAULTS, REWARDS_SETTING } from "../../contract/rewards.ts";
import { TIP_DEFAULTS, TIP_SETTING } from "../../contract/tips.ts";
import { CHAT_MEDIA_DEFAULTS, CHAT_MEDIA_SETTING } from "../../contract/chat.ts";
import { HttpError } from "../../http/errors.ts";
import { mediaKey, type MediaStorage } from "../../storage/storage.ts";
import { checkedImage, type IncomingFile } from "../uploads/uploads.service.ts";
import type { BannerFilter, PromptFilter, SettingFilter } from "./site.admin.schema.ts";
import { BRAND_DEFAULTS, checkedBrand, storedBrand } from "./site.brand.ts";
import { checkedRewards } from "./site.rewards.ts";
import { checkedTips } from "./site.tips.ts";
import { checkedChatMedia } from "./site.chat-media.ts";

/** A setting as a console record: react-admin needs an `id`, settings are keyed by `key`. */
function settingRecord<R extends { key: string }>(r: R | null) {
  return r ? { id: r.key, ...r } : null;
}

/**
 * Settings the product reads are checked and stored whole (brand: colours, contrast; rewards and tips: amounts; chat
 * media: switches, prices, workflows); other keys hold any JSON.
 */
const CHECKED: Record<string, (value: unknown) => unknown> = {
  [BRAND_SETTING]: checkedBrand,
  [REWARDS_SETTING]: checkedRewards,
  [TIP_SETTING]: checkedTips,
  [CHAT_MEDIA_SETTING]: checkedChatMedia,
};
const settingValue = (key: string, value: unknown) => (CHECKED[key] ? CHECKED[key](value) : value) as Prisma.InputJsonValue;
/** Checked settings are always there to edit: what is in force until staff first save them. */
const UNSAVED: Record<string, unknown> = {
  [BRAND_SETTING]: BRAND_DEFAULTS,
  [REWARDS_SETTING]: REWARD_DEFAULTS,
  [TIP_SETTING]: TIP_DEFAULTS,
  [CHAT_MEDIA_SETTING]: CHAT_MEDIA_DEFAULTS,
};

/** Banners, prompt suggestions and keyed site settings, edited by marketing; every change audited. */
export function createSiteAdminService(db: Db, audit: AuditService, storage: MediaStorage) {
  const banners = auditedTable(db, audit, { resource: "Banner", table: (c) => c.banner, key: byId, idOf: (r) => r.id });
  const prompts = auditedTable(db, audit, { resource: "PromptSuggestion", table: (c) => c.promptSuggestion, key: byId, idOf: (r) => r.id });
  const settings = auditedTable(db, audit, { resource: "SiteSetting", table: (c) => c.siteSetting, key: (id) => ({ key: String(id) }), idOf: (r) => r.key });

  return {
    banners: {
      list: (params: ListParams<BannerFilter>) => {
        const f = params.filter;
        return banners.list(params, { ...matching(f, ["enabled"]), ...(f.q ? { title: { contains: f.q, mode: "insensitive" } } : {}) });
      },
      get: banners.get,
      create: banners.create,
      update: banners.update,
      remove: banners.remove,
    },
    prompts: {
      list: (params: ListParams<PromptFilter>) => {
        const f = params.filter;
        return prompts.list(params, { ...matching(f, ["category", "enabled"]), ...(f.q ? { text: { contains: f.q, mode: "insensitive" } } : {}) });
      },
      get: prompts.get,
      create: prompts.create,
      update: prompts.update,
      remove: prompts.remove,
    },
    settings: {
      list: async (params: ListParams<SettingFilter>) => {
        const f = params.filter;
        const sort = { ...params.sort, field: params.sort.field === "id" ? "key" : params.sort.field };
        const where: Prisma.SiteSettingWhereInput = {
          ...(f.id ? { key: { in: f.id } } : {}),
          ...(f.q ? { key: { contains: f.q, mode: "insensitive" } } : {}),
        };
        const [rows, total] = await Promise.all([
          db.siteSetting.findMany({ where, orderBy: { [sort.field]: sort.order }, skip: params.range[0], take: params.range[1] - params.range[0] + 1 }),
          db.siteSetting.count({ where }),
        ]);
        return { rows: rows.map(settingRecord), total, from: params.range[0] };
      },
      get: async (key: string) => settingRecord((await settings.get(key)) ?? (key in UNSAVED ? { key, value: UNSAVED[key], updatedAt: null } : null)),
      create: async (staffId: number, body: { key: string; value: unknown }) =>
        settingRecord(await settings.create(staffId, { key: body.key, value: settingValue(body.key, body.value) })),
      update: async (staffId: number, key: string, body: { value: unknown }) => {
        const value = settingValue(key, body.value);
        const first = key in UNSAVED && !(await settings.get(key));
        return settingRecord(await (first ? settings.create(staffId, { key, value }) : settings.update(staffId, key, { value })));
      },
      remove: async (staffId: number, key: string) => settingRecord(await settings.remove(staffId, key)),
      /**
       * The brand's logo: checked by content like every upload and re-encoded, stored as site media, then set on the
       * brand (created with the defaults when none is stored yet), audited. A failed write removes the new file again.
       */
      async setLogo(staffId: number, key: string, file: IncomingFile | undefined) {
        if (key !== BRAND_SETTING) throw HttpError.notFound();
        const img = await checkedImage(file);
        const logo = mediaKey("site", "brand", img.ext);
        await storage.put(logo, img.data, img.mime);
        try {
          return await this.update(staffId, key, { value: { ...(await storedBrand(db)), logo } });
        } catch (err) {
          await storage.delete(logo);
          throw err;
        }
      },
    },
  };
}

export type SiteAdminService = ReturnType<typeof createSiteAdminService>;
