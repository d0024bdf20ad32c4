import type { Config } from "../../../config.ts";
import type { SandboxSessionStatus } from "../../../db/generated/client.ts";
import { SANDBOX_EVENTS, sandboxEnabled, type SandboxGateway, type SandboxNotification } from "../sandbox/sandbox-gateway.ts";
import { InvalidNotification, headerValue, type PaymentOutcome, type PaymentProvider, type PaymentUpdate } from "./provider.ts";
import { verifyNotificationSignature } from "./signature.ts";

const OUTCOME_BY_EVENT: Record<string, PaymentOutcome> = {
  [SANDBOX_EVENTS.succeeded]: "paid",
  [SANDBOX_EVENTS.requiresAction]: "3ds_pending",
  [SANDBOX_EVENTS.failed]: "failed",
};

const OUTCOME_BY_STATUS: Partial<Record<SandboxSessionStatus, PaymentOutcome>> = {
  succeeded: "paid",
  challenge: "3ds_pending",
  declined: "failed",
};

/** The built-in test checkout: talks to the sandbox gateway and checks its signed notifications like any provider's. */
export function createSandboxProvider(config: Config, gateway: SandboxGateway): PaymentProvider {
  return {
    name: "sandbox",
    available: () => sandboxEnabled(config),
    methods: () => ["checkout"],
    createCheckout: (req) => gateway.openSession(req),

    async parseNotification(rawBody, headers): Promise<PaymentUpdate> {
      if (!verifyNotificationSignature(config.SANDBOX_WEBHOOK_SECRET, rawBody, headerValue(headers, "sandbox-signature"))) {
        throw new InvalidNotification("sandbox signature does not match");
      }
      let n: SandboxNotification;
      try {
        n = JSON.parse(rawBody.toString("utf8")) as SandboxNotification;
      } catch {
        throw new InvalidNotification("sandbox notification is not JSON");
      }
      if (typeof n?.id !== "string" || typeof n.data?.session_id !== "string") throw new InvalidNotification("sandbox notification lacks id or session");
      return {
        eventId: n.id,
        type: n.type,
        outcome: OUTCOME_BY_EVENT[n.type] ?? null,
        providerRef: n.data.session_id,
        orderNo: n.data.order_no,
        amountMinor: n.data.amount,
        currency: n.data.currency,
        failureReason: n.type === SANDBOX_EVENTS.failed ? "declined" : undefined,
        payload: n,
      };
    },

    async queryPayment(providerRef): Promise<PaymentUpdate | null> {
      const s = await gateway.find(providerRef);
      const outcome = s ? OUTCOME_BY_STATUS[s.status] : undefined;
      if (!s || !outcome) return null;
      return {
        eventId: `query:${s.id}:${s.status}`,
        type: `query.${s.status}`,
        outcome,
        providerRef: s.id,
        orderNo: s.orderNo,
        amountMinor: s.amountMinor,
        currency: s.currency,
        failureReason: outcome === "failed" ? "declined" : undefined,
        payload: { session_id: s.id, status: s.status, amount: s.amountMinor, currency: s.currency },
      };
    },

    refund: (providerRef) => gateway.refund(providerRef),
  };
}
