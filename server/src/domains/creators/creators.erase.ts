import type { Tx } from "../../db/client.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { createCreatorBans } from "./creators.bans.ts";
import { settle } from "./creators.requests.ts";

/**
 * Account erasure (GDPR Art. 17, decision 262), the creators domain's part, in the erasure's transaction. It ends what
 * the account sells and buys as a ban does (fans refunded the unused period, the page's open requests declined and
 * their price returned), declines the account's own open requests as a fan (its held price returns to it), and takes
 * the page down for good: its text, links and library go and its home link is freed. The page row itself stays, since
 * payouts and disputes name it. Its cover is the creator's model's or creation's file, deleted with those; nothing here
 * owns a file, so the storage keys answered are none.
 */
export function createCreatorErasure(credits: Pick<CreditsService, "charge" | "refund" | "grant" | "chargeUpTo">) {
  const endDealings = createCreatorBans(credits);
  return async function eraseUser(tx: Tx, userId: number, now = new Date()): Promise<string[]> {
    await endDealings(tx, userId, now);
    const asFan = await tx.customRequest.findMany({ where: { fanUserId: userId, status: { in: ["pending", "accepted"] } }, select: { id: true } });
    for (const r of asFan) await settle(credits, tx, r.id, ["pending", "accepted"], "declined");
    await tx.customRequest.updateMany({ where: { fanUserId: userId }, data: { text: "", disputeReason: null } });
    await tx.subscription.deleteMany({ where: { userId } });
    const page = await tx.creatorPage.findUnique({ where: { userId }, select: { id: true } });
    if (!page) return [];
    await tx.creatorLibraryItem.deleteMany({ where: { creatorPageId: page.id } });
    await tx.creatorPage.update({
      where: { id: page.id },
      // "~" is outside the characters a home link may use, so the freed link can never be confused with a chosen one
      data: { state: "removed", homeLink: `~erased-${page.id}`, title: "", bio: "", avatarUrl: null, socialLinks: [], premiumOffer: null },
    });
    return [];
  };
}
