import type { ApiRouter } from "../http/api.ts";
import { AdminResource } from "./resource.ts";
import { blockedHashRecord, blockedHasheRecord2, blockedHashFilter, blockedHashSortable, importHashesBody } from "../domains/screening/screening.schema.ts";
import type { BlocklistService } from "../domains/screening/blocklist.service.ts";

/** The blocklist of taken-down media for moderators (issue 19): hashes with their case and hits; import a list. */
export function blocklistResource(api: ApiRouter, blocklist: BlocklistService) {
  const r = new AdminResource(api, "blocked-hashes", "BlockedHash");
  r.list({ filter: blockedHashFilter, sortable: blockedHashSortable, row: blockedHashRecord }, (p) => blocklist.list(p));
  r.get(blockedHashRecord, (id) => blocklist.get(id));
  // react-admin's create answers a record with an id: the import answers its counts under id 0
  r.create(importHashesBody, blockedHasheRecord2, async (body, staff) => ({ id: 0, ...(await blocklist.importHashes(staff.staffId, body.hashes, body.note)) }));
}
