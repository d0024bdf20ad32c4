import type { Db } from "../../db/client.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { matching, type ListParams } from "../../db/paging.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { auditedTable, byId } from "../audit/audited-table.ts";
import type { BannerFilter, PromptFilter, SettingFilter } from "./site.admin.schema.ts";

/** A setting as a console record: react-admin needs an `id`, settings are keyed by `key`. */
function settingRecord<R extends { key: string }>(r: R | null) {
  return r ? { id: r.key, ...r } : null;
}

/** Banners, prompt suggestions and keyed site settings, edited by marketing; every change audited. */
export function createSiteAdminService(db: Db, audit: AuditService) {
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
      get: async (key: string) => settingRecord(await settings.get(key)),
      create: async (staffId: number, body: { key: string; value: unknown }) =>
        settingRecord(await settings.create(staffId, { key: body.key, value: body.value as Prisma.InputJsonValue })),
      update: async (staffId: number, key: string, body: { value: unknown }) =>
        settingRecord(await settings.update(staffId, key, { value: body.value as Prisma.InputJsonValue })),
      remove: async (staffId: number, key: string) => settingRecord(await settings.remove(staffId, key)),
    },
  };
}

export type SiteAdminService = ReturnType<typeof createSiteAdminService>;
