import { api } from "../../lib/api-client.ts";
import type { TonTransfer } from "../../../../server/src/contract/wallets.ts";

export type { TonTransfer };

/** SPEC.md §4 "Wallet: connected or not" (GET /api/wallet/current). */
export type WalletState = { connected: false } | { connected: true; address: string; display_address: string; chain: string; linked_at: string };

export interface WalletOrder {
  order_id: number;
  order_no: string;
  transfer: TonTransfer;
}

/** The account and ton_proof reply TON Connect gives after the wallet connected, as the server checks them. */
export interface WalletProof {
  address: string;
  chain: string;
  public_key?: string;
  wallet_state_init: string;
  proof: { timestamp: number; domain: { lengthBytes: number; value: string }; payload: string; signature: string };
}

export const walletsApi = {
  current: () => api.get<WalletState>("/api/wallet/current", { quiet: true }),
  proofPayload: async () => (await api.post<{ payload: string }>("/api/wallet/tonProofPayload", {}, { quiet: true })).payload,
  connect: (proof: WalletProof) => api.post<WalletState>("/api/wallet/connect", proof, { quiet: true }),
  disconnect: () => api.post<WalletState>("/api/wallet/disconnect", {}, { quiet: true }),
  createOrder: (productId: number) => api.post<WalletOrder>("/api/OrderJpay/createOrder", { product_id: productId, agree_terms: true }, { quiet: true }),
  orderPay: (orderNo: string, boc?: string) => api.post<{ order_status: string }>("/api/OrderJpay/orderPay", { order_no: orderNo, boc }, { quiet: true }),
};
