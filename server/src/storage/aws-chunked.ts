import crypto from "node:crypto";

/**
 * The `aws-chunked` content encoding, as the AWS SDK sends an upload whose checksum trails the body: chunks of
 * `<hex size>[;chunk-signature=<sig>]\r\n<bytes>\r\n`, a last chunk of size 0, then trailer lines
 * (`x-amz-checksum-crc32:<base64>`) and an empty line. AWS S3 takes the framing off; some S3-compatible stores keep it as
 * the object's bytes (issue 51). This reads such a body back into the bytes that were meant, for the repair command.
 */
export interface AwsChunked {
  data: Buffer;
  /** Trailer lines by lower-case name, e.g. `x-amz-checksum-crc32`. */
  trailers: Record<string, string>;
}

/** A body's first line when it could be aws-chunked framing: a hex size, maybe a chunk signature. */
export const AWS_CHUNK_HEAD = /^[0-9a-f]{1,16}(;chunk-signature=[0-9a-f]{64})?\r\n/i;

/** The framed body's bytes, or null unless the whole body is exactly that framing (so real data is never taken for it). */
export function decodeAwsChunked(body: Buffer): AwsChunked | null {
  const parts: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const lineEnd = body.indexOf("\r\n", pos);
    if (lineEnd < 0) return null;
    const head = body.subarray(pos, lineEnd + 2).toString("latin1");
    if (!AWS_CHUNK_HEAD.test(head)) return null;
    const size = Number.parseInt(head, 16);
    pos = lineEnd + 2;
    if (size === 0) break;
    if (pos + size + 2 > body.length || body[pos + size] !== 0x0d || body[pos + size + 1] !== 0x0a) return null;
    parts.push(body.subarray(pos, pos + size));
    pos += size + 2;
  }
  const trailers: Record<string, string> = {};
  for (;;) {
    const lineEnd = body.indexOf("\r\n", pos);
    if (lineEnd < 0) return null;
    const line = body.subarray(pos, lineEnd).toString("latin1");
    pos = lineEnd + 2;
    if (line === "") break;
    const colon = line.indexOf(":");
    if (colon <= 0) return null;
    trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return pos === body.length ? { data: Buffer.concat(parts), trailers } : null;
}

function crcTable(polynomial: number): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? polynomial ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

// CRC32 (ISO-HDLC, the SDK's default) and CRC32C (Castagnoli), reflected, as S3's checksum headers carry them
const CRC_TABLES = { crc32: crcTable(0xedb88320), crc32c: crcTable(0x82f63b78) };

function crc(data: Buffer, table: Uint32Array): Buffer {
  let c = 0xffffffff;
  for (const byte of data) c = table[(c ^ byte) & 0xff] ^ (c >>> 8);
  const out = Buffer.alloc(4);
  out.writeUInt32BE((c ^ 0xffffffff) >>> 0);
  return out;
}

const CHECKSUMS: Record<string, (data: Buffer) => Buffer> = {
  "x-amz-checksum-crc32": (d) => crc(d, CRC_TABLES.crc32),
  "x-amz-checksum-crc32c": (d) => crc(d, CRC_TABLES.crc32c),
  "x-amz-checksum-sha1": (d) => crypto.createHash("sha1").update(d).digest(),
  "x-amz-checksum-sha256": (d) => crypto.createHash("sha256").update(d).digest(),
};

/**
 * Whether the trailing checksum matches the decoded bytes: true or false when the trailer carries one this can compute,
 * null when it carries none (a signed-chunk upload) or only one it cannot (CRC64NVME).
 */
export function trailerChecksumMatches(framed: AwsChunked): boolean | null {
  for (const [name, compute] of Object.entries(CHECKSUMS)) {
    const given = framed.trailers[name];
    if (given !== undefined) return compute(framed.data).toString("base64") === given;
  }
  return null;
}
