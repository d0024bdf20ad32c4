import type { ApiRouter } from "../http/api.ts";
import { AdminResource } from "./resource.ts";
import type { LegalService } from "../domains/legal/legal.service.ts";
import { legalVersionBody, legalVersionFilter, legalVersionRecord, legalVersionSortable } from "../domains/legal/legal.schema.ts";

/** Versions of the legal pages: admins publish a new one (a published version is never edited; docs/decisions/282). */
export function legalResource(api: ApiRouter, legal: LegalService) {
  const r = new AdminResource(api, "legal-versions", "LegalVersion");
  r.list({ filter: legalVersionFilter, sortable: legalVersionSortable, defaultSort: ["version", "desc"], row: legalVersionRecord }, (p) => legal.list(p));
  r.get(legalVersionRecord, (id) => legal.get(id));
  r.create(legalVersionBody, legalVersionRecord, (body, staff) => legal.publish(staff.staffId, body));
}
