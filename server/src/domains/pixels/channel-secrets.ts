import type { Logger } from "pino";
import { SERVER_CONVERSION_SECRET_FIELDS, SERVER_CONVERSION_VENDORS, type ServerConversionVendor } from "../../contract/pixels.ts";
import type { Db, Tx } from "../../db/client.ts";
import { Prisma } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { lockChannelConversions } from "./pixels.queries.ts";
import type { ChannelSecretBody } from "./pixels.schema.ts";
import { createSecretBox, keyFromSetting, type SecretBox } from "./secret-box.ts";

const NOT_CONFIGURED = "The secret store is not configured (SECRETS_KEY)";
/** Shorter tokens show nothing: four characters of an eight-character secret would be half of it. */
const SHOW_LAST4_FROM = 12;

const isSecret = (vendor: string, field: string) =>
  (SERVER_CONVERSION_SECRET_FIELDS[vendor as ServerConversionVendor] as readonly string[] | undefined)?.includes(field) === true;

/** A channel row's server_conversions without any token (older versions kept them there). */
export function idsOnly(json: unknown): Record<string, Record<string, unknown>> {
  if (!json || typeof json !== "object" || Array.isArray(json)) return {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const [vendor, fields] of Object.entries(json)) {
    if (!fields || typeof fields !== "object" || Array.isArray(fields)) continue;
    out[vendor] = Object.fromEntries(Object.entries(fields).filter(([k]) => !isSecret(vendor, k)));
  }
  return out;
}

function tokensIn(json: unknown): Array<{ vendor: ServerConversionVendor; field: string; value: string }> {
  if (!json || typeof json !== "object" || Array.isArray(json)) return [];
  return SERVER_CONVERSION_VENDORS.flatMap((vendor) => {
    const fields = (json as Record<string, unknown>)[vendor];
    if (!fields || typeof fields !== "object") return [];
    return SERVER_CONVERSION_SECRET_FIELDS[vendor].flatMap((field) => {
      const value = (fields as Record<string, unknown>)[field];
      return typeof value === "string" && value.trim() ? [{ vendor, field, value: value.trim() }] : [];
    });
  });
}

const context = (channelId: number, vendor: string, field: string) => `channel:${channelId}:${vendor}.${field}`;
const last4 = (value: string) => (value.length >= SHOW_LAST4_FROM ? value.slice(-4) : "");

/** Seals a token and stores it, replacing the one set before. */
async function upsert(box: SecretBox, tx: Tx, channelId: number, vendor: string, field: string, value: string, staffId: number | null) {
  const sealed = box.seal(value, context(channelId, vendor, field));
  await tx.channelSecret.upsert({
    where: { channelId_vendor_field: { channelId, vendor, field } },
    create: { channelId, vendor, field, sealed, last4: last4(value), updatedBy: staffId },
    update: { sealed, last4: last4(value), updatedBy: staffId },
  });
}

/**
 * Conversion API tokens per channel (docs/decisions/191), sealed with SECRETS_KEY in channel_secrets. Admins set
 * them; the console only ever learns whether each is set and its last four characters; only the conversion
 * sender opens them. Every change is audited without the value.
 */
export function createChannelSecrets(db: Db, audit: AuditService, keySetting: string | undefined) {
  const box = keySetting ? createSecretBox(keyFromSetting(keySetting)) : null;

  async function status(channelId: number) {
    const channel = await db.channel.findUnique({ where: { id: channelId }, select: { id: true } });
    if (!channel) throw HttpError.notFound();
    const rows = await db.channelSecret.findMany({ where: { channelId }, select: { vendor: true, field: true, last4: true, updatedAt: true } });
    return {
      configured: box !== null,
      secrets: SERVER_CONVERSION_VENDORS.flatMap((vendor) =>
        SERVER_CONVERSION_SECRET_FIELDS[vendor].map((field) => {
          const row = rows.find((r) => r.vendor === vendor && r.field === field);
          return { vendor, field, set: Boolean(row), last4: row?.last4 || null, updatedAt: row?.updatedAt ?? null };
        }),
      ),
    };
  }

  return {
    status,

    /** Sets or (value null) clears one token; answers the new status, never the token. */
    async set(staffId: number, channelId: number, body: ChannelSecretBody) {
      if (!box) throw new HttpError(503, NOT_CONFIGURED);
      await db.$transaction(async (tx) => {
        const channel = await tx.channel.findUnique({ where: { id: channelId }, select: { id: true } });
        if (!channel) throw HttpError.notFound();
        const where = { channelId_vendor_field: { channelId, vendor: body.vendor, field: body.field } };
        const before = await tx.channelSecret.findUnique({ where, select: { last4: true } });
        if (body.value === null) {
          if (before) await tx.channelSecret.delete({ where });
        } else {
          await upsert(box, tx, channelId, body.vendor, body.field, body.value, staffId);
        }
        await audit.record(tx, {
          staffId,
          action: body.value === null ? "clear_secret" : "set_secret",
          resource: "ChannelSecret",
          resourceId: channelId,
          before: { vendor: body.vendor, field: body.field, set: Boolean(before), last4: before?.last4 || null },
          after: { vendor: body.vendor, field: body.field, set: body.value !== null, last4: body.value === null ? null : last4(body.value) || null },
        });
      });
      return status(channelId);
    },

    /** The opened tokens of a channel by vendor, for the conversion sender only; none without the key. */
    async forSending(client: Db | Tx, channelId: number, log: Logger): Promise<Partial<Record<ServerConversionVendor, Record<string, string>>>> {
      if (!box) return {};
      const rows = await client.channelSecret.findMany({ where: { channelId } });
      const out: Partial<Record<ServerConversionVendor, Record<string, string>>> = {};
      for (const r of rows) {
        try {
          const vendor = r.vendor as ServerConversionVendor;
          (out[vendor] ??= {})[r.field] = box.open(r.sealed, context(channelId, r.vendor, r.field));
        } catch {
          // another key sealed it (SECRETS_KEY changed): that vendor is off until an admin sets the token again
          log.error({ channel: channelId, vendor: r.vendor, field: r.field }, "a conversion API token cannot be opened with SECRETS_KEY");
        }
      }
      return out;
    },

    /**
     * Moves tokens that older versions kept in channels.server_conversions into the store and strips them from the
     * row, one channel per transaction, audited (migration 0150 cannot: the database never sees the key). A token
     * already in the store wins over the old copy. Safe to run at every start and from several processes.
     */
    async sealLegacyTokens(log: Logger): Promise<number> {
      const channels = await db.channel.findMany({ where: { serverConversions: { not: Prisma.DbNull } }, select: { id: true, serverConversions: true } });
      const pending = channels.filter((c) => tokensIn(c.serverConversions).length > 0);
      if (!pending.length) return 0;
      if (!box) {
        log.warn({ channels: pending.map((c) => c.id) }, `conversion API tokens are still in channel rows and unused: ${NOT_CONFIGURED}`);
        return 0;
      }
      let moved = 0;
      for (const { id } of pending) {
        await db.$transaction(async (tx) => {
          const [row] = await lockChannelConversions.rows(tx, { id });
          const tokens = tokensIn(row?.server_conversions ?? null);
          if (!tokens.length) return;
          for (const t of tokens) {
            const stored = await tx.channelSecret.findUnique({
              where: { channelId_vendor_field: { channelId: id, vendor: t.vendor, field: t.field } },
              select: { id: true },
            });
            if (!stored) await upsert(box, tx, id, t.vendor, t.field, t.value, null);
          }
          await tx.channel.update({ where: { id }, data: { serverConversions: idsOnly(row.server_conversions) as Prisma.InputJsonObject } });
          await audit.record(tx, {
            staffId: null,
            action: "move_secrets",
            resource: "ChannelSecret",
            resourceId: id,
            after: { moved: tokens.map((t) => `${t.vendor}.${t.field}`) },
          });
          moved += tokens.length;
        });
      }
      log.info({ moved }, "conversion API tokens moved into the secret store");
      return moved;
    },
  };
}

export type ChannelSecrets = ReturnType<typeof createChannelSecrets>;
