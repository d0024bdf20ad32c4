import crypto from "node:crypto";
import { beginCell, storeStateInit, type Address, type StateInit } from "@ton/core";
import { keyPairFromSeed, sign, type KeyPair } from "@ton/crypto";
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from "@ton/ton";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { WALLET_PROOF_REFUSED } from "../../contract/wallets.ts";
import { telegramInitData } from "../../../../tests/fixtures/telegram.ts";
import { startFakeToncenter, type FakeToncenter } from "../../../../tests/fixtures/fake-toncenter.ts";

const BOT_TOKEN = "7000000003:AAReverieWalletsTestBot";

let t: TestApp;
let chain: FakeToncenter;
/** PUBLIC_URL of the test config is http://localhost:8080: TON Connect wallets sign its host. */
const DOMAIN = "localhost:8080";

beforeAll(async () => {
  chain = await startFakeToncenter();
  t = await createTestApp({ TELEGRAM_BOT_TOKEN: BOT_TOKEN, TON_API_URL: chain.url });
});
afterAll(async () => {
  await t.close();
  await chain.close();
});

type Kind = "v3r2" | "v4" | "v5r1";

/** A real wallet: an Ed25519 key pair and the stateInit of a real wallet contract holding its public key. */
function wallet(kind: Kind = "v4") {
  const keys = keyPairFromSeed(crypto.randomBytes(32));
  const c =
    kind === "v3r2"
      ? WalletContractV3R2.create({ workchain: 0, publicKey: keys.publicKey })
      : kind === "v4"
        ? WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey })
        : WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey });
  return { keys, address: c.address, init: c.init };
}

const boc = (init: StateInit) => beginCell().store(storeStateInit(init)).endCell().toBoc().toString("base64");

/**
 * What the wallet signs, built here from TON Connect's specification and independently of the server's code:
 * "ton-proof-item-v2/" ‖ workchain (int32 BE) ‖ address hash ‖ domain length (uint32 LE) ‖ domain ‖ timestamp
 * (uint64 LE) ‖ payload, then Ed25519 over sha256(0xffff ‖ "ton-connect" ‖ sha256(message)).
 */
function signProof(keys: KeyPair, address: Address, domain: string, timestamp: number, payload: string): string {
  const msg = Buffer.alloc(18 + 4 + 32 + 4 + Buffer.byteLength(domain) + 8 + Buffer.byteLength(payload));
  let o = msg.write("ton-proof-item-v2/", 0, "utf8");
  o = msg.writeInt32BE(address.workChain, o);
  o += address.hash.copy(msg, o);
  o = msg.writeUInt32LE(Buffer.byteLength(domain), o);
  o += msg.write(domain, o, "utf8");
  o = msg.writeBigUInt64LE(BigInt(timestamp), o);
  msg.write(payload, o, "utf8");
  const inner = crypto.createHash("sha256").update(msg).digest();
  const full = crypto
    .createHash("sha256")
    .update(Buffer.concat([Buffer.from("ffff", "hex"), Buffer.from("ton-connect"), inner]))
    .digest();
  return sign(full, keys.secretKey).toString("base64");
}

interface ProofOptions {
  domain?: string;
  timestamp?: number;
  signer?: KeyPair;
  stateInit?: StateInit;
  publicKey?: string;
  chain?: string;
  address?: Address;
}

/** The body the consumer forwards from TON Connect (account + ton_proof reply) for this wallet and payload. */
function proofBody(w: ReturnType<typeof wallet>, payload: string, o: ProofOptions = {}) {
  const domain = o.domain ?? DOMAIN;
  const timestamp = o.timestamp ?? Math.floor(Date.now() / 1000);
  const address = o.address ?? w.address;
  return {
    address: address.toRawString(),
    chain: o.chain ?? "-239",
    public_key: o.publicKey ?? w.keys.publicKey.toString("hex"),
    wallet_state_init: boc(o.stateInit ?? w.init),
    proof: {
      timestamp,
      domain: { lengthBytes: Buffer.byteLength(domain), value: domain },
      payload,
      signature: signProof(o.signer ?? w.keys, address, domain, timestamp, payload),
    },
  };
}

async function payloadFor(token: string): Promise<string> {
  const res = await t.http.post("/api/wallet/tonProofPayload").set("token", token).expect(200);
  expect(res.body.data.payload).toMatch(/^[0-9a-f]{64}$/);
  return res.body.data.payload as string;
}

const connect = (token: string, body: unknown) =>
  t.http
    .post("/api/wallet/connect")
    .set("token", token)
    .send(body as object);
const current = async (token: string) => (await t.http.get("/api/wallet/current").set("token", token).expect(200)).body.data;

async function refused(token: string, body: unknown) {
  const res = await connect(token, body).expect(400);
  expect(res.body.msg).toBe(WALLET_PROOF_REFUSED);
  expect(await current(token)).toEqual({ connected: false });
}

describe("TON Connect wallet connection with ton_proof", () => {
  it.each(["v3r2", "v4", "v5r1"] as const)("a %s wallet's genuine proof links it to the signed-in user", async (kind) => {
    const u = await visitor(t);
    const w = wallet(kind);
    expect(await current(u.token)).toEqual({ connected: false });
    const res = await connect(u.token, proofBody(w, await payloadFor(u.token))).expect(200);
    expect(res.body.data).toMatchObject({ connected: true, address: w.address.toRawString(), chain: "-239" });
    expect(await current(u.token)).toMatchObject({ connected: true, address: w.address.toRawString() });
    expect(await t.db.wallet.findUniqueOrThrow({ where: { userId: u.userId } })).toMatchObject({ publicKey: w.keys.publicKey.toString("hex") });
  });

  it("the timestamp may come as the specification's decimal string", async () => {
    const u = await visitor(t);
    const w = wallet();
    const body = proofBody(w, await payloadFor(u.token));
    await connect(u.token, { ...body, proof: { ...body.proof, timestamp: String(body.proof.timestamp) } }).expect(200);
  });

  it("a forged signature (another key) is refused", async () => {
    const u = await visitor(t);
    const w = wallet();
    await refused(u.token, proofBody(w, await payloadFor(u.token), { signer: keyPairFromSeed(crypto.randomBytes(32)) }));
  });

  it("a proof for another site's domain is refused", async () => {
    const u = await visitor(t);
    await refused(u.token, proofBody(wallet(), await payloadFor(u.token), { domain: "evil.example" }));
  });

  it("a stale timestamp is refused", async () => {
    const u = await visitor(t);
    await refused(u.token, proofBody(wallet(), await payloadFor(u.token), { timestamp: Math.floor(Date.now() / 1000) - t.config.TON_PROOF_TTL_SECONDS - 5 }));
  });

  it("an address that is not the stateInit's is refused (someone else's wallet with my stateInit)", async () => {
    const u = await visitor(t);
    const mine = wallet();
    const victim = wallet();
    await refused(u.token, proofBody(mine, await payloadFor(u.token), { address: victim.address }));
  });

  it("a public key other than the stateInit's is refused", async () => {
    const u = await visitor(t);
    await refused(u.token, proofBody(wallet(), await payloadFor(u.token), { publicKey: "ab".repeat(32) }));
  });

  it("a wallet contract the server cannot parse is checked against the chain's get_public_key (decision 220)", async () => {
    const { contractAddress } = await import("@ton/core");
    // a contract of unknown code: its data holds the key in a layout no known wallet uses
    const unknown = (keys: KeyPair) => {
      const init = { code: beginCell().storeUint(0xdead, 16).endCell(), data: beginCell().storeUint(7, 8).storeBuffer(keys.publicKey).endCell() };
      return { keys, init, address: contractAddress(0, init) };
    };
    const u = await visitor(t);
    const deployed = unknown(keyPairFromSeed(crypto.randomBytes(32)));
    chain.deploy(deployed.address, deployed.keys.publicKey);
    const calls = chain.runGetMethodCalls();
    const res = await t.http
      .post("/api/wallet/connect")
      .set("token", u.token)
      .send(proofBody(deployed, await payloadFor(u.token)))
      .expect(200);
    expect(res.body.data).toMatchObject({ connected: true, address: deployed.address.toRawString() });
    expect(chain.runGetMethodCalls()).toBe(calls + 1);
    expect((await t.db.wallet.findUniqueOrThrow({ where: { userId: u.userId } })).publicKey).toBe(deployed.keys.publicKey.toString("hex"));

    // signed by another key than the one the chain answers
    const v = await visitor(t);
    const other = unknown(keyPairFromSeed(crypto.randomBytes(32)));
    chain.deploy(other.address, keyPairFromSeed(crypto.randomBytes(32)).publicKey);
    await refused(v.token, proofBody(other, await payloadFor(v.token), { publicKey: other.keys.publicKey.toString("hex") }));
    // not on chain (never deployed): no key to check against
    const ghost = unknown(keyPairFromSeed(crypto.randomBytes(32)));
    await refused(v.token, proofBody(ghost, await payloadFor(v.token)));
    // the address must still be the stateInit's: a deployed contract's address with my unknown stateInit
    const mine = unknown(keyPairFromSeed(crypto.randomBytes(32)));
    await refused(v.token, proofBody(mine, await payloadFor(v.token), { address: deployed.address }));
    expect(await t.db.wallet.count({ where: { userId: v.userId } })).toBe(0);
  });

  it("a replayed payload is refused: sequentially and when sent ten times at once, exactly one links", async () => {
    const u = await visitor(t);
    const w = wallet();
    const body = proofBody(w, await payloadFor(u.token));
    const answers = await Promise.all(Array.from({ length: 10 }, () => connect(u.token, body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(400)]);
    await connect(u.token, body).expect(400);
    expect(await t.db.wallet.count({ where: { userId: u.userId } })).toBe(1);
  });

  it("a payload never issued, another user's, or expired is refused", async () => {
    const u = await visitor(t);
    const other = await visitor(t);
    await refused(u.token, proofBody(wallet(), crypto.randomBytes(32).toString("hex")));
    await refused(u.token, proofBody(wallet(), await payloadFor(other.token)));
    const p = await payloadFor(u.token);
    await t.db.walletProofPayload.update({ where: { payload: p }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await refused(u.token, proofBody(wallet(), p));
  });

  it("a testnet wallet is refused on a mainnet server", async () => {
    const u = await visitor(t);
    await refused(u.token, proofBody(wallet(), await payloadFor(u.token), { chain: "-3" }));
  });

  it("a wallet is held by whoever proves it last; disconnect unlinks it", async () => {
    const a = await visitor(t);
    const b = await visitor(t);
    const w = wallet();
    await connect(a.token, proofBody(w, await payloadFor(a.token))).expect(200);
    await connect(b.token, proofBody(w, await payloadFor(b.token))).expect(200);
    expect(await current(a.token)).toEqual({ connected: false });
    expect(await current(b.token)).toMatchObject({ connected: true, address: w.address.toRawString() });
    expect((await t.http.post("/api/wallet/disconnect").set("token", b.token).expect(200)).body.data).toEqual({ connected: false });
    expect(await current(b.token)).toEqual({ connected: false });
  });

  it("a guest's wallet follows it into the account it logs in to (guest merge)", async () => {
    const channel = t.http.post("/api/OrderJpay/channelServerLogin").send({ channel_token: telegramInitData(BOT_TOKEN, { userId: 6006 }) });
    const account = (await channel.expect(200)).body.data as { token: string; user_info: { id: number } };
    const guest = await visitor(t);
    const w = wallet();
    await connect(guest.token, proofBody(w, await payloadFor(guest.token))).expect(200);
    await t.http
      .post("/api/OrderJpay/channelServerLogin")
      .set("token", guest.token)
      .send({ channel_token: telegramInitData(BOT_TOKEN, { userId: 6006 }) })
      .expect(200);
    expect(await current(account.token)).toMatchObject({ connected: true, address: w.address.toRawString() });
    expect(await t.db.wallet.count({ where: { userId: guest.userId } })).toBe(0);
  });

  it("needs a login, and a malformed body is a 400, not a 500", async () => {
    await t.http.post("/api/wallet/tonProofPayload").expect(401);
    const u = await visitor(t);
    await connect(u.token, { address: "nope" }).expect(400);
    await connect(u.token, { ...proofBody(wallet(), "x"), wallet_state_init: "bm90IGEgYm9j" }).expect(400);
  });

  it("serves the TON Connect manifest for the public URL", async () => {
    const res = await t.http.get("/tonconnect-manifest.json").expect(200);
    expect(res.body).toMatchObject({ url: t.config.publicUrl, name: "Reverie", iconUrl: `${t.config.publicUrl}/icon-192.png` });
  });
});
