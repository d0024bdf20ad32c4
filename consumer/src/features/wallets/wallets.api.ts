import { api, type ApiData } from "../../lib/api-client.ts";
import type { TonTransfer } from "../../../../server/src/contract/wallets.ts";

export type { TonTransfer };

/** SPEC.md §4 "Wallet: connected or not" (GET /api/wallet/current). */
export type WalletState = ApiData<"/api/wallet/current", "get">;

export type WalletOrder = ApiData<"/api/OrderJpay/createOrder", "post">;

/** The account and ton_proof reply TON Connect gives after the wallet connected, as the server checks them. */
export interface WalletProof {
  address: string;
  chain: string;
  public_key?: string;
  wallet_state_init: string;
  proof: { timestamp: number; domain: { lengthBytes: number; value: string }; payload: string; signature: string };
}

export const walletsApi = {
  current: () => api.get("/api/wallet/current", { quiet: true }),
  proofPayload: async () => (await api.post("/api/wallet/tonProofPayload", {}, { quiet: true })).payload,
  connect: (proof: WalletProof) => api.post("/api/wallet/connect", proof, { quiet: true }),
  disconnect: () => api.post("/api/wallet/disconnect", {}, { quiet: true }),
  createOrder: (productId: number) => api.post("/api/OrderJpay/createOrder", { product_id: productId, agree_terms: true }, { quiet: true }),
  orderPay: (orderNo: string, boc?: string) => api.post("/api/OrderJpay/orderPay", { order_no: orderNo, boc }, { quiet: true }),
};
