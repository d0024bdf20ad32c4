import type { Logger } from "pino";
import type { Config } from "../../../../config.ts";
import { ProviderUnavailable } from "../provider.ts";

const LIVE_API = "https://api-m.paypal.com";
const SANDBOX_API = "https://api-m.sandbox.paypal.com";
const REQUEST_TIMEOUT_MS = 20_000;
/** Renew the OAuth token this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;

/** PayPal's API base: PAYPAL_API_BASE, else live in production and PayPal's sandbox elsewhere. */
function paypalApiBase(config: Config): string {
  return (config.PAYPAL_API_BASE ?? (config.NODE_ENV === "production" ? LIVE_API : SANDBOX_API)).replace(/\/$/, "");
}

/** An authenticated JSON call; `body` may be a ready string so that bytes PayPal must verify are not re-serialised. */
export type PaypalApi = <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; data: T }>;

/** PayPal's REST API with OAuth client credentials: the token is kept until shortly before it expires, or PayPal refuses it. */
export function createPaypalApi(config: Config, log: Logger): PaypalApi {
  const base = paypalApiBase(config);
  let token: { value: string; expiresAt: number } | undefined;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    const basic = Buffer.from(`${config.PAYPAL_CLIENT_ID}:${config.PAYPAL_CLIENT_SECRET}`).toString("base64");
    const res = await send("/v1/oauth2/token", {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!res.ok || !body.access_token) throw new ProviderUnavailable(`paypal token request answered ${res.status}`);
    token = { value: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 0) * 1000 - TOKEN_MARGIN_MS };
    return token.value;
  }

  async function send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (err) {
      log.warn({ err, path }, "paypal unreachable");
      throw new ProviderUnavailable(`paypal ${path} unreachable`);
    }
  }

  return async function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; data: T }> {
    const res = await send(path, {
      method,
      headers: { authorization: `Bearer ${await accessToken()}`, "content-type": "application/json", prefer: "return=representation", ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const data = (await res.json().catch(() => ({}))) as T;
    if (res.status === 401) token = undefined;
    if (res.status >= 500 || res.status === 401) throw new ProviderUnavailable(`paypal ${method} ${path} answered ${res.status}`);
    return { status: res.status, data };
  };
}
