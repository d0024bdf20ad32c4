import type { Db } from "../../db/client.ts";

/** The channel every visitor without a channel-id header belongs to. */
export async function seedChannels(db: Db): Promise<void> {
  await db.channel.upsert({ where: { code: "default" }, update: {}, create: { code: "default", name: "Direct" } });
}
