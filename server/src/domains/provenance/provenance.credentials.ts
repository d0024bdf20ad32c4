import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import * as x509 from "@peculiar/x509";
import { CoseAlgorithmIdentifier, type Signer } from "@trustnxt/c2pa-ts/cose";
import type { Config } from "../../config.ts";

// the library takes a browser Crypto; Node's webcrypto is one, but its types come from @types/node
x509.cryptoProvider.set(crypto.webcrypto as unknown as ReturnType<typeof x509.cryptoProvider.get>);

const EC = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const DAY_MS = 86_400_000;
/** A generated chain lasts as long as an install may: outputs signed years ago still verify against it. */
const GENERATED_VALID_DAYS = 20 * 365;
/** The C2PA certificate profile asks the signing certificate for one of these purposes: email protection is the usual one. */
const EKU_EMAIL_PROTECTION = "1.3.6.1.5.5.7.3.4";

/** The operator's signing key and chain: what signs every output; its certificate is what "signed by this operator" is checked against. */
export interface SigningCredentials {
  signer: Signer;
}

const pemBlocks = (text: string, label: string) => text.match(new RegExp(`-----BEGIN ${label}-----[^-]+-----END ${label}-----`, "g")) ?? [];

/** ES256 signatures as COSE wants them: r|s (IEEE P1363), which C2PA readers refuse in DER. */
function signerOf(keyPem: string, chain: x509.X509Certificate[]): Signer {
  const key = crypto.createPrivateKey(keyPem);
  return {
    algorithm: CoseAlgorithmIdentifier.ES256,
    certificate: chain[0],
    chainCertificates: chain.slice(1),
    sign: async (payload) => new Uint8Array(crypto.sign("sha256", payload, { key, dsaEncoding: "ieee-p1363" })),
  };
}

function credentialsOf(text: string): SigningCredentials {
  const [keyPem] = pemBlocks(text, "PRIVATE KEY");
  const chain = pemBlocks(text, "CERTIFICATE").map((c) => new x509.X509Certificate(c));
  if (!keyPem || !chain.length) throw new Error("a provenance credential needs a PKCS#8 private key and at least one certificate");
  return { signer: signerOf(keyPem, chain) };
}

/** What the C2PA certificate profile asks of a signing certificate `ca` issues for `publicKey`. */
export async function signingExtensions(ca: x509.X509Certificate, publicKey: crypto.webcrypto.CryptoKey): Promise<x509.Extension[]> {
  return [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([EKU_EMAIL_PROTECTION], false),
    await x509.AuthorityKeyIdentifierExtension.create(ca),
    await x509.SubjectKeyIdentifierExtension.create(publicKey),
  ];
}

/**
 * A private CA and a signing certificate it issues. C2PA readers refuse a self-signed signing certificate, so the
 * self-signed part is the CA; its key signs once, here, and is not kept.
 */
async function generateChain(issuer: string): Promise<string> {
  const subtle = crypto.webcrypto.subtle;
  const [caKeys, keys] = await Promise.all([subtle.generateKey(EC, true, ["sign", "verify"]), subtle.generateKey(EC, true, ["sign", "verify"])]);
  const notBefore = new Date(Date.now() - DAY_MS);
  const notAfter = new Date(Date.now() + GENERATED_VALID_DAYS * DAY_MS);
  const serial = () => crypto.randomBytes(8).toString("hex");
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${issuer} content credentials CA, O=${issuer}`,
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: EC,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${issuer} content credentials, O=${issuer}`,
    issuer: ca.subject,
    notBefore,
    notAfter,
    signingKey: caKeys.privateKey,
    publicKey: keys.publicKey,
    signingAlgorithm: EC,
    extensions: await signingExtensions(ca, keys.publicKey),
  });
  const key = crypto.createPrivateKey({ key: Buffer.from(await subtle.exportKey("pkcs8", keys.privateKey)), format: "der", type: "pkcs8" });
  return [key.export({ format: "pem", type: "pkcs8" }).toString(), leaf.toString("pem"), ca.toString("pem")].join("\n");
}

/** The generated chain kept with the data: made by whichever process starts first, read by every other. */
async function generatedCredentials(config: Config): Promise<string> {
  const file = path.join(config.dataDir, "provenance", "credentials.pem");
  const existing = await fs.readFile(file, "utf8").catch(() => null);
  if (existing) return existing;
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${crypto.randomUUID()}`;
  await fs.writeFile(tmp, await generateChain(config.PROVENANCE_ISSUER), { mode: 0o600 });
  // link() refuses an existing name: of two processes starting at once, one chain wins and both use it
  await fs.link(tmp, file).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== "EEXIST") throw err;
  });
  await fs.rm(tmp, { force: true });
  return fs.readFile(file, "utf8");
}

/** The configured certificate and key, or the chain generated on first start. */
export async function loadSigningCredentials(config: Config): Promise<SigningCredentials> {
  if (config.PROVENANCE_CERT_FILE && config.PROVENANCE_KEY_FILE) {
    const [cert, key] = await Promise.all([fs.readFile(config.PROVENANCE_CERT_FILE, "utf8"), fs.readFile(config.PROVENANCE_KEY_FILE, "utf8")]);
    return credentialsOf(`${key}\n${cert}`);
  }
  return credentialsOf(await generatedCredentials(config));
}
