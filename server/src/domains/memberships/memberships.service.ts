import type { Logger } from "pino";
import type { Db } from "../../db/client.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { createMembershipMember } from "./memberships.member.ts";
import { createMembershipPeriods } from "./memberships.periods.ts";
import { createMembershipState } from "./memberships.state.ts";

// what other domains take from memberships, one module away
export { membershipView } from "./memberships.member.ts";

/**
 * Memberships: a plan whose first order paid the first period and whose provider subscription pays the next ones.
 * Every change comes from a verified provider fact, inside the orders service's transaction for that fact, so a
 * renewal's credits, its payment event and the membership's period count commit together.
 */
export function createMembershipsService(deps: { db: Db; credits: CreditsService; log: Logger }) {
  const periods = createMembershipPeriods(deps);
  const state = createMembershipState(deps);
  const member = createMembershipMember(deps.db);
  return {
    started: periods.started,
    moveToUser: member.moveToUser,
    renewed: periods.renewed,
    stateChanged: state.stateChanged,
    periodReversed: periods.periodReversed,
    orderRefunded: periods.orderRefunded,
    subscriptionOf: member.subscriptionOf,
    current: member.current,
    cancellable: member.cancellable,
    markCancelled: member.markCancelled,
    resumable: member.resumable,
    markResumed: member.markResumed,
  };
}

export type MembershipsService = ReturnType<typeof createMembershipsService>;
