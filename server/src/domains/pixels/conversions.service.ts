import type { Logger } from "pino";
import { DEFAULT_CHANNEL, SERVER_CONVERSION_VENDORS, type ConversionStatus, type ServerConversionVendor } from "../../contract/pixels.ts";
import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { Order, Prisma } from "../../db/generated/client.ts";
import { minorToDecimal } from "../products/money.ts";
import { googleAdsConversions } from "./conversions/google-ads.conversion.ts";
import { metaConversions } from "./conversions/meta.conversion.ts";
import type { ConversionSender, DeliveryContext, Http } from "./conversions/sender.ts";
import { tiktokConversions } from "./conversions/tiktok.conversion.ts";
import { idsOnly, type ChannelSecrets } from "./channel-secrets.ts";
import { claimDueDeliveries, outboxBacklog, recordPurchaseConversion } from "./pixels.queries.ts";
import { serverConversionSettings, type ServerConversionSettings } from "./pixels.schema.ts";

const SENT: ConversionStatus = "sent";
const FAILED: ConversionStatus = "failed";

/** Deliveries claimed per round; the rest wait for the next one. */
const BATCH = 20;

/**
 * Purchase conversions (docs/decisions/121). When an order turns paid, `recordPurchase` runs inside that
 * transaction: one purchase_conversions row per order (unique), and one outbox row per vendor the order's
 * channel has credentials for — only when the visitor allowed advertising at checkout. `deliverDue` sends what
 * is due, outside any transaction, retrying with exponential back-off; a delivered row is never sent again.
 */
export function createConversionsService(deps: { db: Db; config: Config; log: Logger; secrets: ChannelSecrets; http?: Http }) {
  const { db, config, log } = deps;
  const http: Http = deps.http ?? ((url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(config.CONVERSION_TIMEOUT_SECONDS * 1000) }));
  const senders: { [V in ServerConversionVendor]: ConversionSender<V> } = {
    meta: metaConversions(config.META_CAPI_URL),
    tiktok: tiktokConversions(config.TIKTOK_EVENTS_URL),
    google_ads: googleAdsConversions(config.GOOGLE_ADS_API_URL, config.GOOGLE_TOKEN_URL),
  };

  /** The channel's ids with its tokens opened from the secret store; a vendor missing any part is off. */
  async function settingsOf(client: Db | Tx, channelCode: string | null): Promise<ServerConversionSettings> {
    const select = { id: true, serverConversions: true } as const;
    const channel =
      (channelCode ? await client.channel.findUnique({ where: { code: channelCode }, select }) : null) ??
      (await client.channel.findUnique({ where: { code: DEFAULT_CHANNEL }, select }));
    if (!channel) return {};
    const ids = idsOnly(channel.serverConversions);
    const tokens = await deps.secrets.forSending(client, channel.id, log);
    const settings: ServerConversionSettings = {};
    for (const vendor of SERVER_CONVERSION_VENDORS) {
      const parsed = serverConversionSettings.shape[vendor].safeParse(ids[vendor] ? { ...ids[vendor], ...tokens[vendor] } : undefined);
      if (parsed.success && parsed.data) (settings as Record<string, unknown>)[vendor] = parsed.data;
    }
    return settings;
  }

  /** A retry waits base × 2^(tries − 1). */
  const backoffMs = (attempts: number) => config.CONVERSION_RETRY_BASE_SECONDS * 1000 * 2 ** Math.max(0, attempts - 1);

  return {
    /** Deliveries waiting to be sent and the oldest one's age, for the operations figures. */
    backlog: async () => (await outboxBacklog.first(db, {}))!,
    /**
     * Called by orders in the transaction that marks the order paid; a second call for the same order does nothing.
     * Raw SQL, one statement when no vendor is to be told (the common case): it runs for every paid notification
     * (bench/notifications).
     */
    async recordPurchase(tx: Tx, order: Order): Promise<void> {
      const rows = await recordPurchaseConversion.rows(tx, order);
      // recorded before, or the visitor did not allow advertising: no vendor is told
      if (!rows.length) return;
      const [{ id, channel_id: channelCode }] = rows;
      const settings = await settingsOf(tx, channelCode);
      const context = rows[0].context ?? {};
      const vendors = SERVER_CONVERSION_VENDORS.filter((v) => settings[v] && senders[v].applies(context));
      if (!vendors.length) return;
      await tx.conversionDelivery.createMany({ data: vendors.map((vendor) => ({ conversionId: id, vendor, context: context as Prisma.InputJsonObject })) });
    },

    /** Sends every delivery that is due; returns how many were attempted. Safe to run from several processes at once. */
    async deliverDue(now = new Date()): Promise<number> {
      const lease = new Date(now.getTime() + (config.CONVERSION_TIMEOUT_SECONDS + 60) * 1000);
      // claiming moves next_attempt_at past the call's time-out, so no other process takes the same row meanwhile
      const claimed = await claimDueDeliveries.rows(db, { now, lease, limit: BATCH });
      for (const { id } of claimed) {
        const d = await db.conversionDelivery.findUniqueOrThrow({ where: { id }, include: { conversion: true } });
        const vendor = d.vendor as ServerConversionVendor;
        try {
          const settings = (await settingsOf(db, d.conversion.channelId))[vendor];
          if (!settings || !senders[vendor]) throw new Error(`${vendor} is no longer configured for this channel`);
          const c = d.conversion;
          await (senders[vendor] as ConversionSender).send(
            {
              eventId: c.eventId,
              orderId: c.orderId,
              occurredAt: c.createdAt,
              value: minorToDecimal(c.valueMinor, c.currency),
              currency: c.currency,
              context: d.context as DeliveryContext,
            },
            settings as never,
            http,
          );
          await db.conversionDelivery.update({ where: { id }, data: { status: SENT, sentAt: new Date(), lastError: null } });
        } catch (err) {
          const message = (err as Error).message.slice(0, 500);
          const giveUp = d.attempts > config.CONVERSION_RETRY_LIMIT;
          await db.conversionDelivery.update({
            where: { id },
            data: giveUp ? { status: FAILED, lastError: message } : { lastError: message, nextAttemptAt: new Date(Date.now() + backoffMs(d.attempts)) },
          });
          log.warn(
            { delivery: id, vendor, attempts: d.attempts, err: message },
            giveUp ? "conversion delivery failed for good" : "conversion delivery failed; will retry",
          );
        }
      }
      return claimed.length;
    },
  };
}

export type ConversionsService = ReturnType<typeof createConversionsService>;
