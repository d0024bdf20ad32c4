import crypto from "node:crypto";
import { Address } from "@ton/core";
import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { Wallet } from "../../db/generated/client.ts";
import { TON_CHAINS, WALLET_PROOF_REFUSED } from "../../contract/wallets.ts";
import { HttpError } from "../../http/errors.ts";
import type { TonChain } from "./ton-chain.ts";
import { checkTonProof, type TonProofInput } from "./ton-proof.ts";
import { spendProofPayload } from "./wallets.queries.ts";

export interface ConnectInput extends TonProofInput {
  /** TON Connect's account.chain */
  chain: string;
}

/** SPEC.md §4 "Wallet: connected or not", as the consumer shows it (`display_address`: the form wallets show, UQ…). */
export function walletView(w: Wallet | null) {
  if (!w) return { connected: false as const };
  const display = Address.parseRaw(w.address).toString({ bounceable: false, testOnly: w.chain === TON_CHAINS.testnet });
  return { connected: true as const, address: w.address, display_address: display, chain: w.chain, linked_at: w.linkedAt };
}

/**
 * TON wallets linked to accounts with TON Connect's ton_proof (docs/decisions/211). The server issues a random payload
 * bound to the signed-in user; the wallet signs it; the proof is checked (ton-proof.ts) and the payload is spent in the
 * same transaction that links the wallet, so a payload links at most one wallet, once.
 */
export function createWalletsService(deps: { db: Db; config: Config; log: Logger; chain: TonChain }) {
  const { db, config, log, chain: tonChain } = deps;
  // TON Connect wallets sign the dApp's host (the manifest's URL host) as the proof's domain
  const domain = new URL(config.publicUrl).host;
  const chain = TON_CHAINS[config.TON_NETWORK];

  function refuse(userId: number, why: string): never {
    log.warn({ userId, why }, "ton_proof refused");
    throw HttpError.badRequest(WALLET_PROOF_REFUSED);
  }

  return {
    /** A fresh ton_proof payload for this user: 32 random bytes, single-use, expiring after TON_PROOF_TTL_SECONDS. */
    async issuePayload(userId: number, now = new Date()) {
      const payload = crypto.randomBytes(32).toString("hex");
      const expiresAt = new Date(now.getTime() + config.TON_PROOF_TTL_SECONDS * 1000);
      await db.walletProofPayload.create({ data: { userId, payload, expiresAt } });
      // spent and expired payloads are kept no longer than they could matter
      await db.walletProofPayload.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - 86_400_000) } } });
      return { payload, expires_at: expiresAt };
    },

    /** Verifies the wallet's proof and links the wallet to the user; every refusal is 400 and links nothing. */
    async connect(userId: number, input: ConnectInput) {
      if (input.chain !== chain) refuse(userId, `chain ${input.chain} is not ${config.TON_NETWORK}`);
      const proof = await checkTonProof(input, { domain, maxAgeSeconds: config.TON_PROOF_TTL_SECONDS, chainKey: tonChain.publicKey });
      if (!proof.ok) refuse(userId, proof.why);
      const address = proof.address.toRawString();
      const wallet = await db.$transaction(async (tx) => {
        // spends the payload: ours, this user's, unused and unexpired, or nothing happens
        if (!(await spendProofPayload.first(tx, { payload: input.payload, userId }))) return null;
        // whoever proves control of a wallet last holds it; a user holds one wallet
        await tx.wallet.deleteMany({ where: { OR: [{ address }, { userId }] } });
        return tx.wallet.create({ data: { userId, address, publicKey: proof.publicKey.toString("hex"), chain: input.chain } });
      });
      if (!wallet) refuse(userId, "payload unknown, used, expired or another user's");
      return walletView(wallet);
    },

    async current(userId: number) {
      return walletView(await db.wallet.findUnique({ where: { userId } }));
    },

    async disconnect(userId: number) {
      await db.wallet.deleteMany({ where: { userId } });
      return walletView(null);
    },

    /** Guest merge (auth): a guest's wallet follows it into the account unless the account has one already. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      const existing = await tx.wallet.findUnique({ where: { userId: toUserId } });
      if (existing) await tx.wallet.deleteMany({ where: { userId: fromUserId } });
      else await tx.wallet.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
      await tx.walletProofPayload.deleteMany({ where: { userId: fromUserId } });
    },

    /** Account erasure (privacy, decision 262): the linked wallet and any proof payloads go. */
    async eraseUser(tx: Tx, userId: number): Promise<string[]> {
      await tx.wallet.deleteMany({ where: { userId } });
      await tx.walletProofPayload.deleteMany({ where: { userId } });
      return [];
    },
  };
}

export type WalletsService = ReturnType<typeof createWalletsService>;
