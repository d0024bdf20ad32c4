import type { ApiRouter } from "../server/src/http/api.ts";
import type { Db } from "../server/src/db/client.ts";
import type { Services } from "../server/src/services.ts";
import { seedProducts } from "../server/src/domains/products/products.seed.ts";
import { photo } from "./fixtures/media.ts";

/**
 * Issue 29: every state-changing route a creator, fan or guest can reach, each with one request that the same account
 * sends many times at once. The routes come from the API router's own table, so a route added later and missing here
 * fails the test (tests/api/state-changing-burst.test.ts) until it is given a request; the bench
 * (bench/burst.bench.ts) sends the same bursts beside ordinary clients.
 */

/** Who sends a route's burst: one of the three accounts, or nobody signed in. */
export type Sender = "guest" | "fan" | "creator" | "nobody";

export interface BurstCall {
  as: Sender;
  /** the path with its parameters filled, when it has any */
  path?: string;
  body?: object;
  /** a multipart upload: this file as `file`, with `consent` = 1 */
  file?: Buffer;
  /**
   * Where this setup leaves no success possible (a back end not configured, a made-up token, a limit an earlier burst
   * spent), the only statuses its answers may have. Otherwise at least one answer succeeds and none is a 503.
   */
  refused?: readonly number[];
  /** Exactly one answer of the burst succeeds: the first changes something, the repeats find it changed. */
  once?: true;
}

/** The accounts and the objects their requests name, made once through the API before the bursts. */
export interface Scene {
  base: string;
  db: Db;
  tokens: Record<Exclude<Sender, "nobody">, string>;
  fanId: number;
  creatorId: number;
  homeLink: string;
  pageId: number;
  modelId: number;
  taskId: number;
  uploadId: number;
  requests: { pending: number; accepted: number; delivered: number };
  conversationId: number;
  productId: number;
  orderId: number;
  sandboxSession: string;
  image: Buffer;
}

/** `METHOD /path` of every state-changing route outside the console's API, as the router declared it. */
export function stateChangingRoutes(api: ApiRouter): string[] {
  return api.registry.definitions.flatMap((d) =>
    d.type === "route" && d.route.method !== "get" && !d.route.path.startsWith("/admin/") ? [`${d.route.method.toUpperCase()} ${d.route.path}`] : [],
  );
}

/** A finished text-to-image task, as the creator's delivery and library item name one. */
const FINISHED_PICTURE = { mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {} } as const;
const CARD = { name: "Mira", description: "A 29-year-old keeper", personality: "Calm", greeting: "Welcome.", tags: ["Mystery"], age: 29 };
const key = "burst-same-key-1";

/**
 * One request per route, in the order the bursts run: what a burst ends (a logout, a deletion) comes after what needs
 * it. Each burst repeats its request exactly, keys included, as a double-clicking or scripted client would.
 */
export const BURSTS: [string, (s: Scene) => BurstCall | Promise<BurstCall>][] = [
  ["POST /api/login/visitor", () => ({ as: "nobody" })],
  ["POST /api/login/sendEmailCode", () => ({ as: "nobody", body: { email: "burst@example.com" }, once: true })],
  // refused: a made-up code
  ["POST /api/login/emailLogin", () => ({ as: "nobody", body: { email: "burst@example.com", code: "0000" }, refused: [400, 429] })],
  // refused: Google sign-in is not configured
  ["POST /api/login/googleLogin", () => ({ as: "nobody", body: { id_token: "not-a-token" }, refused: [503] })],
  // refused: no messaging channel is configured
  ["POST /api/OrderJpay/channelServerLogin", () => ({ as: "nobody", body: { channel_token: "not-a-token" }, refused: [503] })],
  ["POST /api/Personal/user_update", () => ({ as: "fan", body: { nickname: "Burst", language: "en" } })],
  ["POST /api/Personal/uploadUserInfo", () => ({ as: "fan", body: { nickname: "Burst" } })],
  ["POST /api/ImageUpload/upload", (s) => ({ as: "fan", file: s.image })],
  ["POST /api/ImageUpload/upload2", (s) => ({ as: "fan", file: s.image })],
  // refused: a photo has no video
  ["POST /api/ImageUpload/videoFromMedia", (s) => ({ as: "fan", file: s.image, refused: [400, 429] })],
  // refused: a photo has no sound
  ["POST /api/ImageUpload/audioFromMedia", (s) => ({ as: "fan", file: s.image, refused: [400, 429] })],
  // refused: the request names no upload_type
  ["POST /api/Fileuploads/upload", (s) => ({ as: "fan", file: s.image, refused: [400, 429] })],
  ["POST /api/Generation/picVideoSubmit", (s) => ({ as: "fan", body: { image_id: s.uploadId, prompt: "waves" } })],
  // refused: the model has no trained weights
  ["POST /api/Generation/roleVideoSubmit", (s) => ({ as: "creator", body: { role_id: s.modelId, prompt: "waves" }, refused: [400] })],
  ["POST /api/Generation/textVideoSubmit", () => ({ as: "fan", body: { prompt: "a lighthouse" } })],
  ["POST /api/Generation/textPicSubmit", () => ({ as: "fan", body: { prompt: "a lighthouse" } })],
  ["POST /api/Generation/generativeModel", () => ({ as: "guest", body: { prompt: "a lighthouse" }, once: true })],
  ["POST /api/Generation/imageBatchModel", () => ({ as: "fan", body: { prompt: "a lighthouse" } })],
  ["POST /api/Generation/getDurationPoints", () => ({ as: "nobody", body: { duration: 5 } })],
  ["POST /api/Generation/followUpPoints", (s) => ({ as: "creator", body: { source_id: s.taskId, kind: "upscale" } })],
  // refused: the task is a local draft; only the AI engine's results are extended
  ["POST /api/Generation/followUpSubmit", (s) => ({ as: "creator", body: { source_id: s.taskId, kind: "upscale" }, refused: [503] })],
  ["POST /api/Generation/setPublic", (s) => ({ as: "creator", body: { id: s.taskId, public: 1 } })],
  ["POST /api/Gallery/like", (s) => ({ as: "fan", body: { id: s.taskId } })],
  ["POST /api/Gallery/unlike", (s) => ({ as: "fan", body: { id: s.taskId } })],
  // refused: no trainer is configured
  ["POST /api/Training/selfie", () => ({ as: "creator", body: { frames: ["data:image/png;base64,AAAA", "data:image/png;base64,AAAA"] }, refused: [503] })],
  // refused: no trainer is configured
  ["POST /api/Training/checkPhoto", (s) => ({ as: "fan", body: { selfie_id: "00000000-0000-4000-8000-000000000000", upload_id: s.uploadId }, refused: [503] })],
  [
    "POST /api/Training/submit",
    (s) => ({
      as: "fan",
      body: { name: "Twin", cover_id: s.uploadId, photo_ids: Array(10).fill(s.uploadId), selfie_id: "00000000-0000-4000-8000-000000000000" },
      // refused: the request names no home link
      refused: [400],
    }),
  ],
  // refused: the model finished training
  ["POST /api/Training/cancel", (s) => ({ as: "creator", body: { id: s.modelId }, refused: [409] })],
  // refused: no trainer is configured
  [
    "POST /api/Training/webhook/{trainer}",
    () => ({ as: "nobody", path: "/api/Training/webhook/replicate", body: { id: "x", status: "succeeded" }, refused: [404] }),
  ],
  ["POST /api/order/createOrderAndPay", (s) => ({ as: "fan", body: { product_id: s.productId, agree_terms: true } })],
  ["POST /api/Order/orderActionLog", (s) => ({ as: "fan", body: { order_id: s.orderId, pixel_id: "px-1" } })],
  // refused: createOrderAndPay's burst spent the account's orders for the hour
  ["POST /api/order/createPagsmileRecurringPay", (s) => ({ as: "fan", body: { product_id: s.productId, agree_terms: true }, refused: [429] })],
  // refused: createOrderAndPay's burst spent the account's orders for the hour
  ["POST /api/order/createPagsmileSBPPayment", (s) => ({ as: "fan", body: { product_id: s.productId, agree_terms: true }, refused: [429] })],
  // refused: createOrderAndPay's burst spent the account's orders for the hour
  ["POST /api/order/createPagsmileSberPayPayment", (s) => ({ as: "fan", body: { product_id: s.productId, agree_terms: true }, refused: [429] })],
  // refused: createOrderAndPay's burst spent the account's orders for the hour
  ["POST /api/order/createPagsmileTPayPayment", (s) => ({ as: "fan", body: { product_id: s.productId, agree_terms: true }, refused: [429] })],
  // refused: Pagsmile is not configured
  ["POST /api/order/pagsmileNotify", () => ({ as: "nobody", body: { out_trade_no: "RV1", trade_status: "SUCCESS" }, refused: [503] })],
  // refused: createOrderAndPay's burst spent the account's orders for the hour
  ["POST /api/OrderStripe/createCheckoutSession", (s) => ({ as: "fan", body: { product_id: s.productId, agree_terms: true }, refused: [429] })],
  // refused: createOrderAndPay's burst spent the account's orders for the hour
  ["POST /api/order/createPaypalPay", (s) => ({ as: "fan", body: { product_id: s.productId, agree_terms: true }, refused: [429] })],
  // refused: a made-up PayPal order
  ["POST /api/order/capturePaypalOrder", () => ({ as: "fan", body: { session_id: "PAYPAL-1" }, refused: [404] })],
  // refused: createOrderAndPay's burst spent the account's orders for the hour
  ["POST /api/OrderJpay/createOrder", (s) => ({ as: "fan", body: { product_id: s.productId, agree_terms: true }, refused: [429] })],
  // refused: a made-up order number
  ["POST /api/OrderJpay/orderPay", () => ({ as: "fan", body: { order_no: "RV1", boc: "te6c" }, refused: [404] })],
  ["POST /api/order/queryPayment", (s) => ({ as: "fan", body: { order_id: s.orderId } })],
  ["POST /sandbox-pay/{sessionId}/3ds", (s) => ({ as: "nobody", path: `/sandbox-pay/${s.sandboxSession}/3ds` })],
  ["POST /sandbox-pay/{sessionId}/challenge", (s) => ({ as: "nobody", path: `/sandbox-pay/${s.sandboxSession}/challenge`, body: { result: "pass" } })],
  ["POST /sandbox-pay/{sessionId}/pay", (s) => ({ as: "nobody", path: `/sandbox-pay/${s.sandboxSession}/pay` })],
  ["POST /sandbox-pay/{sessionId}/decline", (s) => ({ as: "nobody", path: `/sandbox-pay/${s.sandboxSession}/decline` })],
  // refused: a made-up subscription
  [
    "POST /sandbox-pay/subscriptions/{subscriptionId}/renew",
    () => ({ as: "nobody", path: `/sandbox-pay/subscriptions/sbsub_${"0".repeat(24)}/renew`, refused: [404] }),
  ],
  // refused: an unsigned notification
  [
    "POST /api/pay/webhook/{provider}",
    () => ({ as: "nobody", path: "/api/pay/webhook/sandbox", body: { id: "evt", type: "checkout.completed" }, refused: [400] }),
  ],
  ["POST /api/wallet/tonProofPayload", () => ({ as: "fan" })],
  // refused: a made-up proof
  [
    "POST /api/wallet/connect",
    () => ({ as: "fan", body: { address: `0:${"a".repeat(64)}`, chain: "-239", public_key: "b".repeat(64), proof: {} }, refused: [400, 429] }),
  ],
  ["POST /api/wallet/disconnect", () => ({ as: "fan" })],
  ["POST /api/pixelcollect/add", () => ({ as: "guest", body: { event: "PageView" } })],
  ["POST /api/privacy/export", () => ({ as: "guest", once: true })],
  // refused: a guest has no email to send it to
  ["POST /api/privacy/deletion/code", () => ({ as: "guest", refused: [400] })],
  ["POST /api/privacy/deletion", () => ({ as: "guest", body: { confirm: true }, once: true })],
  ["POST /api/privacy/deletion/undo", () => ({ as: "guest", once: true })],
  ["POST /api/Subscribe/binding", (s) => ({ as: "fan", body: { home_link: s.homeLink, subscribe: 1 } })],
  // refused: the page is published already
  ["POST /api/Subscribe/publishPage", (s) => ({ as: "creator", body: { role_id: s.modelId, request_price: 100, membership_price: 50 }, refused: [409] })],
  // the creator has a page already: every tap of the burst is 'You already have a page', none a second page
  ["POST /api/Subscribe/createPage", () => ({ as: "creator", body: { home_link: "BurstPage", title: "Burst" }, refused: [409] })],
  ["POST /api/Subscribe/updatePage", () => ({ as: "creator", body: { bio: "Portraits on request" } })],
  ["POST /api/Subscribe/request", (s) => ({ as: "fan", body: { home_link: s.homeLink, text: "A portrait", idempotency_key: key } })],
  ["POST /api/Subscribe/acceptRequest", (s) => ({ as: "creator", body: { id: s.requests.pending }, once: true })],
  ["POST /api/Subscribe/declineRequest", (s) => ({ as: "creator", body: { id: s.requests.pending }, once: true })],
  ["POST /api/Subscribe/deliverRequest", (s) => ({ as: "creator", body: { id: s.requests.accepted, task_id: s.taskId }, once: true })],
  ["POST /api/Subscribe/rateRequest", (s) => ({ as: "fan", body: { id: s.requests.delivered, satisfied: 0 }, once: true })],
  ["POST /api/Subscribe/disputeRequest", (s) => ({ as: "fan", body: { id: s.requests.delivered, reason: "Not what I asked for" }, once: true })],
  ["POST /api/Subscribe/requestPayout", () => ({ as: "creator", body: { amount: 100, idempotency_key: key } })],
  ["POST /api/Subscribe/joinMembership", (s) => ({ as: "fan", body: { home_link: s.homeLink } })],
  // one tap's key: the burst is one tip, charged once
  ["POST /api/Subscribe/tip", (s) => ({ as: "fan", body: { home_link: s.homeLink, amount: 10, message: "Thank you", idempotency_key: key } })],
  ["POST /api/Subscribe/mediaPass", () => ({ as: "fan" })],
  ["POST /api/Subscribe/publishItem", (s) => ({ as: "creator", body: { task_id: s.taskId, visibility: "members" } })],
  // messages (docs/decisions/310), while the item is published and the fan a member: each burst is one message, one unlock
  ["POST /api/Messages/send", (s) => ({ as: "fan", body: { home_link: s.homeLink, body: "Hello", idempotency_key: key } })],
  ["POST /api/Messages/read", async (s) => ({ as: "fan", body: { thread_id: await threadOf(s) } })],
  [
    "POST /api/Messages/massSend",
    async (s) => ({ as: "creator", body: { body: "New set", library_item_id: await itemOf(s), price: 5, idempotency_key: key } }),
  ],
  [
    "POST /api/Messages/unlock",
    async (s) => ({
      as: "fan",
      body: { message_id: (await s.db.message.findFirst({ where: { price: { gt: 0 }, thread: { fanUserId: s.fanId } } }))?.id ?? 1 },
    }),
  ],
  ["POST /api/Messages/mediaPass", () => ({ as: "fan" })],
  ["POST /api/Messages/block", async (s) => ({ as: "fan", body: { thread_id: await threadOf(s), blocked: 1 } })],
  ["POST /api/Subscribe/unpublishItem", async (s) => ({ as: "creator", body: { id: await itemOf(s) }, once: true })],
  ["POST /api/Subscribe/cancelMembership", (s) => ({ as: "fan", body: { home_link: s.homeLink } })],
  // refused: the fan has no plan membership
  ["POST /api/membership/cancel", () => ({ as: "fan", refused: [404] })],
  // refused: the fan has no plan membership
  ["POST /api/membership/resume", () => ({ as: "fan", refused: [404] })],
  // the order was paid by the sandbox bursts above
  ["POST /api/order/emailReceipt", (s) => ({ as: "fan", body: { order_id: s.orderId } })],
  ["POST /api/RoleChat/creatCharacter", () => ({ as: "guest", body: CARD })],
  ["POST /api/RoleChat/generateCharacterInfo", () => ({ as: "fan", body: { idea: "a lighthouse keeper" } })],
  // refused: no AI image engine runs here (and then the hourly limit)
  ["POST /api/RoleChat/generateAvatar", () => ({ as: "fan", body: { ...CARD, idempotency_key: key }, refused: [429, 503] })],
  // refused: the task is no avatar draft
  ["POST /api/RoleChat/keepAvatar", (s) => ({ as: "fan", body: { task_id: s.taskId }, refused: [404] })],
  ["POST /api/RoleChat/creatConversation", async (s) => ({ as: "fan", body: { character_id: await characterOf(s) } })],
  ["POST /api/RoleChat/chat", (s) => ({ as: "fan", body: { conversation_id: s.conversationId, content: "Hello there", idempotency_key: key } })],
  ["POST /api/RoleChat/regenerate", (s) => ({ as: "fan", body: { conversation_id: s.conversationId } })],
  ["POST /api/RoleChat/editMessage", (s) => ({ as: "fan", body: { conversation_id: s.conversationId, content: "Hello again" } })],
  ["POST /api/RoleChat/requestMedia", (s) => ({ as: "fan", body: { conversation_id: s.conversationId, kind: "image", idempotency_key: key } })],
  // refused: no reply of this set-up offered a picture (no back end here takes tools), and then the hourly limit
  [
    "POST /api/RoleChat/acceptOffer",
    async (s) => ({
      as: "fan",
      body: { message_id: (await s.db.chatMessage.findFirst({ where: { conversationId: s.conversationId, role: "assistant" } }))?.id ?? 1 },
      refused: [404, 429],
    }),
  ],
  [
    "POST /api/RoleChat/stop",
    async (s) => ({
      as: "fan",
      body: { reply_id: (await s.db.chatMessage.findFirst({ where: { conversationId: s.conversationId }, orderBy: { id: "desc" } }))?.id ?? 1 },
    }),
  ],
  ["POST /api/RoleChat/deleteConversation", (s) => ({ as: "fan", body: { conversation_id: s.conversationId } })],
  ["POST /api/report", (s) => ({ as: "fan", body: { target_type: "creator_page", target_id: s.pageId, reason: "other" }, once: true })],
  // refused: the notice lacks the sworn statement
  [
    "POST /api/notices/report",
    (s) => ({ as: "nobody", body: { url: `${s.base}/${s.homeLink}`, reason: "copyright", email: "owner@example.com" }, refused: [400, 429] }),
  ],
  // changes nothing but its rate-limit counter: checked so a burst of checks of one file stays answered
  ["POST /api/provenance/check", (s) => ({ as: "nobody", file: s.image })],
  // refused: a made-up notice
  ["POST /api/notices/appeal", () => ({ as: "nobody", body: { id: 1, key: "0123456789abcdef", text: "Please look again at this." }, refused: [404, 429] })],
  ["POST /api/support/messages", (s) => ({ as: "fan", body: { body: "Where are my credits?", order_id: s.orderId } })],
  ["POST /api/support/read", () => ({ as: "fan" })],
  // one daily gift however many taps (docs/decisions/302); off unless staff set it, refused alike
  // refused: daily gifts are off
  ["POST /api/rewards/checkIn", () => ({ as: "fan", body: {}, refused: [409] })],
  // the bell (docs/decisions/312): marking read twice is marking read; the creator's tip line, or a missing one (404)
  [
    "POST /api/notifications/read",
    async (s) => ({ as: "creator", body: { id: (await s.db.notification.findFirst({ where: { userId: s.creatorId } }))?.id ?? 1 } }),
  ],
  ["POST /api/notifications/readAll", () => ({ as: "creator", body: {} })],
  ["POST /api/notifications/settings", () => ({ as: "fan", body: { email_digest: true } })],
  // refused: a made-up signature
  ["POST /api/notifications/unsubscribe", (s) => ({ as: "nobody", body: { token: `${s.fanId}.not-a-signature` }, refused: [400] })],
  ["POST /api/Generation/deleteTask", (s) => ({ as: "creator", body: { id: s.taskId } })],
  ["POST /api/Training/revoke", (s) => ({ as: "creator", body: { id: s.modelId } })],
  ["POST /api/login/logout", () => ({ as: "guest" })],
];

/** The first item of the creator's library (1 when there is none: the request is then refused, never a 500). */
const itemOf = async (s: Scene) => (await s.db.creatorLibraryItem.findFirst({ where: { creatorPageId: s.pageId } }))?.id ?? 1;
/** The fan's thread with the creator's page. */
const threadOf = async (s: Scene) => (await s.db.messageThread.findFirst({ where: { fanUserId: s.fanId } }))?.id ?? 1;

async function characterOf(s: Scene): Promise<number> {
  return (await s.db.character.findFirstOrThrow({ where: { userId: s.fanId }, select: { id: true } })).id;
}

/** Sends `call` once; any answer counts, with its status, the envelope's code when there is one, and how long it took. */
export async function send(s: Scene, route: string, call: BurstCall): Promise<{ status: number; code?: number; msg?: string; ms: number }> {
  const [method, declared] = route.split(" ") as [string, string];
  const headers: Record<string, string> = call.as === "nobody" ? {} : { token: s.tokens[call.as] };
  let body: FormData | string | undefined;
  if (call.file) {
    body = new FormData();
    body.append("consent", "1");
    body.append("file", new Blob([new Uint8Array(call.file)], { type: "image/jpeg" }), "p.jpg");
  } else if (call.body) {
    body = JSON.stringify(call.body);
    headers["content-type"] = "application/json";
  }
  const started = performance.now();
  const res = await fetch(`${s.base}${call.path ?? declared}`, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  const ms = performance.now() - started;
  let envelope: { code?: number; msg?: string } = {};
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    // an HTML page, a redirect or an event stream: no envelope
  }
  return { status: res.status, code: envelope.code, msg: envelope.msg, ms };
}

async function postJson(base: string, path: string, token: string, body: object) {
  const res = await fetch(`${base}${path}`, { method: "POST", headers: { token, "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json()) as { code: number; msg: string; data: any };
  if (json.code !== 200) throw new Error(`${path}: ${json.code} ${json.msg}`);
  return json.data;
}

async function guest(base: string): Promise<{ token: string; userId: number }> {
  const res = (await (await fetch(`${base}/api/login/visitor`, { method: "POST" })).json()) as { data: { token: string; user_info: { id: number } } };
  return { token: res.data.token, userId: res.data.user_info.id };
}

/**
 * The three accounts and what their requests name: the creator's published page with a finished character model and
 * a finished task, the fan's upload, credits, custom requests in three states, a conversation, and an unpaid order.
 */
export async function setScene(base: string, t: { db: Db; services: Pick<Services, "credits"> }): Promise<Scene> {
  const [g, fan, creator] = [await guest(base), await guest(base), await guest(base)];
  for (const who of [fan, creator])
    await t.db.user.update({ where: { id: who.userId }, data: { loginType: "registered", role: "user", email: `burst-${who.userId}@example.com` } });
  await t.services.credits.grant({ userId: fan.userId, amount: 100_000, reason: "test", idempotencyKey: `burst:${fan.userId}` });
  const image = await photo(320, 400);
  const s = { base, db: t.db, tokens: { guest: g.token, fan: fan.token, creator: creator.token }, fanId: fan.userId, creatorId: creator.userId, image };
  const uploadId = (await uploadFile(s as Scene, "fan")).id as number;
  const cover = (await uploadFile(s as Scene, "creator")).id as number;
  const homeLink = `Burst${creator.userId}`;
  const model = await t.db.characterModel.create({
    data: { userId: creator.userId, name: "Burst", homeLink, coverUploadId: cover, status: "success", cost: 5, triggerWord: "rvr" },
  });
  await postJson(base, "/api/Subscribe/publishPage", creator.token, { role_id: model.id, request_price: 100, membership_price: 50 });
  const page = await t.db.creatorPage.findUniqueOrThrow({ where: { userId: creator.userId } });
  const task = await t.db.generationTask.create({ data: { ...FINISHED_PICTURE, userId: creator.userId, outputKey: `media/${creator.userId}/out.jpg` } });
  const ask = async () =>
    (await postJson(base, "/api/Subscribe/request", fan.token, { home_link: homeLink, text: "A portrait", idempotency_key: `r-${Math.random()}` })).id;
  const requests = { pending: await ask(), accepted: await ask(), delivered: await ask() };
  for (const id of [requests.accepted, requests.delivered]) await postJson(base, "/api/Subscribe/acceptRequest", creator.token, { id });
  await postJson(base, "/api/Subscribe/deliverRequest", creator.token, { id: requests.delivered, task_id: task.id });
  const character = await postJson(base, "/api/RoleChat/creatCharacter", fan.token, CARD);
  const conversation = await postJson(base, "/api/RoleChat/creatConversation", fan.token, { character_id: character.id });
  await seedProducts(t.db);
  const product = await t.db.product.findFirstOrThrow({ where: { active: true, kind: "credits" }, orderBy: { id: "asc" } });
  const order = await postJson(base, "/api/order/createOrderAndPay", fan.token, { product_id: product.id, provider: "sandbox", agree_terms: true });
  return {
    ...s,
    homeLink,
    pageId: page.id,
    modelId: model.id,
    taskId: task.id,
    uploadId,
    requests,
    conversationId: conversation.conversation_id ?? conversation.id,
    productId: product.id,
    orderId: order.order_id,
    sandboxSession: String(order.pay_url).split("/").pop()!,
  };
}

async function uploadFile(s: Scene, as: "fan" | "creator") {
  const form = new FormData();
  form.append("consent", "1");
  form.append("file", new Blob([new Uint8Array(s.image)], { type: "image/jpeg" }), "p.jpg");
  const json = (await (await fetch(`${s.base}/api/ImageUpload/upload`, { method: "POST", headers: { token: s.tokens[as] }, body: form })).json()) as {
    data: { id: number };
  };
  return json.data;
}
