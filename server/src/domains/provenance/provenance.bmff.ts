/** Boxes on the way from the top of an MP4 to its chunk offset tables. */
const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl"]);

/**
 * A copy of an MP4 whose chunk offsets (stco, co64) point `delta` bytes further on: C2PA puts its manifest box right
 * after `ftyp`, which moves the media data by the box's size; the offsets must move with it or players read the wrong
 * bytes. c2pa-ts moves HEIF item locations but not MP4 chunk offsets, so they are moved here before it inserts the box.
 * Fragmented MP4 (moof) is not rewritten: the engines deliver plain MP4.
 */
export function shiftChunkOffsets(mp4: Buffer, delta: number): Buffer {
  const out = Buffer.from(mp4);
  const walk = (start: number, end: number) => {
    let pos = start;
    while (pos + 8 <= end) {
      let size = out.readUInt32BE(pos);
      const type = out.toString("latin1", pos + 4, pos + 8);
      let header = 8;
      if (size === 1) {
        size = Number(out.readBigUInt64BE(pos + 8));
        header = 16;
      } else if (size === 0) size = end - pos;
      if (size < header || pos + size > end) throw new Error(`malformed MP4 box ${type}`);
      if (CONTAINERS.has(type)) walk(pos + header, pos + size);
      else if (type === "stco" || type === "co64") shiftTable(out, pos + header, type === "co64", delta);
      pos += size;
    }
  };
  walk(0, out.length);
  return out;
}

/** The table after its version/flags word and entry count: 32-bit (stco) or 64-bit (co64) file offsets. */
function shiftTable(buf: Buffer, at: number, wide: boolean, delta: number) {
  const count = buf.readUInt32BE(at + 4);
  for (let i = 0; i < count; i++) {
    if (wide) {
      const p = at + 8 + i * 8;
      buf.writeBigUInt64BE(buf.readBigUInt64BE(p) + BigInt(delta), p);
    } else {
      const p = at + 8 + i * 4;
      buf.writeUInt32BE(buf.readUInt32BE(p) + delta, p);
    }
  }
}
