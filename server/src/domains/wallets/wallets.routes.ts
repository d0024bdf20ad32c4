import type { ApiRouter } from "../../http/api.ts";
import type { Config } from "../../config.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import { walletAnswer, connectWalletBody, tonConnectManifest, tonProofPayloadAnswer } from "./wallets.schema.ts";
import type { WalletsService } from "./wallets.service.ts";

const PROOF_TRIES_PER_HOUR = 60;

export function walletsRoutes(api: ApiRouter, wallets: WalletsService, limiter: RateLimiter, config: Config) {
  const tags = ["wallets"];
  const proofLimit = limiter.perUser("ton-proof", PROOF_TRIES_PER_HOUR, 3600);

  // TON Connect reads the dApp's name and icon from this manifest; its URL's host is the domain wallets sign in ton_proof
  api.get(
    "/tonconnect-manifest.json",
    {
      summary: "The TON Connect app manifest (url, name, iconUrl)",
      tags,
      auth: "public",
      response: { kind: "plain", schema: tonConnectManifest, description: "The manifest" },
    },
    () => ({
      url: config.publicUrl,
      name: "Reverie",
      iconUrl: `${config.publicUrl}/icon-192.png`,
      termsOfUseUrl: `${config.publicUrl}/agreement#terms`,
    }),
  );

  api.post(
    "/api/wallet/tonProofPayload",
    {
      summary: "A single-use ton_proof payload for TON Connect's connect request (expires_at)",
      tags,
      auth: "user",
      can: ["create", "Wallet"],
      before: [proofLimit],
      response: tonProofPayloadAnswer,
    },
    ({ principal }) => wallets.issuePayload(principal.userId),
  );

  api.post(
    "/api/wallet/connect",
    {
      summary: "Link the TON wallet whose ton_proof signs our payload; 400 links nothing",
      tags,
      auth: "user",
      can: ["create", "Wallet"],
      before: [proofLimit],
      body: connectWalletBody,
      response: walletAnswer,
    },
    ({ principal, body }) =>
      wallets.connect(principal.userId, {
        address: body.address,
        chain: body.chain,
        publicKey: body.public_key,
        stateInit: body.wallet_state_init,
        timestamp: body.proof.timestamp,
        domain: body.proof.domain,
        signature: body.proof.signature,
        payload: body.proof.payload,
      }),
  );

  api.get(
    "/api/wallet/current",
    { summary: "Wallet: connected or not (SPEC.md §4)", tags, auth: "user", can: ["read", "Wallet"], response: walletAnswer },
    ({ principal }) => wallets.current(principal.userId),
  );

  api.post(
    "/api/wallet/disconnect",
    { summary: "Unlink the signed-in user's wallet", tags, auth: "user", can: ["delete", "Wallet"], response: walletAnswer },
    ({ principal }) => wallets.disconnect(principal.userId),
  );
}
