import type { CreatorPage } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";
import { MESSAGE_MESSAGES as M } from "../../contract/messages.ts";
import { CREATOR_MESSAGES } from "../../contract/creators.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { holdLivePage } from "../creators/creators.page-hold.ts";
import { livePage } from "../creators/creators.pages.ts";
import type { MessageEvents } from "./messages.events.ts";
import { bumpThread, copyToMembers, insertMassMessage, insertMessage, openMemberThreads, openThread, threadSides } from "./messages.queries.ts";
import type { MassSendBody, SendBody } from "./messages.schema.ts";
import { sideOf, type Side } from "./messages.views.ts";

type Sides = NonNullable<Awaited<ReturnType<typeof threadSides.first>>>;

export interface SendDeps {
  db: Db;
  /** chat's text check (the rule set, then the moderation endpoint when one is set): the rule a text breaks, or null */
  checkText(text: string): Promise<string | null>;
  events: MessageEvents;
}

/** A message to write: the thread, who writes, and what (a fan's: text only). */
interface Outgoing {
  threadId: number;
  sender: Side;
  /** the account that writes it, and the account it reaches */
  from: number;
  to: number;
  body: string;
  libraryItemId: number | null;
  price: number;
  key: string;
}

/**
 * Sending (issue 32 item 6, docs/decisions/310): a fan's text to a page, a creator's text with an item of their own
 * library (perhaps locked behind a price) to one fan, or to all their members at once. Text passes the check chat and
 * tips pass; every send is keyed, so a retried or double-clicked one is one message.
 */
export function createSending({ db, checkText, events }: SendDeps) {
  async function checkContent(page: Pick<CreatorPage, "id">, body: string, itemId: number | undefined) {
    if (body && (await checkText(body))) throw HttpError.badRequest(MSG.chatRefused);
    if (itemId !== undefined && !(await db.creatorLibraryItem.count({ where: { id: itemId, creatorPageId: page.id } })))
      throw HttpError.badRequest(M.itemNotOnPage);
  }

  /**
   * Writes one message under the page's hold (a ban or takedown that committed first refuses it, one that comes later
   * finds it whole), counts it unread for the other side and tells their streams. A creator's message to a fan who
   * blocked them is refused, checked under the thread's lock, so a block that commits first always wins.
   */
  async function write(tx: Tx, pageId: number, o: Outgoing): Promise<number> {
    await holdLivePage(tx, pageId);
    const row = await insertMessage.first(tx, { ...o, libraryItemId: o.libraryItemId });
    // a retry: the message its key made first
    if (!row) return (await tx.message.findUniqueOrThrow({ where: { threadId_idempotencyKey: { threadId: o.threadId, idempotencyKey: o.key } } })).id;
    const [counts] = await bumpThread.rows(tx, { threadId: o.threadId, sender: o.sender, at: new Date() });
    if (o.sender === "creator" && counts.blocked) throw HttpError.forbidden(M.blocked);
    await events.delivered(tx, o.from, [
      { userId: o.to, threadId: o.threadId, messageId: row.id, unread: o.sender === "fan" ? counts.creator_unread : counts.fan_unread },
    ]);
    return row.id;
  }

  /** A fan's first message to a page (by its link): the thread is made on first use. */
  async function toPage(fanId: number, b: SendBody) {
    const page = await livePage(db, b.home_link!);
    if (page.userId === fanId) throw HttpError.badRequest(M.ownPage);
    if (b.library_item_id !== undefined || b.price) throw HttpError.badRequest(M.fanTextOnly);
    await checkContent(page, b.body, undefined);
    return db.$transaction(async (tx) => {
      const thread = await openThread.first(tx, { pageId: page.id, fanId });
      const o = {
        threadId: thread!.id,
        sender: "fan" as const,
        from: fanId,
        to: page.userId,
        body: b.body,
        libraryItemId: null,
        price: 0,
        key: b.idempotency_key,
      };
      return { threadId: o.threadId, messageId: await write(tx, page.id, o), as: "fan" as const };
    });
  }

  /** A message into a thread the caller is a side of. */
  async function toThread(userId: number, t: Sides, b: SendBody) {
    const as = sideOf(t, userId);
    if (as === "fan" && (b.library_item_id !== undefined || b.price)) throw HttpError.badRequest(M.fanTextOnly);
    if (as === "creator" && t.blocked) throw HttpError.forbidden(M.blocked);
    await checkContent({ id: t.creator_page_id }, b.body, b.library_item_id);
    const to = as === "fan" ? t.creator_user_id : t.fan_user_id;
    const o = { threadId: t.id, sender: as, from: userId, to, body: b.body, libraryItemId: b.library_item_id ?? null, price: b.price, key: b.idempotency_key };
    const messageId = await db.$transaction((tx) => write(tx, t.creator_page_id, o));
    return { threadId: t.id, messageId, as };
  }

  return {
    /** Sends one message; answers the thread, the message and the caller's side of the thread. */
    async send(userId: number, b: SendBody) {
      if (b.thread_id === undefined) return toPage(userId, b);
      const t = await threadSides.first(db, { threadId: b.thread_id, userId });
      if (!t) throw HttpError.notFound();
      return toThread(userId, t, b);
    },

    /**
     * The creator's message to every member of their page now, each a copy in the member's own thread (made where
     * missing), unlocked per fan when locked; fans who blocked the creator get none. Once per key.
     */
    async massSend(creatorId: number, b: MassSendBody) {
      const page = await db.creatorPage.findUnique({ where: { userId: creatorId } });
      if (!page) throw HttpError.notFound(CREATOR_MESSAGES.noPage);
      await checkContent(page, b.body, b.library_item_id);
      return db.$transaction(async (tx) => {
        await holdLivePage(tx, page.id);
        const content = { body: b.body, libraryItemId: b.library_item_id ?? null, price: b.price };
        const mass = await insertMassMessage.first(tx, { pageId: page.id, ...content, key: b.idempotency_key });
        if (!mass) {
          const first = await tx.massMessage.findUniqueOrThrow({
            where: { creatorPageId_idempotencyKey: { creatorPageId: page.id, idempotencyKey: b.idempotency_key } },
          });
          return { id: first.id, recipients: first.recipients };
        }
        const now = new Date();
        await openMemberThreads.rows(tx, { pageId: page.id, now });
        const copies = await copyToMembers.rows(tx, { pageId: page.id, massId: mass.id, ...content, now });
        if (!copies.length) throw HttpError.badRequest(M.noMembers);
        await tx.massMessage.update({ where: { id: mass.id }, data: { recipients: copies.length } });
        await events.delivered(
          tx,
          creatorId,
          copies.map((c) => ({ userId: c.fan_user_id, threadId: c.thread_id, messageId: c.message_id, unread: c.fan_unread })),
        );
        return { id: mass.id, recipients: copies.length };
      });
    },
  };
}
