import type { z } from "zod";
import type { ApiRouter } from "../http/api.ts";
import { AdminResource } from "./resource.ts";
import type { SiteAdminService } from "../domains/site/site.admin.service.ts";
import { LIMITS } from "../domains/uploads/uploads.service.ts";
import { MSG } from "../http/messages.ts";
import {
  bannerBody,
  bannerFilter,
  bannerRecord,
  bannerSortable,
  bannerUpdateBody,
  promptBody,
  promptFilter,
  promptSortable,
  promptSuggestionRecord,
  promptUpdateBody,
  settingBody,
  settingFilter,
  settingKey,
  settingSortable,
  settingUpdateBody,
  siteSettingRecord,
} from "../domains/site/site.admin.schema.ts";

/** Banners, prompt suggestions and keyed settings (basicSettings, siteConfig, ...). */
export function siteResource(api: ApiRouter, site: SiteAdminService) {
  const banners = new AdminResource(api, "banners", "SiteSetting");
  banners.list({ filter: bannerFilter, sortable: bannerSortable, defaultSort: ["sortOrder", "asc"], row: bannerRecord }, (p) => site.banners.list(p));
  banners.get(bannerRecord, (id) => site.banners.get(id));
  banners.create(bannerBody, bannerRecord, (body, staff) => site.banners.create(staff.staffId, body));
  banners.update(bannerUpdateBody, bannerRecord, (id, body, staff) => site.banners.update(staff.staffId, id, body));
  banners.remove(bannerRecord, (id, staff) => site.banners.remove(staff.staffId, id));

  const prompts = new AdminResource(api, "prompt-suggestions", "SiteSetting");
  prompts.list({ filter: promptFilter, sortable: promptSortable, defaultSort: ["sortOrder", "asc"], row: promptSuggestionRecord }, (p) => site.prompts.list(p));
  prompts.get(promptSuggestionRecord, (id) => site.prompts.get(id));
  prompts.create(promptBody, promptSuggestionRecord, (body, staff) => site.prompts.create(staff.staffId, body));
  prompts.update(promptUpdateBody, promptSuggestionRecord, (id, body, staff) => site.prompts.update(staff.staffId, id, body));
  prompts.remove(promptSuggestionRecord, (id, staff) => site.prompts.remove(staff.staffId, id));

  const settings = new AdminResource<string>(api, "site-settings", "SiteSetting", settingKey as z.ZodType<string>);
  settings.list({ filter: settingFilter, sortable: settingSortable, row: siteSettingRecord }, (p) => site.settings.list(p));
  settings.get(siteSettingRecord, (key) => site.settings.get(key));
  settings.create(settingBody, siteSettingRecord, (body, staff) => site.settings.create(staff.staffId, body));
  settings.update(settingUpdateBody, siteSettingRecord, (key, body, staff) => site.settings.update(staff.staffId, key, body));
  settings.remove(siteSettingRecord, (key, staff) => site.settings.remove(staff.staffId, key));
  settings.upload(
    "logo",
    {
      summary: "Upload the brand's logo (only on the `brand` setting; multipart `file`: png, jpg, jpeg, webp, bmp ≤ 10 MB, checked by content)",
      can: ["update", "SiteSetting"],
      maxBytes: LIMITS.imageBytes,
      tooBig: MSG.imageTooBig,
      response: siteSettingRecord,
    },
    (key, file, staff) => site.settings.setLogo(staff.staffId, key, file),
  );
}
