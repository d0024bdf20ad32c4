/**
 * Checks a trainer's result before a model is called a success: the file must be a well-formed safetensors file
 * (https://huggingface.co/docs/safetensors: 8-byte little-endian header length, a JSON header of tensors with
 * dtype, shape and data_offsets, then exactly the bytes those offsets cover) of LoRA tensors, within the size limit.
 * Replicate's Flux trainers deliver a tar holding the file; the first *.safetensors member is taken from it.
 */
export class WeightsError extends Error {}

const DTYPE_BYTES: Record<string, number> = { F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1, BOOL: 1, F8_E4M3: 1, F8_E5M2: 1 };
const MAX_HEADER = 100 * 1024 * 1024;

/** The first `*.safetensors` member of a POSIX (ustar) tar, or the buffer itself when it is not a tar. */
export function unwrapTar(buf: Buffer): Buffer {
  if (buf.length < 512 || buf.toString("latin1", 257, 262) !== "ustar") return buf;
  let at = 0;
  while (at + 512 <= buf.length) {
    const header = buf.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.toString("utf8", 0, 100).replace(/\0.*$/s, "");
    const prefix = header.toString("utf8", 345, 500).replace(/\0.*$/s, "");
    const size = parseInt(header.toString("latin1", 124, 136).replace(/[\0 ]/g, "") || "0", 8);
    const type = header.toString("latin1", 156, 157);
    if (!Number.isFinite(size) || size < 0) throw new WeightsError("the weights archive is damaged");
    const start = at + 512;
    if ((type === "0" || type === "\0") && `${prefix}/${name}`.endsWith(".safetensors")) {
      if (start + size > buf.length) throw new WeightsError("the weights archive is truncated");
      return buf.subarray(start, start + size);
    }
    at = start + Math.ceil(size / 512) * 512;
  }
  throw new WeightsError("the weights archive holds no .safetensors file");
}

export interface WeightsInfo {
  tensors: number;
  bytes: number;
}

/** Throws WeightsError unless `buf` is a complete safetensors file of LoRA tensors no larger than maxBytes. */
export function checkSafetensors(buf: Buffer, maxBytes: number): WeightsInfo {
  if (buf.length > maxBytes) throw new WeightsError("the weights file is too large");
  if (buf.length < 8) throw new WeightsError("the weights file is empty");
  const headerLen = Number(buf.readBigUInt64LE(0));
  if (headerLen < 2 || headerLen > MAX_HEADER || 8 + headerLen > buf.length) throw new WeightsError("the weights file has no valid header");
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(buf.toString("utf8", 8, 8 + headerLen));
  } catch {
    throw new WeightsError("the weights header is not JSON");
  }
  if (!header || typeof header !== "object" || Array.isArray(header)) throw new WeightsError("the weights header is not an object");
  const dataLen = buf.length - 8 - headerLen;
  let end = 0;
  let tensors = 0;
  let lora = 0;
  for (const [name, t] of Object.entries(header)) {
    if (name === "__metadata__") continue;
    const { dtype, shape, data_offsets: off } = (t ?? {}) as { dtype?: string; shape?: unknown; data_offsets?: unknown };
    const width = dtype ? DTYPE_BYTES[dtype] : undefined;
    if (!width || !Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0) || !Array.isArray(off) || off.length !== 2) {
      throw new WeightsError(`tensor ${name.slice(0, 80)} is malformed`);
    }
    const [from, to] = off as number[];
    const expected = (shape as number[]).reduce((a, d) => a * d, 1) * width;
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from || to - from !== expected || to > dataLen) {
      throw new WeightsError(`tensor ${name.slice(0, 80)} does not fit the file`);
    }
    end = Math.max(end, to);
    tensors++;
    if (/lora/i.test(name)) lora++;
  }
  if (tensors === 0) throw new WeightsError("the weights file holds no tensors");
  if (lora === 0) throw new WeightsError("the weights file holds no LoRA tensors");
  if (end !== dataLen) throw new WeightsError("the weights file has bytes no tensor accounts for");
  return { tensors, bytes: buf.length };
}
