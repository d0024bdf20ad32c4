import { describe, expect, it } from "vitest";
import type { OrderStatus } from "../../db/generated/client.ts";
import type { PaymentOutcome } from "./payment-update.ts";
import { nextStatus } from "./orders.status.ts";

const STATUSES: OrderStatus[] = ["pending", "threeDsPending", "paid", "failed", "expired", "refunded"];

describe("order state machine", () => {
  // rows: current status; columns: paid, 3ds_pending, failed
  const expected: Record<OrderStatus, Record<PaymentOutcome, OrderStatus | null>> = {
    pending: { paid: "paid", "3ds_pending": "threeDsPending", failed: "failed" },
    threeDsPending: { paid: "paid", "3ds_pending": null, failed: "failed" },
    paid: { paid: null, "3ds_pending": null, failed: null },
    failed: { paid: "paid", "3ds_pending": null, failed: null },
    expired: { paid: "paid", "3ds_pending": null, failed: null },
    refunded: { paid: null, "3ds_pending": null, failed: null },
  };

  for (const current of STATUSES) {
    it(`from ${current}`, () => {
      for (const outcome of ["paid", "3ds_pending", "failed"] as PaymentOutcome[]) {
        expect([outcome, nextStatus(current, outcome)]).toEqual([outcome, expected[current][outcome]]);
      }
    });
  }
});
