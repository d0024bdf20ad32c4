import type { ApiRouter } from "../http/api.ts";
import { AdminResource } from "./resource.ts";
import type { SupportService } from "../domains/support/support.service.ts";
import {
  supportReplyBody,
  supportThreadFilter,
  supportThreadRecord,
  supportThreadRow,
  supportThreadSortable,
  supportThreadUpdateBody,
} from "../domains/support/support.schema.ts";

/** The support inbox: the queue (oldest waiting first), taking and closing a thread, and answering it (docs/decisions/281). */
export function supportResource(api: ApiRouter, support: SupportService) {
  const r = new AdminResource(api, "support-threads", "SupportThread");
  r.list({ filter: supportThreadFilter, sortable: supportThreadSortable, defaultSort: ["lastMessageAt", "asc"], row: supportThreadRow }, (p) =>
    support.inbox.list(p),
  );
  r.get(supportThreadRecord, (id) => support.inbox.get(id));
  r.update(supportThreadUpdateBody, supportThreadRecord, (id, body, staff) => support.inbox.update(staff.staffId, id, body));
  r.action(
    "reply",
    {
      summary: "Answer the person (shown in their bubble, and emailed when they have an address)",
      can: ["update", "SupportThread"],
      body: supportReplyBody,
      response: supportThreadRecord,
    },
    (id, body, staff) => support.inbox.reply(staff.staffId, id, body.body),
  );
}
