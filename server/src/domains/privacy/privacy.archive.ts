import { once } from "node:events";
import fs from "node:fs";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

/**
 * A zip archive written to a file as it is made (decision 261): each entry's bytes are compressed and written as they
 * arrive, and a producer waits whenever the file falls behind, so memory holds a chunk or two, never the archive.
 * fflate writes no Zip64 records: one archive stays under 4 GiB (exports are far smaller).
 */
export class ArchiveFile {
  private readonly out: fs.WriteStream;
  private readonly zip: Zip;
  private readonly finished: Promise<void>;
  private failure: Error | undefined;

  constructor(readonly path: string) {
    this.out = fs.createWriteStream(path);
    let resolve!: () => void;
    let reject!: (err: Error) => void;
    this.finished = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // awaited in close(); until then a failure is kept in `failure` and thrown by the next write
    this.finished.catch(() => undefined);
    const fail = (err: Error) => {
      this.failure ??= err;
      reject(err);
    };
    this.out.once("error", fail);
    this.zip = new Zip((err, chunk, final) => {
      if (err) return fail(err);
      this.out.write(chunk);
      if (final) this.out.end(() => resolve());
    });
  }

  /**
   * Adds one entry from a stream of byte chunks. Media is stored as it is (already compressed: deflating a video
   * costs time for nothing); JSON and text are deflated.
   */
  async add(name: string, chunks: AsyncIterable<Uint8Array | string>, compress: boolean): Promise<void> {
    const entry = compress ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
    this.zip.add(entry);
    const encoder = new TextEncoder();
    for await (const chunk of chunks) {
      entry.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      await this.caughtUp();
    }
    entry.push(new Uint8Array(0), true);
    await this.caughtUp();
  }

  /** Writes the central directory and closes the file. */
  async close(): Promise<void> {
    this.zip.end();
    await this.finished;
  }

  /** Stops writing (after a failure); the caller deletes the file. */
  abort(): void {
    this.zip.terminate();
    this.out.destroy();
  }

  private async caughtUp(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.out.writableNeedDrain) await once(this.out, "drain");
  }
}
