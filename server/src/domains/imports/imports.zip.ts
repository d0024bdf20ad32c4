import zlib from "node:zlib";

/** One file of a zip archive, as its central directory declares it. */
export interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  /** The unpacked size the archive declares: checked before anything is inflated, and held to while inflating. */
  size: number;
  localOffset: number;
}

/** The archive is damaged, or uses what a spreadsheet never needs (several disks, Zip64, encryption, other methods). */
export class ZipDamaged extends Error {}
/** A file inflates to more than it may (or than the archive declared). */
export class ZipTooLarge extends Error {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/**
 * The archive's files by name, from its central directory alone: nothing is inflated, so a caller can refuse a zip
 * bomb by its declared sizes in microseconds. Names are keys of a Map, never of an object (a `__proto__` entry stays a name).
 */
export function zipEntries(bytes: Buffer, maxEntries: number): Map<string, ZipEntry> {
  // the end record is the last 22 bytes plus a comment of at most 65535
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ZipDamaged("no end of central directory");
  const count = bytes.readUInt16LE(end + 10);
  const dirSize = bytes.readUInt32LE(end + 12);
  const dirOffset = bytes.readUInt32LE(end + 16);
  if (bytes.readUInt16LE(end + 4) !== 0 || bytes.readUInt16LE(end + 8) !== count) throw new ZipDamaged("multi-disk archive");
  if (count === 0xffff || dirOffset === 0xffffffff) throw new ZipDamaged("Zip64 archive");
  if (count > maxEntries) throw new ZipTooLarge(`${count} files`);
  if (dirOffset + dirSize > end) throw new ZipDamaged("central directory out of bounds");
  const entries = new Map<string, ZipEntry>();
  let at = dirOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || bytes.readUInt32LE(at) !== CENTRAL) throw new ZipDamaged("bad central directory entry");
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const nameLength = bytes.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    if (next > end) throw new ZipDamaged("central directory entry out of bounds");
    if (flags & 1) throw new ZipDamaged("encrypted entry");
    if (method !== STORED && method !== DEFLATED) throw new ZipDamaged(`compression method ${method}`);
    const name = bytes.toString("utf8", at + 46, at + 46 + nameLength);
    const entry = {
      name,
      method,
      crc: bytes.readUInt32LE(at + 16),
      compressedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
    };
    if (entry.compressedSize === 0xffffffff || entry.size === 0xffffffff || entry.localOffset === 0xffffffff) throw new ZipDamaged("Zip64 entry");
    if (entries.has(name)) throw new ZipDamaged(`${name} twice`);
    entries.set(name, entry);
    at = next;
  }
  return entries;
}

/**
 * One file's bytes, inflated by zlib with its output capped at the declared size (and so at most `maxBytes`): an
 * entry that would inflate further stops there with ZipTooLarge instead of filling memory. The CRC is checked too.
 */
export function unpack(bytes: Buffer, entry: ZipEntry, maxBytes: number): Buffer {
  if (entry.size > maxBytes) throw new ZipTooLarge(`${entry.name}: ${entry.size} bytes`);
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL) throw new ZipDamaged(`${entry.name}: bad local header`);
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  if (start + entry.compressedSize > bytes.length) throw new ZipDamaged(`${entry.name}: data out of bounds`);
  const packed = bytes.subarray(start, start + entry.compressedSize);
  let data: Buffer;
  if (entry.method === STORED) data = packed;
  else {
    try {
      // one byte over the declared size tells a lying entry from an exact one
      data = zlib.inflateRawSync(packed, { maxOutputLength: entry.size + 1 });
    } catch (e) {
      if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new ZipTooLarge(`${entry.name}: inflates past its declared ${entry.size} bytes`);
      throw new ZipDamaged(`${entry.name}: ${(e as Error).message}`);
    }
  }
  if (data.length !== entry.size) throw new ZipDamaged(`${entry.name}: ${data.length} bytes, declared ${entry.size}`);
  if (zlib.crc32(data) !== entry.crc) throw new ZipDamaged(`${entry.name}: CRC mismatch`);
  return data;
}
