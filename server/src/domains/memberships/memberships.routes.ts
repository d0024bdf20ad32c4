import type { ApiRouter } from "../../http/api.ts";
import type { PaymentsService } from "../payments/payments.service.ts";
import type { MembershipsService } from "./memberships.service.ts";
import { cancelAnswer, currentAnswer } from "./memberships.schema.ts";

/** The member's own plan: what it is, when it renews, and cancelling it. Only ever the caller's own membership. */
export function membershipsRoutes(api: ApiRouter, memberships: MembershipsService, payments: PaymentsService) {
  const tags = ["memberships"];
  api.get(
    "/api/membership/current",
    {
      tags,
      auth: "user",
      can: ["read", "Order"],
      summary: "The caller's running membership (null when none): next renewal date, credits per period",
      response: currentAnswer,
    },
    ({ principal }) => memberships.current(principal.userId).then((m) => ({ membership: m })),
  );
  api.post(
    "/api/membership/cancel",
    {
      tags,
      auth: "user",
      can: ["create", "Payment"],
      summary: "Cancel the caller's membership: no more renewals, the paid period runs out",
      response: cancelAnswer,
    },
    ({ principal }) => payments.cancelMembership(principal.userId).then((m) => ({ membership: m })),
  );
}
