import type { Db, Tx } from "../../db/client.ts";
import { Prisma } from "../../db/generated/client.ts";
import { matching, type ListParams } from "../../db/paging.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { auditedTable, byId } from "../audit/audited-table.ts";
import { DEFAULT_CHANNEL, PIXEL_FLAGS } from "../../contract/pixels.ts";
import { idsOnly, type ChannelSecrets } from "./channel-secrets.ts";
import { lockChannelConversions } from "./pixels.queries.ts";
import {
  checkoutContext,
  CHECKOUT_EVENT,
  KIND_FLAG,
  type ChannelBody,
  type ChannelFilter,
  type PixelEventBody,
  type PixelIdBody,
  type PixelIdFilter,
} from "./pixels.schema.ts";

/** A JSON column is cleared with DbNull, not null. */
function channelData<B extends Partial<ChannelBody>>(body: B) {
  const { serverConversions, ...rest } = body;
  if (serverConversions === undefined) return rest;
  return { ...rest, serverConversions: serverConversions === null ? Prisma.DbNull : (serverConversions as Prisma.InputJsonObject) };
}

/** What staff and the audit log see of a channel: never a token, even one an older version left in the row. */
function withoutSecrets<R extends { serverConversions?: Prisma.JsonValue | null }>(row: R): R {
  return row.serverConversions ? { ...row, serverConversions: idsOnly(row.serverConversions) } : row;
}

/**
 * Ad pixels per channel: marketers switch them and set their ids in the console; the consumer app reads
 * the same rows through getpixeLState / pixelList, so what staff change is what visitors get.
 */
export function createPixelsService(db: Db, audit: AuditService, secrets: ChannelSecrets, opts: { scriptBaseUrl?: string } = {}) {
  const channels = auditedTable(db, audit, { resource: "Channel", table: (c) => c.channel, key: byId, idOf: (r) => r.id, redact: withoutSecrets });
  const pixelIds = auditedTable(db, audit, { resource: "PixelId", table: (c) => c.pixelId, key: byId, idOf: (r) => r.id });

  async function channelFor(code: string | undefined) {
    const found = code ? await db.channel.findUnique({ where: { code } }) : null;
    return found ?? db.channel.findUnique({ where: { code: DEFAULT_CHANNEL } });
  }

  return {
    /** SPEC.md §7 getpixeLState: the eight switches, each 0 or 1. Without any channel row every pixel is off. */
    async switchState(channelCode: string | undefined): Promise<Record<string, 0 | 1>> {
      const channel = await channelFor(channelCode);
      return Object.fromEntries(PIXEL_FLAGS.map(([column, name]) => [name, channel?.[column] === 1 ? 1 : 0]));
    },

    /** SPEC.md §7 pixelList: the ids (or domains) of one kind for the channel, empty while that kind is switched off. */
    async pixelList(type: number, channelCode: string | undefined, event: string | undefined): Promise<string[]> {
      const channel = await channelFor(channelCode);
      if (channel?.[KIND_FLAG[type]] !== 1) return [];
      const rows = await db.pixelId.findMany({
        where: { channelId: channel.id, kind: type, ...(event ? { event } : {}) },
        orderBy: { id: "asc" },
        select: { value: true },
      });
      return [...new Set(rows.map((r) => r.value))];
    },

    /** Where the browser fetches vendor scripts: the official hosts, unless tests point it at a local fake. */
    clientConfig: () => ({ script_base_url: opts.scriptBaseUrl ?? null }),

    async recordEvent(
      userId: number | null,
      headerChannel: string | undefined,
      body: PixelEventBody,
      client: { ip?: string; userAgent?: string } = {},
    ): Promise<{ id: number }> {
      const { event, channel_id, ...payload } = body;
      // the checkout step carries what the server's own purchase conversion will need (docs/decisions/121)
      if (event === CHECKOUT_EVENT) {
        const context = checkoutContext.safeParse(payload.context ?? {});
        payload.context = { ...(context.success ? context.data : {}), client_ip: client.ip ?? null, user_agent: client.userAgent?.slice(0, 500) ?? null };
      }
      const row = await db.pixelEvent.create({
        data: { userId, channelId: channel_id ?? headerChannel ?? null, event, payload: payload as Prisma.InputJsonObject },
        select: { id: true },
      });
      return row;
    },

    listChannels: async (params: ListParams<ChannelFilter>) => {
      const f = params.filter;
      const page = await channels.list(params, {
        ...matching(f, ["code"]),
        ...(f.q ? { OR: [{ code: { contains: f.q, mode: "insensitive" } }, { name: { contains: f.q, mode: "insensitive" } }] } : {}),
      });
      return { ...page, rows: page.rows.map(withoutSecrets) };
    },
    getChannel: async (id: number) => {
      const row = await channels.get(id);
      return row && withoutSecrets(row);
    },
    createChannel: async (staffId: number, body: ChannelBody) => withoutSecrets(await channels.create(staffId, channelData(body))),
    updateChannel: async (staffId: number, id: number, body: Partial<ChannelBody>) => withoutSecrets(await channels.update(staffId, id, channelData(body))),
    removeChannel: async (staffId: number, id: number) => withoutSecrets(await channels.remove(staffId, id)),
    /** Conversion API tokens: set or cleared by admins, shown as "set / last 4" only (docs/decisions/191). */
    channelSecretStatus: secrets.status,
    setChannelSecret: secrets.set,
    sealLegacyTokens: secrets.sealLegacyTokens,

    listPixelIds: (params: ListParams<PixelIdFilter>) => pixelIds.list(params, matching(params.filter, ["channelId", "kind", "event"])),
    getPixelId: pixelIds.get,
    createPixelId: (staffId: number, body: PixelIdBody) => pixelIds.create(staffId, body),
    /** Channel ids by code, for a list that names channels by code (a spreadsheet of pixel ids). */
    async channelIdsByCode(codes: string[], c: Db | Tx = db): Promise<Map<string, number>> {
      const rows = await c.channel.findMany({ where: { code: { in: codes } }, select: { id: true, code: true } });
      return new Map(rows.map((r) => [r.code, r.id]));
    },
    /**
     * Adds each pixel id in `tx` (audited) unless its channel has it already; answers how many were added. The
     * channels' rows are locked first, in id order, so two imports of the same list at once add each id once.
     */
    async addPixelIdsOnce(staffId: number, bodies: PixelIdBody[], tx: Tx): Promise<number> {
      for (const id of [...new Set(bodies.map((b) => b.channelId))].sort((a, b) => a - b)) await lockChannelConversions.rows(tx, { id });
      let added = 0;
      for (const body of bodies) {
        if (await tx.pixelId.findFirst({ where: body, select: { id: true } })) continue;
        await pixelIds.create(staffId, body, tx);
        added++;
      }
      return added;
    },
    updatePixelId: (staffId: number, id: number, body: Partial<PixelIdBody>) => pixelIds.update(staffId, id, body),
    removePixelId: pixelIds.remove,
  };
}

export type PixelsService = ReturnType<typeof createPixelsService>;
