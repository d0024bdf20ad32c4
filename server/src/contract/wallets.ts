/** TON wallet words shared by the server and the consumer (docs/decisions/210, 211). Import-free (docs/decisions/050). */

/** TON Connect's chain ids (CHAIN.MAINNET / CHAIN.TESTNET in @tonconnect/sdk). */
export const TON_CHAINS = { mainnet: "-239", testnet: "-3" } as const;

/** What the buyer is told when a ton_proof is refused (forged, stale, another site's, a payload used before). */
export const WALLET_PROOF_REFUSED = "The wallet could not be verified, please connect it again";

/** The order a wallet payment is for does not exist, or is not the signed-in buyer's. */
export const WALLET_ORDER_UNKNOWN = "Please choose an order";

/** received_currency of a JPay order: what arrived is shown in TON. */
export const TON_CURRENCY = "TON";

/** What TON Connect's sendTransaction needs, and what the buyer is shown (docs/decisions/210). */
export interface TonTransfer {
  /** our receiving wallet, user-friendly */
  address: string;
  /** nanotons, as a decimal string (TON Connect's message amount) */
  amount: string;
  /** the same in TON, for people */
  amount_ton: string;
  /** the text comment that ties the transfer to the order */
  comment: string;
  /** base64 BOC of the comment cell (op 0 + the text), TON Connect's message payload */
  payload: string;
  /** unix seconds; TON Connect's validUntil */
  valid_until: number;
  /** TON Connect's chain id ("-239" mainnet, "-3" testnet) */
  network: string;
}
