import type { ApiRouter } from "../http/api.ts";
import { AdminResource, reasonBody } from "./resource.ts";
import type { PayoutsService } from "../domains/creators/payouts.service.ts";
import {
  approveBody,
  disputeFilter,
  disputeRecord,
  disputeSortable,
  payoutFilter,
  payoutRecord,
  payoutRow,
  payoutSortable,
  resolveBody,
} from "../domains/creators/payouts.schema.ts";
import { tipFilter, tipRecord, tipSortable } from "../domains/creators/creator-tips.schema.ts";
import type { CreatorsAdminService } from "../domains/creators/creators.admin.service.ts";
import {
  creatorLibraryItemRecord,
  creatorMembershipFilter,
  creatorMembershipRecord,
  creatorMembershipSortable,
  libraryItemFilter,
  libraryItemSortable,
} from "../domains/creators/creators.schema.ts";

/** The payout queue, the requests in dispute (issue 16) and tips (decision 304): money decisions for admins and support, audited. */
export function creatorMoneyResources(api: ApiRouter, payouts: PayoutsService) {
  const queue = new AdminResource(api, "payouts", "CreatorPayout");
  queue.list({ filter: payoutFilter, sortable: payoutSortable, row: payoutRow }, (p) => payouts.admin.listPayouts(p));
  queue.get(payoutRecord, (id) => payouts.admin.getPayout(id));
  queue.action(
    "approve",
    {
      summary: "Approve a payout paid outside, with the transfer's reference; the credits stay out of the balance",
      can: ["update", "CreatorPayout"],
      body: approveBody,
      response: payoutRecord,
    },
    (id, body, staff) => payouts.admin.approve(staff.staffId, id, body.reference),
  );
  queue.action(
    "reject",
    {
      summary: "Reject a payout; its credits return to the creator's balance once",
      can: ["update", "CreatorPayout"],
      body: reasonBody,
      response: payoutRecord,
    },
    (id, body, staff) => payouts.admin.reject(staff.staffId, id, body.reason),
  );

  const disputes = new AdminResource(api, "disputes", "CustomRequest");
  disputes.list({ filter: disputeFilter, sortable: disputeSortable, defaultSort: ["disputedAt", "desc"], row: disputeRecord }, (p) =>
    payouts.admin.listDisputes(p),
  );
  disputes.get(disputeRecord, (id) => payouts.admin.getDispute(id));
  disputes.action(
    "resolve",
    {
      summary: "Resolve a dispute: refund the fan (taken back from the creator as far as the balance holds) or uphold the delivery",
      can: ["update", "CustomRequest"],
      body: resolveBody,
      response: disputeRecord,
    },
    (id, body, staff) => payouts.admin.resolveDispute(staff.staffId, id, body.outcome, body.reason),
  );

  const tips = new AdminResource(api, "tips", "Tip");
  tips.list({ filter: tipFilter, sortable: tipSortable, row: tipRecord }, (p) => payouts.admin.listTips(p));
  tips.get(tipRecord, (id) => payouts.admin.getTip(id));
  tips.action(
    "reverse",
    {
      summary: "Reverse a fraudulent tip: the fan gets it back, the creator's earning is taken back as far as the balance holds (audited)",
      can: ["update", "Tip"],
      body: reasonBody,
      response: tipRecord,
    },
    (id, body, staff) => payouts.admin.reverseTip(staff.staffId, id, body.reason),
  );
}

/**
 * What fans pay each page and what each page shows (decision 215), read-only, for whoever may read creator pages
 * (moderators and admins): opened from a creator page, filtered by it.
 */
export function creatorPageResources(api: ApiRouter, creatorsAdmin: CreatorsAdminService) {
  const memberships = new AdminResource(api, "creator-memberships", "CreatorPage");
  memberships.list({ filter: creatorMembershipFilter, sortable: creatorMembershipSortable, row: creatorMembershipRecord }, (p) =>
    creatorsAdmin.listMemberships(p),
  );
  memberships.get(creatorMembershipRecord, (id) => creatorsAdmin.getMembership(id));

  const items = new AdminResource(api, "creator-library-items", "CreatorPage");
  items.list({ filter: libraryItemFilter, sortable: libraryItemSortable, row: creatorLibraryItemRecord }, (p) => creatorsAdmin.listLibraryItems(p));
  items.get(creatorLibraryItemRecord, (id) => creatorsAdmin.getLibraryItem(id));
}
