import { Address, Cell, beginCell } from "@ton/core";
import type { Logger } from "pino";
import type { Config } from "../../../config.ts";
import { TON_CURRENCY, type TonTransfer } from "../../../contract/wallets.ts";
import { exponent, isCurrency } from "../../../contract/currencies.ts";
import { InvalidNotification, ProviderUnavailable, type CheckoutRequest, type PaymentProvider, type PaymentUpdate } from "./provider.ts";

const REQUEST_TIMEOUT_MS = 20_000;
const NANO_PER_TON = 1_000_000_000n;
/** toncenter v3's largest page for transactions; a walk stops after MAX_PAGES (20,000 transactions of our address). */
const PAGE = 1000;
const MAX_PAGES = 20;
/** The wallet must send the transfer within this; TON Connect's sendTransaction `validUntil`. */
const SEND_WITHIN_SECONDS = 600;
/** The lookup starts this long before the order was opened, for clocks that disagree. */
const CLOCK_SLACK_SECONDS = 120;

export type JpayProvider = PaymentProvider & {
  /** What the wallet sends for this order (TON Connect sendTransaction), from its providerRef. */
  transferFor(providerRef: string): TonTransfer;
  /**
   * The sweep's lookup: one walk of our address's incoming transactions since the oldest of these orders, matched
   * against all of them; the update of every order something arrived for.
   */
  queryPayments(providerRefs: readonly string[]): Promise<PaymentUpdate[]>;
};

/** One transaction of toncenter's `GET /api/v3/transactions`, the fields read here. */
interface V3Transaction {
  account: string;
  hash: string;
  lt: string;
  now: number;
  description?: { aborted?: boolean };
  in_msg?: {
    hash?: string;
    source?: string | null;
    destination?: string | null;
    value?: string | null;
    bounced?: boolean | null;
    message_content?: { body?: string | null } | null;
  } | null;
}

/** The comment wallets show next to the transfer; the order number makes it unique. */
export function transferComment(orderNo: string): string {
  return `Reverie ${orderNo}`;
}

/** "4.16" for 4_160_000_000 nanotons. */
export function nanoToTon(nano: bigint): string {
  const whole = nano / NANO_PER_TON;
  const frac = (nano % NANO_PER_TON).toString().padStart(9, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : String(whole);
}

/** JPAY_TON_RATE "USD=0.32": the currency and the nanotons one unit of it costs. */
function parseRate(rate: string): { currency: string; nanoPerUnit: bigint } {
  const [currency, tons] = rate.split("=");
  const [whole, frac = ""] = tons.split(".");
  return { currency, nanoPerUnit: BigInt(whole) * NANO_PER_TON + BigInt(frac.padEnd(9, "0")) };
}

/** The comment of a plain-text transfer body (op 0 then the UTF-8 text, in snake cells); null for anything else. */
function commentOf(bodyBoc: string | null | undefined): string | null {
  if (!bodyBoc) return null;
  try {
    const s = Cell.fromBase64(bodyBoc).beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== 0) return null;
    return s.loadStringTail();
  } catch {
    return null;
  }
}

/**
 * The `providerRef` of a JPay order: the order number, the nanotons quoted and when (unix seconds). There is no
 * provider-side checkout to name: the quote is what a later lookup must find on chain, so it travels with the order.
 */
function refOf(orderNo: string, nano: bigint, since: number): string {
  return `${orderNo}:${nano}:${since}`;
}

function parseRef(ref: string): { orderNo: string; nano: bigint; since: number } | null {
  const m = /^([A-Z0-9]{1,64}):(\d{1,30}):(\d{1,12})$/.exec(ref);
  return m ? { orderNo: m[1], nano: BigInt(m[2]), since: Number(m[3]) } : null;
}

/**
 * JPay: payment from the buyer's own TON wallet through TON Connect (docs/decisions/210). There is no gateway and no
 * notification: the order quotes an amount in TON and a comment, the wallet sends it to our receiving address, and the
 * server credits the order only after it finds the transfer on chain through the TON HTTP API (toncenter v3
 * `GET /api/v3/transactions?account=…`): incoming to our address, not bounced, carrying the order's comment, and
 * adding up to at least the quote.
 */
export function createJpayProvider(config: Config, log: Logger): JpayProvider {
  const base = config.TON_API_URL.replace(/\/$/, "");
  const receiving = config.TON_RECEIVING_ADDRESS ? Address.parse(config.TON_RECEIVING_ADDRESS) : null;
  const rate = config.JPAY_TON_RATE ? parseRate(config.JPAY_TON_RATE) : null;
  const testOnly = config.TON_NETWORK === "testnet";

  function quote(req: CheckoutRequest): bigint {
    if (!rate || req.currency.toUpperCase() !== rate.currency) throw new ProviderUnavailable(`no TON rate for ${req.currency}`);
    const scale = 10n ** BigInt(exponent(req.currency));
    // rounded up: the buyer never pays less than the price
    return (BigInt(req.amountMinor) * rate.nanoPerUnit + scale - 1n) / scale;
  }

  /** One page of our address's transactions after `afterLt` (oldest first), since `since` (unix seconds). */
  async function page(since: number, afterLt: bigint | null): Promise<V3Transaction[]> {
    const url = new URL(`${base}/api/v3/transactions`);
    url.searchParams.set("account", receiving!.toRawString());
    url.searchParams.set("start_utime", String(Math.max(0, since - CLOCK_SLACK_SECONDS)));
    if (afterLt !== null) url.searchParams.set("start_lt", String(afterLt + 1n));
    url.searchParams.set("limit", String(PAGE));
    url.searchParams.set("sort", "asc");
    let res: Response;
    try {
      res = await fetch(url, { headers: config.TON_API_KEY ? { "X-API-Key": config.TON_API_KEY } : {}, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (err) {
      log.warn({ err }, "TON API unreachable");
      throw new ProviderUnavailable("TON API unreachable");
    }
    const data = (await res.json().catch(() => null)) as { transactions?: V3Transaction[]; error?: string } | null;
    if (!res.ok || !Array.isArray(data?.transactions)) {
      log.warn({ status: res.status, error: data?.error }, "TON API refused the transactions lookup");
      throw new ProviderUnavailable(`TON API answered ${res.status}`);
    }
    return data.transactions;
  }

  /**
   * Every transfer into our address since `since`, grouped by its comment: one walk, paged by logical time (each page
   * starts after the last one's lt, so transactions landing during the walk neither shift nor repeat a page). A
   * transfer counts when it is an internal message (it has a source) into our own wallet's transaction, was not bounced
   * back, the transaction was not aborted, and it carries a plain-text comment.
   */
  async function incoming(since: number): Promise<Map<string, V3Transaction[]>> {
    const byComment = new Map<string, V3Transaction[]>();
    let afterLt: bigint | null = null;
    for (let p = 0; p < MAX_PAGES; p++) {
      const list = await page(since, afterLt);
      for (const tx of list) {
        const m = tx.in_msg;
        if (!m?.source || !m.destination || m.bounced || tx.description?.aborted) continue;
        if (!safeEquals(tx.account, receiving!) || !safeEquals(m.destination, receiving!)) continue;
        if (!/^\d{1,30}$/.test(m.value ?? "")) continue;
        const comment = commentOf(m.message_content?.body)?.trim();
        if (comment) byComment.set(comment, [...(byComment.get(comment) ?? []), tx]);
      }
      if (list.length < PAGE || !/^\d{1,30}$/.test(list.at(-1)!.lt)) break;
      afterLt = BigInt(list.at(-1)!.lt);
    }
    return byComment;
  }

  /** What the chain says about one order: the transfers carrying its comment since it was opened, summed. */
  function updateOf(providerRef: string, transfers: Map<string, V3Transaction[]>): PaymentUpdate | null {
    const ref = parseRef(providerRef);
    if (!ref) return null;
    const txs = (transfers.get(transferComment(ref.orderNo)) ?? []).filter((tx) => tx.now >= ref.since - CLOCK_SLACK_SECONDS);
    if (txs.length === 0) return null;
    const nano = txs.reduce((sum, tx) => sum + BigInt(tx.in_msg!.value!), 0n);
    const full = nano >= ref.nano;
    return {
      // one event per total seen: a top-up that completes a short payment is a new fact, a repeated lookup is not
      eventId: `${ref.orderNo}:${nano}`,
      type: full ? "transfer.received" : "transfer.short",
      // credited only when everything quoted arrived; an over-payment is a full payment (the order shows what came)
      outcome: full ? "paid" : null,
      providerRef,
      orderNo: ref.orderNo,
      received: { amount: nanoToTon(nano), currency: TON_CURRENCY },
      payload: {
        quoted: ref.nano.toString(),
        received: nano.toString(),
        transactions: txs.map((tx) => ({ hash: tx.hash, lt: tx.lt, now: tx.now, value: tx.in_msg?.value, source: tx.in_msg?.source })),
      },
    };
  }

  function transferFor(providerRef: string): TonTransfer {
    const ref = parseRef(providerRef);
    if (!ref || !receiving) throw new ProviderUnavailable("not a JPay order");
    const comment = transferComment(ref.orderNo);
    return {
      address: receiving.toString({ bounceable: false, testOnly }),
      amount: ref.nano.toString(),
      amount_ton: nanoToTon(ref.nano),
      comment,
      payload: beginCell().storeUint(0, 32).storeStringTail(comment).endCell().toBoc().toString("base64"),
      valid_until: Math.floor(Date.now() / 1000) + SEND_WITHIN_SECONDS,
      network: testOnly ? "-3" : "-239",
    };
  }

  return {
    name: "jpay",
    // the receiving wallet's key never reaches the server (no hot wallet): staff return TON by hand (decision 220)
    returnedByHand: true,
    available: () => Boolean(receiving && rate),
    methods: () => ["checkout"],
    // the one currency JPAY_TON_RATE prices TON in
    currencies: () => (rate && isCurrency(rate.currency) ? [rate.currency] : []),
    transferFor,

    async createCheckout(req) {
      const ref = refOf(req.orderNo, quote(req), Math.floor(Date.now() / 1000));
      const t = transferFor(ref);
      // the ton:// transfer link any TON wallet opens, for a buyer without TON Connect
      return { providerRef: ref, payUrl: `ton://transfer/${t.address}?amount=${t.amount}&text=${encodeURIComponent(t.comment)}` };
    },

    // TON has no payment notifications: every credit comes from a lookup on chain (queryPayment)
    async parseNotification() {
      throw new InvalidNotification("JPay has no notifications");
    },

    async queryPayment(providerRef): Promise<PaymentUpdate | null> {
      const ref = parseRef(providerRef);
      if (!ref || !receiving) return null;
      return updateOf(providerRef, await incoming(ref.since));
    },

    async queryPayments(providerRefs) {
      const since = Math.min(...providerRefs.map((r) => parseRef(r)?.since ?? Infinity));
      if (!receiving || !Number.isFinite(since)) return [];
      const transfers = await incoming(since);
      return providerRefs.map((r) => updateOf(r, transfers)).filter((u): u is PaymentUpdate => u !== null);
    },
  };
}

/** The hex hash of the message a wallet returned from sendTransaction (a base64 BOC); null when it is not one. */
export function messageHash(boc: string): string | null {
  try {
    return Cell.fromBase64(boc).hash().toString("hex");
  } catch {
    return null;
  }
}

/** Address equality that treats an unparsable address as another address. */
function safeEquals(address: string, ours: Address): boolean {
  try {
    return Address.parse(address).equals(ours);
  } catch {
    return false;
  }
}
