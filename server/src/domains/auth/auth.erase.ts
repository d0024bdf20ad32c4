import type { Db, Tx } from "../../db/client.ts";

/**
 * Account erasure (GDPR Art. 17, decision 262), auth's part, last in the erasure's transaction. The users row stays,
 * because the ledger and the orders the law makes us keep name it, but without anything that says who the person was:
 * names, email, Google subject, player id, attribution and photo (a sign-in's address and an upload's key alike).
 * Every login ends and its row (addresses, devices) goes, as do the codes and mails sent to the address. Ban marks stay
 * with moderation: they keep a banned person out.
 */
export function createAccountErasure(revokeUserSessions: (userId: number, tx: Tx | Db) => Promise<void>) {
  return async function eraseAccount(tx: Tx, userId: number): Promise<string[]> {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
    if (!user) return [];
    // the revocation tells every API instance's session cache at once; the rows then go
    await revokeUserSessions(userId, tx);
    await tx.session.deleteMany({ where: { userId } });
    if (user.email) {
      await tx.emailCode.deleteMany({ where: { email: user.email } });
      await tx.outboxEmail.deleteMany({ where: { to: user.email } });
    }
    await tx.user.update({
      where: { id: userId },
      data: {
        nickname: null,
        email: null,
        googleSub: null,
        photo: null,
        photoKey: null,
        title: null,
        channelId: null,
        utmCampaign: null,
        utmAdset: null,
        utmAd: null,
        bemobClickId: null,
        playerUid: null,
        paymentPermission: false,
        erasedAt: new Date(),
      },
    });
    return [];
  };
}
