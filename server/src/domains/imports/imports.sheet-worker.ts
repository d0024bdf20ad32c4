import { parentPort } from "node:worker_threads";
import { readTable, SheetRefused, type SheetLimits } from "./imports.sheet.ts";

/**
 * The thread one spreadsheet is read in (imports.workbook.ts starts it, with memory limits, and ends it when it runs
 * past its time). It says it is ready first, so loading it does not count against the file's time.
 */
const port = parentPort!;
port.once("message", ({ bytes, columns, limits }: { bytes: Uint8Array; columns: string[]; limits: SheetLimits }) => {
  try {
    port.postMessage({ rows: readTable(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), columns, limits) });
  } catch (e) {
    port.postMessage(e instanceof SheetRefused ? { refusal: e.refusal } : { failure: String((e as Error)?.stack ?? e) });
  }
});
port.postMessage({ ready: true });
