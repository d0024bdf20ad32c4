import crypto from "node:crypto";
import type { Tx } from "../../db/client.ts";
import type { DecisionAction, DecisionGround, ReportTarget } from "../../db/generated/enums.ts";

/** What a statement of reasons records; see docs/decisions/151. */
export interface DecisionInput {
  userId: number;
  action: DecisionAction;
  ground: DecisionGround;
  explanation: string;
  /** the moderator who decided; null: the system, which makes the decision automated */
  decidedById: number | null;
  targetType?: ReportTarget;
  targetId?: number;
  banId?: number;
  reportId?: number;
}

/** A staff decision with the ground it rests on (a report's reason when it comes from a report). */
export interface Decided {
  reason: string;
  ground?: DecisionGround;
}

/** Writes the statement of reasons the person is shown (notices page, ban screen) in the deciding transaction. */
export function recordDecision(tx: Tx, d: DecisionInput) {
  return tx.decision.create({
    data: { ...d, automated: d.decidedById === null, appealKey: crypto.randomBytes(24).toString("base64url") },
  });
}
