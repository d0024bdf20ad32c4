import type { ApiRouter } from "../../http/api.ts";
import type { PaymentsService } from "../payments/payments.service.ts";
import { changeAnswer, currentAnswer } from "./memberships.schema.ts";

/** The member's own plan: what it is, when it renews, and cancelling it. Only ever the caller's own membership. */
export function membershipsRoutes(api: ApiRouter, payments: PaymentsService) {
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
    ({ principal }) => payments.currentMembership(principal.userId).then((m) => ({ membership: m })),
  );
  api.post(
    "/api/membership/cancel",
    {
      tags,
      auth: "user",
      can: ["create", "Payment"],
      summary: "Cancel the caller's membership: no more renewals, the paid period runs out",
      response: changeAnswer,
    },
    ({ principal }) => payments.cancelMembership(principal.userId).then((m) => ({ membership: m })),
  );
  api.post(
    "/api/membership/resume",
    {
      tags,
      auth: "user",
      can: ["create", "Payment"],
      summary: "Resume the caller's cancelled membership before its paid period ends, where its provider allows it",
      response: changeAnswer,
    },
    ({ principal }) => payments.resumeMembership(principal.userId).then((m) => ({ membership: m })),
  );
}
