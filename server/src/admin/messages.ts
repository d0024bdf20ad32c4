import type { ApiRouter } from "../http/api.ts";
import type { MessagesService } from "../domains/messages/messages.service.ts";
import { reportedThreadFilter, reportedThreadRecord, reportedThreadRow, reportedThreadSortable } from "../domains/messages/messages.schema.ts";
import { AdminResource } from "./resource.ts";

/**
 * Reported threads for moderators (docs/decisions/310): each thread holding a reported message, read whole; the
 * decision itself (take down, dismiss) is made on the report, in the report queue.
 */
export function messagesResource(api: ApiRouter, messages: MessagesService) {
  const threads = new AdminResource(api, "reported-threads", "Message");
  threads.list({ filter: reportedThreadFilter, sortable: reportedThreadSortable, defaultSort: ["lastReportedAt", "desc"], row: reportedThreadRow }, (p) =>
    messages.admin.listReported(p),
  );
  threads.get(reportedThreadRecord, (id) => messages.admin.reportedThread(id));
}
