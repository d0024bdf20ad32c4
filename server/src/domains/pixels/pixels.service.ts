import type { Db } from "../../db/client.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { matching, type ListParams } from "../../db/paging.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { auditedTable, byId } from "../audit/audited-table.ts";
import { PIXEL_FLAGS } from "../../contract/pixels.ts";
import { KIND_FLAG, type ChannelBody, type ChannelFilter, type PixelEventBody, type PixelIdBody, type PixelIdFilter } from "./pixels.schema.ts";

/** Where a visitor without a channel-id header (or with an unknown one) belongs: the seeded "default" channel. */
const DEFAULT_CHANNEL = "default";

/**
 * Ad pixels per channel: marketers switch them and set their ids in the console; the consumer app reads
 * the same rows through getpixeLState / pixelList, so what staff change is what visitors get.
 */
export function createPixelsService(db: Db, audit: AuditService) {
  const channels = auditedTable(db, audit, { resource: "Channel", table: (c) => c.channel, key: byId, idOf: (r) => r.id });
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
      if (!channel || channel[KIND_FLAG[type]] !== 1) return [];
      const rows = await db.pixelId.findMany({ where: { channelId: channel.id, kind: type, ...(event ? { event } : {}) }, orderBy: { id: "asc" }, select: { value: true } });
      return [...new Set(rows.map((r) => r.value))];
    },

    async recordEvent(userId: number | null, headerChannel: string | undefined, body: PixelEventBody): Promise<{ id: number }> {
      const { event, channel_id, ...payload } = body;
      const row = await db.pixelEvent.create({
        data: { userId, channelId: channel_id ?? headerChannel ?? null, event, payload: payload as Prisma.InputJsonObject },
        select: { id: true },
      });
      return row;
    },

    listChannels: (params: ListParams<ChannelFilter>) => {
      const f = params.filter;
      return channels.list(params, {
        ...matching(f, ["code"]),
        ...(f.q ? { OR: [{ code: { contains: f.q, mode: "insensitive" } }, { name: { contains: f.q, mode: "insensitive" } }] } : {}),
      });
    },
    getChannel: channels.get,
    createChannel: (staffId: number, body: ChannelBody) => channels.create(staffId, body),
    updateChannel: (staffId: number, id: number, body: Partial<ChannelBody>) => channels.update(staffId, id, body),
    removeChannel: channels.remove,

    listPixelIds: (params: ListParams<PixelIdFilter>) => pixelIds.list(params, matching(params.filter, ["channelId", "kind", "event"])),
    getPixelId: pixelIds.get,
    createPixelId: (staffId: number, body: PixelIdBody) => pixelIds.create(staffId, body),
    updatePixelId: (staffId: number, id: number, body: Partial<PixelIdBody>) => pixelIds.update(staffId, id, body),
    removePixelId: pixelIds.remove,
  };
}

export type PixelsService = ReturnType<typeof createPixelsService>;
