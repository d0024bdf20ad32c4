import { z } from "zod";
import type { ApiRouter } from "../http/api.ts";
import type { ChatService } from "../domains/chat/chat.service.ts";
import {
  chatBackendRecord,
  chatPolicyHitRecord,
  chatSuspensionRecord,
  chatSuspensionRow,
  conversationFilter,
  conversationRecord,
  conversationRow,
  conversationSortable,
  policyHitFilter,
  policyHitSortable,
  suspensionFilter,
  suspensionSortable,
} from "../domains/chat/chat.admin.schema.ts";
import { AdminResource, reasonBody } from "./resource.ts";

/**
 * Chat for moderators and operators: conversations with their lines (what a report points at), the policy hits,
 * the suspensions they made (and lifting one), and each back end's status over the last 24 hours.
 */
export function chatResources(api: ApiRouter, chat: ChatService) {
  const conversations = new AdminResource(api, "conversations", "Conversation");
  conversations.list({ filter: conversationFilter, sortable: conversationSortable, row: conversationRow }, (p) => chat.admin.listConversations(p));
  conversations.get(conversationRecord, (id) => chat.admin.conversation(id));

  const hits = new AdminResource(api, "chat-policy-hits", "ChatPolicyHit");
  hits.list({ filter: policyHitFilter, sortable: policyHitSortable, row: chatPolicyHitRecord }, (p) => chat.admin.listPolicyHits(p));
  hits.get(chatPolicyHitRecord, (id) => chat.admin.policyHit(id));

  // a suspension's id is the account's id: one account, one suspension
  const suspensions = new AdminResource(api, "chat-suspensions", "ChatSuspension");
  suspensions.list({ filter: suspensionFilter, sortable: suspensionSortable, defaultSort: ["lastHitAt", "desc"], row: chatSuspensionRow }, (p) =>
    chat.admin.listSuspensions(p),
  );
  suspensions.get(chatSuspensionRecord, (id) => chat.admin.suspension(id));
  suspensions.action(
    "lift",
    {
      summary: "Lift the account's chat suspension (its policy hits stay on record, marked lifted); audited with the reason",
      can: ["update", "ChatSuspension"],
      body: reasonBody,
      response: chatSuspensionRecord,
    },
    (id, body, staff) => chat.admin.liftSuspension(staff.staffId, id, body.reason),
  );

  const backends = new AdminResource<string>(api, "chat-backends", "ChatBackend", z.string().min(1).max(40));
  backends.list({ filter: z.strictObject({}), sortable: ["id"], row: chatBackendRecord }, async () => {
    const status = await chat.backendStatus();
    return { rows: status.backends, total: status.backends.length, from: 0 };
  });
  backends.get(chatBackendRecord, async (id) => (await chat.backendStatus()).backends.find((b) => b.id === id) ?? null);
}
