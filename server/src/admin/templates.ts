import type { ApiRouter } from "../http/api.ts";
import { AdminResource } from "./resource.ts";
import { MSG } from "../http/messages.ts";
import { LIMITS } from "../domains/uploads/uploads.service.ts";
import type { TemplatesAdminService } from "../domains/templates/templates.admin.service.ts";
import {
  reorderAnswer,
  reorderBody,
  templateBody,
  templateFilter,
  templateRecord,
  templateSortable,
  templateUpdateBody,
} from "../domains/templates/templates.admin.schema.ts";

export function templatesResource(api: ApiRouter, templates: TemplatesAdminService) {
  const r = new AdminResource(api, "templates", "Template");
  api.post(
    "/admin/api/templates/reorder",
    {
      summary: "Put templates in this order",
      tags: ["console: templates"],
      auth: "staff",
      can: ["update", "Template"],
      body: reorderBody,
      response: { kind: "plain", schema: reorderAnswer, description: "The templates in their new order" },
    },
    ({ body, principal }) => templates.reorder(principal.staffId, body.ids),
  );
  r.list({ filter: templateFilter, sortable: templateSortable, defaultSort: ["sortOrder", "asc"], row: templateRecord }, (p) => templates.list(p));
  r.get(templateRecord, (id) => templates.get(id));
  r.create(templateBody, templateRecord, (body, staff) => templates.create(staff.staffId, body));
  r.update(templateUpdateBody, templateRecord, (id, body, staff) => templates.update(staff.staffId, id, body));
  r.remove(templateRecord, (id, staff) => templates.remove(staff.staffId, id));
  r.upload(
    "cover",
    {
      summary: "Upload a template's cover image (multipart `file`: png, jpg, jpeg, webp, bmp ≤ 10 MB, checked by content)",
      can: ["update", "Template"],
      maxBytes: LIMITS.imageBytes,
      tooBig: MSG.imageTooBig,
      response: templateRecord,
    },
    (id, file, staff) => templates.setCover(staff.staffId, id, file),
  );
}
