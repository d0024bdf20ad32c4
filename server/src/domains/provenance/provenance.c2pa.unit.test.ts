import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { initSync, WasmReader } from "@contentauth/c2pa-wasm";
import * as x509 from "@peculiar/x509";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../config.ts";
import { ffmpeg, probe } from "../../storage/media-tools.ts";
import { embedCredentials, readCredentials, TRAINED_ALGORITHMIC_MEDIA } from "./provenance.c2pa.ts";
import { loadSigningCredentials, type SigningCredentials, signingExtensions } from "./provenance.credentials.ts";

/**
 * Outputs are signed with c2pa-ts; here they are read back by an independent implementation, the C2PA reference
 * library c2pa-rs compiled to WebAssembly (@contentauth/c2pa-wasm), with only this operator's CA as trust anchor.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reverie-provenance-"));
let creds: SigningCredentials;
let trustContext: string;

beforeAll(async () => {
  initSync({ module: fs.readFileSync(createRequire(import.meta.url).resolve("@contentauth/c2pa-wasm/c2pa.wasm")) });
  creds = await loadSigningCredentials(parseConfig({ DATA_DIR: dir }));
  trustContext = JSON.stringify({ verify: { verify_trust: true }, trust: { trust_anchors: creds.signer.chainCertificates[0].toString("pem") } });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const claim = { issuer: "Reverie", engine: "comfyui", when: new Date("2026-11-27T08:00:00Z") };

async function referenceRead(file: Buffer, mime: string) {
  const reader = await WasmReader.fromBytes(mime, new Uint8Array(file), trustContext);
  const store = JSON.parse(reader.json());
  const active = store.manifests[store.active_manifest];
  const actions = active.assertions.find((a: { label: string }) => a.label === "c2pa.actions.v2");
  return { state: store.validation_state as string, failures: store.validation_results?.activeManifest?.failure ?? [], active, actions: actions.data.actions };
}

function expectReverieCredentials(r: Awaited<ReturnType<typeof referenceRead>>) {
  expect(r.failures).toEqual([]);
  // Trusted: the signature, the hard binding and the chain to this operator's CA all check out
  expect(r.state).toBe("Trusted");
  expect(r.actions[0]).toMatchObject({
    action: "c2pa.created",
    digitalSourceType: TRAINED_ALGORITHMIC_MEDIA,
    softwareAgent: { name: "Reverie (comfyui)" },
    when: "2026-11-27T08:00:00.000Z",
  });
  expect(r.active.signature_info.common_name).toBe("Reverie content credentials");
}

const EC = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

/** Two signers whose certificates one CA issued, as a public CA issues them to many operators, loaded as configured. */
async function signersUnderOneCa(): Promise<SigningCredentials[]> {
  const subtle = crypto.webcrypto.subtle;
  const caKeys = await subtle.generateKey(EC, true, ["sign", "verify"]);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: "01",
    name: "CN=Public C2PA CA",
    keys: caKeys,
    signingAlgorithm: EC,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const signer = async (serial: string) => {
    const keys = await subtle.generateKey(EC, true, ["sign", "verify"]);
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: serial,
      subject: `CN=Operator ${serial}`,
      issuer: ca.subject,
      signingKey: caKeys.privateKey,
      publicKey: keys.publicKey,
      signingAlgorithm: EC,
      extensions: await signingExtensions(ca, keys.publicKey),
    });
    const certFile = path.join(dir, `operator-${serial}.pem`);
    const keyFile = path.join(dir, `operator-${serial}.key`);
    fs.writeFileSync(certFile, `${cert.toString("pem")}\n${ca.toString("pem")}`);
    const key = crypto.createPrivateKey({ key: Buffer.from(await subtle.exportKey("pkcs8", keys.privateKey)), format: "der", type: "pkcs8" });
    fs.writeFileSync(keyFile, key.export({ format: "pem", type: "pkcs8" }));
    return loadSigningCredentials(parseConfig({ DATA_DIR: dir, PROVENANCE_CERT_FILE: certFile, PROVENANCE_KEY_FILE: keyFile }));
  };
  return [await signer("02"), await signer("03")];
}

describe("Content Credentials on outputs", () => {
  it.each([
    [
      "image/png",
      () =>
        sharp({ create: { width: 96, height: 64, channels: 3, background: "#a33" } })
          .png()
          .toBuffer(),
    ],
    [
      "image/jpeg",
      () =>
        sharp({ create: { width: 96, height: 64, channels: 3, background: "#3a3" } })
          .jpeg()
          .toBuffer(),
    ],
  ])("a %s is signed and validated by the reference reader", async (mime, make) => {
    const signed = await embedCredentials(await make(), mime, claim, creds.signer);
    expect(signed).not.toBeNull();
    expectReverieCredentials(await referenceRead(signed as Buffer, mime));
    expect(await sharp(signed as Buffer).metadata()).toMatchObject({ width: 96, height: 64 });
  });

  it("an MP4 is signed, validated by the reference reader and still plays frame for frame", async () => {
    const src = path.join(dir, "in.mp4");
    await ffmpeg(["-f", "lavfi", "-i", "testsrc=size=128x96:rate=10:duration=2", "-pix_fmt", "yuv420p", "-movflags", "+faststart", src]);
    const signed = (await embedCredentials(fs.readFileSync(src), "video/mp4", claim, creds.signer)) as Buffer;
    expectReverieCredentials(await referenceRead(signed, "video/mp4"));
    const out = path.join(dir, "signed.mp4");
    fs.writeFileSync(out, signed);
    expect((await probe(out))?.video).toMatchObject({ width: 128, height: 96 });
    const frames = (f: string) => execFileSync("ffmpeg", ["-v", "error", "-i", f, "-f", "framemd5", "-"]).toString();
    expect(frames(out)).toBe(frames(src));
  });

  it("a changed pixel breaks the signature: the reference reader and our reader both say so", async () => {
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#33a" } })
      .png()
      .toBuffer();
    const signed = (await embedCredentials(png, "image/png", claim, creds.signer)) as Buffer;
    const tampered = Buffer.from(signed);
    tampered[tampered.length - 20] ^= 0xff;
    expect((await referenceRead(tampered, "image/png")).state).toBe("Invalid");
    expect(await readCredentials(tampered, creds.signer.certificate)).toMatchObject({ valid: false, signedByOperator: false });
    expect(await readCredentials(signed, creds.signer.certificate)).toEqual({
      valid: true,
      signedByOperator: true,
      aiGenerated: true,
      madeAt: "2026-11-27T08:00:00.000Z",
      generator: "Reverie (comfyui)",
    });
  });

  it("another operator's credentials are valid but not ours; WebP cannot carry them", async () => {
    const other = await loadSigningCredentials(parseConfig({ DATA_DIR: path.join(dir, "other") }));
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#3aa" } })
      .png()
      .toBuffer();
    const signed = (await embedCredentials(png, "image/png", claim, other.signer)) as Buffer;
    expect(await readCredentials(signed, creds.signer.certificate)).toMatchObject({ valid: true, signedByOperator: false });
    const webp = await sharp(png).webp().toBuffer();
    expect(await embedCredentials(webp, "image/webp", claim, creds.signer)).toBeNull();
  });

  it("another operator whose certificate the same CA issued is valid but not ours", async () => {
    const [ours, theirs] = await signersUnderOneCa();
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#a3a" } })
      .png()
      .toBuffer();
    const byThem = (await embedCredentials(png, "image/png", claim, theirs.signer)) as Buffer;
    expect(await readCredentials(byThem, ours.signer.certificate)).toMatchObject({ valid: true, signedByOperator: false });
    const byUs = (await embedCredentials(png, "image/png", claim, ours.signer)) as Buffer;
    expect(await readCredentials(byUs, ours.signer.certificate)).toMatchObject({ valid: true, signedByOperator: true });
  });

  it("the generated chain is made once and kept", async () => {
    const again = await loadSigningCredentials(parseConfig({ DATA_DIR: dir }));
    expect(again.signer.certificate.equal(creds.signer.certificate)).toBe(true);
    expect(fs.statSync(path.join(dir, "provenance", "credentials.pem")).mode & 0o777).toBe(0o600);
  });
});
