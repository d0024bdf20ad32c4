import crypto from "node:crypto";
import { signNotification } from "../../server/src/domains/payments/providers/signature.ts";
import { photo } from "../fixtures/media.ts";

/** An answer of Reverie's API: its status, its JSON (`{code,msg,data}`), and the nginx request id it carried. */
export interface Answer {
  status: number;
  body: { code: number; msg: string; data: any };
}

/**
 * A person's browser, talking to one base URL (nginx, or an instance's own address): its own client address in
 * X-Forwarded-For (a different one per journey, so per-address limits of one journey never meet another's), its token.
 */
export class Browser {
  token = "";
  userId = 0;
  readonly ip: string;
  constructor(
    readonly base: string,
    ip?: string,
  ) {
    this.ip = ip ?? `10.${crypto.randomInt(1, 250)}.${crypto.randomInt(1, 250)}.${crypto.randomInt(1, 250)}`;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { "x-forwarded-for": this.ip, ...(this.token ? { token: this.token } : {}), ...extra };
  }

  async call(method: string, path: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: this.headers(body === undefined ? {} : { "content-type": "application/json" }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: Answer["body"];
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    }
    return { status: res.status, body: parsed };
  }

  /** Like `call`, failing unless the answer is 200. */
  async ok(method: string, path: string, body?: unknown): Promise<any> {
    const a = await this.call(method, path, body);
    if (a.status !== 200) throw new Error(`${method} ${path}: ${a.status} ${JSON.stringify(a.body)}`);
    return a.body.data;
  }

  /** A new guest account (POST /api/login/visitor), this browser's login from now on. */
  async guest(): Promise<this> {
    const data = await this.ok("POST", "/api/login/visitor");
    this.token = data.token;
    this.userId = data.user_info.id;
    return this;
  }

  async balance(): Promise<number> {
    return (await this.ok("GET", "/api/Personal/personal_info")).info.points as number;
  }

  /** A photo upload with the 18+/consent box ticked; answers its upload id. */
  async uploadPhoto(): Promise<number> {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await photo(640, 480))], { type: "image/jpeg" }), "me.jpg");
    form.append("consent", "1");
    const res = await fetch(`${this.base}/api/ImageUpload/upload`, { method: "POST", headers: this.headers(), body: form });
    const body = (await res.json()) as Answer["body"];
    if (res.status !== 200) throw new Error(`photo upload: ${res.status} ${JSON.stringify(body)}`);
    return body.data.id as number;
  }

  /** A sandbox checkout of a credit pack: answers the order as created (order_id, order_no, session_id). */
  order(productId: number): Promise<{ order_id: number; order_no: string; session_id: string }> {
    return this.ok("POST", "/api/order/createOrderAndPay", { product_id: productId, provider: "sandbox", agree_terms: true });
  }
}

/** The sandbox gateway's "payment succeeded" notification for an order, signed with the shared secret. */
export function paymentNotification(secret: string, o: { session_id: string; order_no: string }, amountMinor: number) {
  const body = JSON.stringify({
    id: `sbevt_${crypto.randomBytes(6).toString("hex")}`,
    type: "payment.succeeded",
    created: Math.floor(Date.now() / 1000),
    data: { session_id: o.session_id, order_no: o.order_no, amount: amountMinor, currency: "USD", status: "succeeded" },
  });
  return { body, signature: signNotification(secret, body) };
}

/** Delivers a notification to one address (nginx, or an instance's own) as the gateway does. */
export async function deliver(base: string, n: { body: string; signature: string }): Promise<Answer> {
  const res = await fetch(`${base}/api/pay/webhook/sandbox`, {
    method: "POST",
    headers: { "content-type": "application/json", "sandbox-signature": n.signature },
    body: n.body,
  });
  return { status: res.status, body: (await res.json()) as Answer["body"] };
}

export interface SseStream {
  /** each with the time it arrived (Date.now()) */
  events: { event: string; data: any; at: number }[];
  /** Resolves when the server ends the stream, with the time it ended. */
  ended: Promise<number>;
  close(): void;
}

/**
 * Opens a Server-Sent Events stream and collects its events until the server ends it (or `close`): a GET, or with
 * `body` a POST of it as JSON (a chat message, its reply streamed back).
 */
export async function openSse(url: string, headers: Record<string, string>, body?: unknown): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(
    url,
    body === undefined
      ? { headers, signal: controller.signal }
      : { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body), signal: controller.signal },
  );
  if (res.status !== 200 || !res.headers.get("content-type")?.includes("text/event-stream")) {
    throw new Error(`${url}: ${res.status} ${res.headers.get("content-type")} ${await res.text()}`);
  }
  const events: SseStream["events"] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, cut).split("\n");
          buffer = buffer.slice(cut + 2);
          const data = block.find((l) => l.startsWith("data: "));
          if (data) events.push({ event: block.find((l) => l.startsWith("event: "))?.slice(7) ?? "message", data: JSON.parse(data.slice(6)), at: Date.now() });
        }
      }
    } catch {
      // aborted by close()
    }
    return Date.now();
  })();
  return { events, ended, close: () => controller.abort() };
}
