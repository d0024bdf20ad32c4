import crypto from "node:crypto";
import type * as x509 from "@peculiar/x509";
import { type Asset, BMFF, JPEG, PNG } from "@trustnxt/c2pa-ts/asset";
import type { Signer } from "@trustnxt/c2pa-ts/cose";
import { SuperBox } from "@trustnxt/c2pa-ts/jumbf";
import {
  type Action,
  ActionAssertion,
  AssertionLabels,
  BMFFHashAssertion,
  type Claim,
  DataHashAssertion,
  type Manifest,
  ManifestStore,
} from "@trustnxt/c2pa-ts/manifest";
import { shiftChunkOffsets } from "./provenance.bmff.ts";

/** IPTC's term for media a trained model made: what the EU AI Act's machine-readable marking says of every output. */
export const TRAINED_ALGORITHMIC_MEDIA = "http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia";

// c2pa-ts reads and writes BMFF generically but admits only HEIF brands; MP4's are the same box structure
for (const brand of ["isom", "iso2", "mp41", "mp42", "avc1"]) (BMFF as unknown as { canReadBrands: Set<string> }).canReadBrands.add(brand);

/** What the Content Credentials of an output say: who made it, with which engine, when. */
export interface OutputClaim {
  issuer: string;
  engine: string;
  when: Date;
}

/** The name an output's credentials give its maker: the operator and the engine, `Reverie (comfyui)`. */
export const generatorName = (issuer: string, engine: string) => `${issuer} (${engine})`;

/** c2pa-ts writes no `when` on an action (C2PA actions v2 have one): added to the action as it is serialised. */
class CreatedActions extends ActionAssertion {
  constructor(private readonly when: Date) {
    super();
    this.label = AssertionLabels.actionsV2;
  }
  override generateJUMBFBoxForContent(claim: Claim) {
    const box = super.generateJUMBFBoxForContent(claim) as ReturnType<ActionAssertion["generateJUMBFBoxForContent"]> & {
      content: { actions: Record<string, unknown>[] };
    };
    for (const a of box.content.actions) a.when = this.when.toISOString();
    return box;
  }
}

/** The file as a c2pa-ts asset, or null for a format it cannot carry a manifest in (WebP, GIF...). */
function assetOf(buf: Buffer): Asset | null {
  if (JPEG.canRead(buf)) return new JPEG(buf);
  if (PNG.canRead(buf)) return new PNG(buf);
  if (BMFF.canRead(buf)) return new BMFF(buf);
  return null;
}

function manifestFor(mime: string, claim: OutputClaim, signer: Signer) {
  const store = new ManifestStore();
  const manifest = store.createManifest({ assetFormat: mime, instanceID: `xmp:iid:${crypto.randomUUID()}`, defaultHashAlgorithm: "SHA-256", signer });
  const actions = new CreatedActions(claim.when);
  const created: Action = {
    action: "c2pa.created" as Action["action"],
    digitalSourceType: TRAINED_ALGORITHMIC_MEDIA as Action["digitalSourceType"],
    softwareAgent: { name: generatorName(claim.issuer, claim.engine) },
  };
  actions.actions = [created];
  manifest.addAssertion(actions);
  const hash = mime === "video/mp4" ? BMFFHashAssertion.createV2("jumbf manifest", "SHA-256") : DataHashAssertion.create("SHA-256");
  manifest.addAssertion(hash);
  return { store, manifest, hash };
}

/**
 * The file with signed Content Credentials embedded (PNG, JPEG, MP4), or null when its format cannot carry them.
 * For MP4 the chunk offsets are moved first by exactly the room the manifest box takes (measured on a trial insert).
 */
export async function embedCredentials(file: Buffer, mime: string, claim: OutputClaim, signer: Signer): Promise<Buffer | null> {
  const { store, manifest, hash } = manifestFor(mime, claim, signer);
  const size = store.measureSize();
  let asset = assetOf(file);
  if (!asset) return null;
  if (asset instanceof BMFF) {
    await asset.ensureManifestSpace(size);
    const delta = (await asset.getDataRange()).length - file.length;
    asset = new BMFF(shiftChunkOffsets(file, delta));
  }
  await asset.ensureManifestSpace(size);
  await hash.updateWithAsset(asset);
  await manifest.sign(signer);
  await asset.writeManifestJUMBF(store.getBytes());
  return Buffer.from(await asset.getDataRange());
}

/** What a file's Content Credentials say, as far as the provenance page tells anyone. */
export interface ReadCredentials {
  /** The signature and every hash check out: the file is as it was signed. */
  valid: boolean;
  /** It was signed with this operator's key. */
  signedByOperator: boolean;
  aiGenerated: boolean;
  madeAt: string | null;
  generator: string | null;
}

/**
 * Whether `manifest` was signed with this operator's key: its signing certificate carries the public key of `operator`
 * (our signing certificate). A chain leading to our root is not enough: a configured chain ends in a public CA, which
 * certifies other signers too, and their files are not ours.
 */
function signedWith(manifest: Manifest, operator: x509.X509Certificate): boolean {
  const cert: x509.X509Certificate | undefined = manifest.signature?.signatureData?.certificate;
  return !!cert && Buffer.from(cert.publicKey.rawData).equals(Buffer.from(operator.publicKey.rawData));
}

/** The `when` of the manifest's c2pa.created action, from the assertion's CBOR: c2pa-ts does not map it. */
function createdWhen(manifest: Manifest): string | null {
  for (const a of manifest.assertions?.getActionAssertions() ?? []) {
    const content = (a.sourceBox?.contentBoxes[0] as { content?: { actions?: { action?: string; when?: unknown }[] } } | undefined)?.content;
    const when = content?.actions?.find((x) => x.action === "c2pa.created")?.when;
    if (typeof when === "string" && !Number.isNaN(Date.parse(when))) return new Date(when).toISOString();
  }
  return null;
}

/** The active manifest of the file, validated; null when it carries none (or none that can be read). */
export async function readCredentials(file: Buffer, operator: x509.X509Certificate): Promise<ReadCredentials | null> {
  let asset: Asset | null = null;
  try {
    asset = assetOf(file);
  } catch {
    // a file that only looks like a PNG, JPEG or MP4 carries no credentials
  }
  const jumbf = asset?.getManifestJUMBF();
  if (!asset || !jumbf) return null;
  try {
    const store = ManifestStore.read(SuperBox.fromBuffer(new Uint8Array(jumbf)));
    const manifest = store.getActiveManifest();
    if (!manifest) return null;
    const result = await store.validate(asset);
    const created = manifest.assertions
      ?.getActionAssertions()
      .flatMap((a) => a.actions)
      .find((a) => a.action === "c2pa.created");
    return {
      valid: result.isValid,
      signedByOperator: result.isValid && signedWith(manifest, operator),
      aiGenerated: created?.digitalSourceType === TRAINED_ALGORITHMIC_MEDIA,
      madeAt: createdWhen(manifest),
      generator: created?.softwareAgent?.name ?? null,
    };
  } catch {
    // a manifest that cannot even be parsed is no credential at all
    return null;
  }
}
