import { z } from "zod";
import { WALLET_PROOF_REFUSED } from "../../contract/wallets.ts";

const refused = { error: WALLET_PROOF_REFUSED };

/**
 * What the consumer forwards from TON Connect after the wallet connected: the account (address, chain, walletStateInit,
 * publicKey) and the ton_proof reply. The specification sends the timestamp as a decimal string, the SDK as a number:
 * both are accepted (docs.ton.org, "How to authenticate users with ton_proof").
 */
export const connectWalletBody = z.object({
  address: z.string(refused).regex(/^-?\d{1,3}:[0-9a-fA-F]{64}$/, refused),
  chain: z.string(refused).regex(/^-?\d{1,4}$/, refused),
  public_key: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, refused)
    .optional(),
  wallet_state_init: z.string(refused).min(1, refused).max(8192, refused),
  proof: z.object(
    {
      timestamp: z.union(
        [
          z.number().int(),
          z
            .string()
            .regex(/^\d{1,12}$/)
            .transform(Number),
        ],
        refused,
      ),
      domain: z.object({ lengthBytes: z.number().int().min(0).max(255), value: z.string().max(255) }, refused),
      signature: z.string(refused).regex(/^[A-Za-z0-9+/=_-]{1,128}$/, refused),
      payload: z.string(refused).max(128, refused),
    },
    refused,
  ),
});

// What the routes answer (docs/decisions/229).

/** post /api/wallet/tonProofPayload */
export const tonProofPayloadAnswer = z.object({
  payload: z.string(),
  expires_at: z.date(),
});

/** The caller's wallet: connected or not (SPEC.md §4); `display_address` is the form wallets show. */
export const walletAnswer = z.union([
  z.object({ connected: z.literal(false) }),
  z.object({ connected: z.literal(true), address: z.string(), display_address: z.string(), chain: z.string(), linked_at: z.date() }),
]);

/** get /tonconnect-manifest.json */
export const tonConnectManifest = z.object({
  url: z.string(),
  name: z.string(),
  iconUrl: z.string(),
  termsOfUseUrl: z.string(),
});
