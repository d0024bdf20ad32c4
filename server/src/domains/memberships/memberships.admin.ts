import { z } from "zod";
import { MEMBERSHIP_STATUSES } from "../../contract/memberships.ts";
import type { Db } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";

export const membershipFilter = z.strictObject({
  id: idsFilter,
  status: z.enum(MEMBERSHIP_STATUSES).optional(),
  provider: textFilter,
  userId: intFilter,
});
export type MembershipFilter = z.infer<typeof membershipFilter>;
export const membershipSortable = ["id", "createdAt", "currentPeriodEnd", "periodsPaid", "status"] as const;

/** Memberships for the console, read-only: only verified provider facts and the member's own cancel change them. */
export function createMembershipsAdminService(db: Db) {
  return {
    list: (params: ListParams<MembershipFilter>) => pageOf(db.membership, params, matching(params.filter, ["status", "provider", "userId"])),
    get: (id: number) => db.membership.findUnique({ where: { id } }),
  };
}

export type MembershipsAdminService = ReturnType<typeof createMembershipsAdminService>;
