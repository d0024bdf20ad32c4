import type { ApiRouter } from "../http/api.ts";
import { AdminResource, reasonBody } from "./resource.ts";
import type { ModerationService } from "../domains/moderation/moderation.service.ts";
import { decisionBody } from "../domains/moderation/moderation.schema.ts";
import type { UsersAdminService } from "../domains/users/users.admin.service.ts";
import type { PrivacyService } from "../domains/privacy/privacy.service.ts";
import {
  adjustCreditsBody,
  ledgerFilter,
  ledgerRecord,
  ledgerSortable,
  paymentPermissionBody,
  userFilter,
  userRecord,
  userRow,
  userSortable,
} from "../domains/users/users.admin.schema.ts";

/** Accounts: search, ban / unban, payment permission, credit corrections; and the credit ledger beside them. */
export function usersResource(api: ApiRouter, users: UsersAdminService, moderation: ModerationService, privacy: PrivacyService) {
  const r = new AdminResource(api, "users", "User");
  r.list({ filter: userFilter, sortable: userSortable, row: userRow }, (p) => users.list(p));
  r.get(userRecord, (id) => users.get(id));
  r.action(
    "ban",
    {
      summary: "Ban the account: every token revoked at once; the reason and ground are the person's statement of reasons",
      can: ["ban", "User"],
      body: decisionBody,
      response: userRecord,
    },
    async (id, body, staff) => {
      await moderation.ban(staff.staffId, id, body);
      return users.get(id);
    },
  );
  r.action("unban", { summary: "Lift the account's bans", can: ["ban", "User"], body: reasonBody, response: userRecord }, async (id, body, staff) => {
    await moderation.unban(staff.staffId, id, body.reason);
    return users.get(id);
  });
  r.action(
    "payment-permission",
    { summary: "Grant or revoke payment permission", can: ["grant", "Payment"], body: paymentPermissionBody, response: userRecord },
    (id, body, staff) => users.setPaymentPermission(staff.staffId, id, body),
  );
  r.action(
    "credits",
    {
      summary: "Adjust credits (positive grants, negative charges) with a reason",
      can: ["adjust", "LedgerEntry"],
      body: adjustCreditsBody,
      response: userRecord,
    },
    (id, body, staff) => users.adjustCredits(staff.staffId, id, body),
  );

  // a person's GDPR requests run by support on their behalf, audited with the reason (decisions 261, 262)
  r.action(
    "data-export",
    {
      summary: "Prepare the account's data archive; the person is told when it is ready",
      can: ["create", "DataRequest"],
      body: reasonBody,
      response: userRecord,
    },
    async (id, body, staff) => {
      await privacy.requestExport(id, staff.staffId, body.reason);
      return users.get(id);
    },
  );
  r.action(
    "delete-account",
    { summary: "Delete the account after the grace period (undoable until then)", can: ["delete", "DataRequest"], body: reasonBody, response: userRecord },
    async (id, body, staff) => {
      await privacy.requestDeletion(id, { by: "staff", staffId: staff.staffId, reason: body.reason });
      return users.get(id);
    },
  );
  r.action(
    "undo-delete-account",
    { summary: "Undo the account's pending deletion", can: ["delete", "DataRequest"], body: reasonBody, response: userRecord },
    async (id, body, staff) => {
      await privacy.undoDeletion(id, { staffId: staff.staffId, reason: body.reason });
      return users.get(id);
    },
  );

  const ledger = new AdminResource(api, "ledger", "LedgerEntry");
  ledger.list({ filter: ledgerFilter, sortable: ledgerSortable, row: ledgerRecord }, (p) => users.listLedger(p));
  ledger.get(ledgerRecord, (id) => users.getLedgerEntry(id));
}
