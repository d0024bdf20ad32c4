import type { Address } from "@ton/core";
import type { Logger } from "pino";
import type { Config } from "../../config.ts";

const REQUEST_TIMEOUT_MS = 10_000;

/** What the wallets domain asks the TON chain: the public key a wallet contract answers to `get_public_key`. */
export interface TonChain {
  /** The contract's key; null when it has none (not deployed, no such get-method, a failed call, an odd answer). */
  publicKey(address: Address): Promise<Buffer | null>;
}

/**
 * The TON chain through toncenter's v3 API (`TON_API_URL`, `X-API-Key` from `TON_API_KEY`): `POST /api/v3/runGetMethod`
 * with `{ address, method: "get_public_key", stack: [] }`, answered `{ gas_used, exit_code, stack: [{ type: "num",
 * value: "0x…" }] }` (docs/decisions/220). Every wallet contract (v3–v5 and the rest) exposes `get_public_key`.
 */
export function createTonChain(config: Config, log: Logger): TonChain {
  const base = config.TON_API_URL.replace(/\/$/, "");
  return {
    async publicKey(address) {
      let answer: { exit_code?: number; stack?: { type?: string; value?: string }[] } | null;
      try {
        const res = await fetch(`${base}/api/v3/runGetMethod`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(config.TON_API_KEY ? { "X-API-Key": config.TON_API_KEY } : {}) },
          body: JSON.stringify({ address: address.toRawString(), method: "get_public_key", stack: [] }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        answer = res.ok ? ((await res.json()) as typeof answer) : null;
        if (!res.ok) log.warn({ status: res.status }, "TON API refused get_public_key");
      } catch (err) {
        log.warn({ err }, "TON API unreachable for get_public_key");
        return null;
      }
      const top = answer?.stack?.[0];
      if (answer?.exit_code !== 0 || top?.type !== "num" || !/^(0x[0-9a-f]{1,64}|\d{1,78})$/i.test(top.value ?? "")) return null;
      const key = BigInt(top.value!);
      return key < 2n ** 256n ? Buffer.from(key.toString(16).padStart(64, "0"), "hex") : null;
    },
  };
}
