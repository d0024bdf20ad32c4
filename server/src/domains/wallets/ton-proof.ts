import crypto from "node:crypto";
import { Address, Cell, contractAddress, loadStateInit, type Slice } from "@ton/core";

/** What TON Connect's wallet returns for a `ton_proof` connect item (TonProofItemReplySuccess.proof), with the account. */
export interface TonProofInput {
  /** account.address: "<workchain>:<64 hex>" */
  address: string;
  /** account.walletStateInit: base64 BOC of the wallet's StateInit */
  stateInit: string;
  /** account.publicKey, when the wallet gives it (hex); must match the one read from the stateInit */
  publicKey?: string;
  timestamp: number;
  domain: { lengthBytes: number; value: string };
  /** base64 Ed25519 signature */
  signature: string;
  payload: string;
}

export type TonProofCheck = { ok: true; address: Address; publicKey: Buffer } | { ok: false; why: string };

const PROOF_PREFIX = "ton-proof-item-v2/";
const CONNECT_PREFIX = "ton-connect";

/**
 * Wallet contracts whose data cell we read the public key from, by the hash of their code cell (the codes of
 * @ton/ton's WalletContractV3R1/V3R2/V4/V5R1; ton-proof.test.ts builds real stateInits with them and checks these).
 * Their data layouts: v3 `seqno:32 subwallet:32 pubkey:256`, v4 the same then a plugins dict, v5r1
 * `is_signature_allowed:1 seqno:32 wallet_id:32 pubkey:256` then an extensions dict.
 */
const WALLET_CODES: Record<string, (data: Slice) => Buffer> = {
  b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581: v3Key, // v3r1
  "84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599": v3Key, // v3r2
  feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0: v3Key, // v4r2 (same prefix as v3)
  "20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f": (s) => {
    s.skip(1 + 32 + 32);
    return s.loadBuffer(32);
  }, // v5r1
};

function v3Key(s: Slice): Buffer {
  s.skip(32 + 32);
  return s.loadBuffer(32);
}

/** The DER header of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

function ed25519Verify(message: Buffer, signature: Buffer, publicKey: Buffer): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  const key = crypto.createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]), format: "der", type: "spki" });
  return crypto.verify(null, message, key, signature);
}

const sha256 = (b: Buffer) => crypto.createHash("sha256").update(b).digest();

/**
 * The bytes the wallet signed, as the TON Connect specification defines them (docs.ton.org, "How to authenticate users
 * with ton_proof"): message = "ton-proof-item-v2/" ‖ workchain (int32 BE) ‖ address hash (32) ‖ domain length (uint32
 * LE) ‖ domain ‖ timestamp (uint64 LE) ‖ payload, and the signature is over sha256(0xffff ‖ "ton-connect" ‖ sha256(message)).
 */
export function tonProofDigest(address: Address, domain: string, timestamp: number, payload: string): Buffer {
  const wc = Buffer.alloc(4);
  wc.writeInt32BE(address.workChain);
  const domainBytes = Buffer.from(domain, "utf8");
  const domainLen = Buffer.alloc(4);
  domainLen.writeUInt32LE(domainBytes.length);
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64LE(BigInt(timestamp));
  const message = Buffer.concat([Buffer.from(PROOF_PREFIX, "utf8"), wc, address.hash, domainLen, domainBytes, ts, Buffer.from(payload, "utf8")]);
  return sha256(Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.from(CONNECT_PREFIX, "utf8"), sha256(message)]));
}

/**
 * The wallet's public key, after checking that the address is the stateInit's: read from the data cell of a known
 * wallet contract, else asked of the contract on chain (`get_public_key`, the fallback TON Connect documents for
 * contracts a backend cannot parse; the address already proved the stateInit is this contract's).
 */
async function keyOf(
  address: Address,
  stateInitBoc: string,
  chainKey: (address: Address) => Promise<Buffer | null>,
): Promise<{ key: Buffer } | { why: string }> {
  let init;
  try {
    init = loadStateInit(Cell.fromBase64(stateInitBoc).beginParse());
  } catch {
    return { why: "stateInit is not a StateInit BOC" };
  }
  if (!init.code || !init.data) return { why: "stateInit lacks code or data" };
  // the address of a contract is the hash of its StateInit: a stateInit that is not this wallet's proves nothing
  if (!contractAddress(address.workChain, init).equals(address)) return { why: "address does not match stateInit" };
  const readKey = WALLET_CODES[init.code.hash().toString("hex")];
  if (!readKey) {
    const key = await chainKey(address);
    return key ? { key } : { why: "unknown wallet contract without a public key on chain" };
  }
  try {
    return { key: readKey(init.data.beginParse()) };
  } catch {
    return { why: "wallet data cell is malformed" };
  }
}

/**
 * Checks a TON Connect `ton_proof` the way the TON Connect documentation says a backend must: the public key is the
 * one in the wallet's stateInit whose hash is the address (read from a known wallet contract's data, else the chain's
 * `get_public_key` of that address), the domain is ours, the signed timestamp is recent, and the Ed25519 signature
 * covers the documented message. The payload (ours, single-use) is checked by the caller against what it issued.
 */
export async function checkTonProof(
  p: TonProofInput,
  opts: { domain: string; maxAgeSeconds: number; nowSeconds?: number; chainKey: (address: Address) => Promise<Buffer | null> },
): Promise<TonProofCheck> {
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  let address: Address;
  try {
    address = Address.parseRaw(p.address);
  } catch {
    return { ok: false, why: "address is not a raw TON address" };
  }
  if (p.domain.value !== opts.domain || p.domain.lengthBytes !== Buffer.byteLength(p.domain.value, "utf8")) return { ok: false, why: "domain is not ours" };
  if (!Number.isSafeInteger(p.timestamp) || p.timestamp > now + 60 || now - p.timestamp > opts.maxAgeSeconds) return { ok: false, why: "timestamp stale" };
  const fromInit = await keyOf(address, p.stateInit, opts.chainKey);
  if ("why" in fromInit) return { ok: false, why: fromInit.why };
  if (p.publicKey !== undefined && p.publicKey.toLowerCase() !== fromInit.key.toString("hex"))
    return { ok: false, why: "public key differs from the stateInit's" };
  const signature = Buffer.from(p.signature, "base64");
  if (!ed25519Verify(tonProofDigest(address, p.domain.value, p.timestamp, p.payload), signature, fromInit.key))
    return { ok: false, why: "signature does not match" };
  return { ok: true, address, publicKey: fromInit.key };
}
