import path from "node:path";
import { Worker } from "node:worker_threads";
import { strToU8, zipSync } from "fflate";
import type { SheetRefusal, SpreadsheetRefusal } from "../../contract/imports.ts";
import { HttpError } from "../../http/errors.ts";
import type { Logger } from "pino";
import { PROJECT_DIR } from "../../paths.ts";
import { type Cell, checkedEntries, type SheetLimits, SheetRefused, type SheetRow } from "./imports.sheet.ts";

/** A spreadsheet staff may upload: small enough to preview on one screen and to apply in one transaction. */
export const MAX_SPREADSHEET_BYTES = 1024 * 1024;
export const MAX_SPREADSHEET_ROWS = 1000;

/**
 * What the reader may spend on one file (docs/decisions/371). A 1000-row sheet of 30 columns as Excel writes it is
 * about 1.5 MB of XML, its shared strings as much: 16 MiB a part leaves ten times that; anything past it is a bomb.
 */
export const SHEET_LIMITS: SheetLimits = {
  maxEntries: 500,
  maxPartBytes: 16 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxRows: MAX_SPREADSHEET_ROWS,
};
/** The reading thread's heap: a 16 MiB part and its strings fit several times over; a thread that needs more is ended. */
const WORKER_MEMORY = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32, codeRangeSizeMb: 16, stackSizeMb: 4 };
/** A full-size file reads in well under a second; the clock starts once the thread has loaded. */
export const SHEET_TIME_MS = 10_000;
const LOAD_MS = 30_000;
/** Files read at once, and files that may wait for them; more is answered "busy" (each reader may hold ~200 MB). */
const READERS = 2;
const WAITING = 8;

const MB = (bytes: number) => Math.round(bytes / 1024 / 1024);

export const SPREADSHEET_MESSAGES = {
  notSpreadsheet: "Please upload an Excel spreadsheet (.xlsx)",
  oldExcel: "Excel 97-2003 files (.xls) cannot be read: save the file as .xlsx and upload it again",
  tooBig: `The spreadsheet cannot exceed ${MB(MAX_SPREADSHEET_BYTES)} MB`,
  tooLarge: `The spreadsheet is too large once unpacked (over ${MB(SHEET_LIMITS.maxPartBytes)} MB): copy the list alone into a new file`,
  tooManyRows: `The spreadsheet can have at most ${MAX_SPREADSHEET_ROWS} rows`,
  unreadable: "The spreadsheet could not be read; please save it again as .xlsx",
  empty: "The spreadsheet has no rows under its header",
  missingColumns: (names: readonly string[]) => `The first row must name the columns: ${names.join(", ")}`,
  tooSlow: "The spreadsheet took too long to read: copy the list alone into a new file and try again",
  busy: "Other spreadsheets are being read right now: try again in a minute",
} as const;

/** The refusal as an HttpError whose data names it (and the numbers in it), so the console can say it in its language. */
export function refused(refusal: Exclude<SpreadsheetRefusal, "fixRows" | "changed">, columns: readonly string[] = []): HttpError {
  switch (refusal) {
    case "missingColumns":
      return new HttpError(400, SPREADSHEET_MESSAGES.missingColumns(columns), { refusal, columns: columns.join(", ") });
    case "busy":
      return new HttpError(503, SPREADSHEET_MESSAGES.busy, { refusal });
    default:
      return new HttpError(400, SPREADSHEET_MESSAGES[refusal], {
        refusal,
        rows: MAX_SPREADSHEET_ROWS,
        mb: MB(refusal === "tooLarge" ? SHEET_LIMITS.maxPartBytes : MAX_SPREADSHEET_BYTES),
      });
  }
}

/** xlsx is a zip (PK\3\4); the older .xls is an OLE2 compound file, which no maintained reader on npm reads. */
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** The reading thread: the TypeScript source through tsx under tests and `npm run dev`, the bundled file under `npm start`. */
const FROM_SOURCE = import.meta.url.endsWith(".ts");
const WORKER_SOURCE = new URL("./imports.sheet-worker.ts", import.meta.url).href;
const WORKER_BUNDLED = path.join(PROJECT_DIR, "dist", "server", "domains", "imports", "imports.sheet-worker.js");

let reading = 0;
const queue: (() => void)[] = [];

async function turn(): Promise<() => void> {
  if (reading >= READERS) {
    if (queue.length >= WAITING) throw refused("busy");
    await new Promise<void>((resolve) => queue.push(resolve));
  } else reading++;
  // a finished reader hands its place straight to the next in line
  return () => {
    const next = queue.shift();
    if (next) next();
    else reading--;
  };
}

type Answer = { rows: SheetRow[] } | { refusal: SheetRefusal | "tooSlow" } | { failure: string };

/** Reads the file in its own thread, ended at `timeMs` after it has loaded or when it runs out of memory. */
function inWorker(bytes: Buffer, columns: readonly string[], limits: SheetLimits, timeMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const options = { resourceLimits: WORKER_MEMORY };
    const worker = FROM_SOURCE
      ? new Worker(`import("tsx/esm/api").then(({ tsImport }) => tsImport(${JSON.stringify(WORKER_SOURCE)}, ${JSON.stringify(WORKER_SOURCE)}))`, {
          ...options,
          eval: true,
        })
      : new Worker(WORKER_BUNDLED, options);
    // loading the thread has its own, longer allowance (tsx compiles it under tests)
    let timer = setTimeout(() => end({ refusal: "tooSlow" }), LOAD_MS);
    let answer: Answer | undefined;
    const end = (a: Answer) => {
      answer ??= a;
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.on("message", (m: { ready?: true } & Partial<Answer>) => {
      if (!m.ready) return end(m as Answer);
      clearTimeout(timer);
      timer = setTimeout(() => end({ refusal: "tooSlow" }), timeMs);
      worker.postMessage({ bytes, columns: [...columns], limits });
    });
    worker.on("error", (err: Error & { code?: string }) =>
      end(err.code === "ERR_WORKER_OUT_OF_MEMORY" ? { refusal: "tooLarge" } : { failure: String(err.stack ?? err) }),
    );
    // settled only once the thread is gone, so a refused file holds no memory after its answer
    worker.on("exit", () => {
      clearTimeout(timer);
      resolve(answer ?? { failure: "the reading thread stopped without an answer" });
    });
  });
}

/**
 * The first sheet's rows under its header row, keyed by the `columns` named there (case and spaces ignored), read off
 * the API's thread (docs/decisions/371). The content and the archive's declared sizes are checked here first, in
 * microseconds; the reading thread then holds each part to its declared size, stops at the row limit, and is ended
 * when it runs past `timeMs` or its memory.
 */
export async function readSheet(bytes: Buffer, columns: readonly string[], o: { log: Logger; limits?: SheetLimits; timeMs?: number }): Promise<SheetRow[]> {
  if (bytes.subarray(0, 8).equals(OLE2)) throw refused("oldExcel");
  if (!bytes.subarray(0, 4).equals(ZIP)) throw refused("notSpreadsheet");
  const limits = o.limits ?? SHEET_LIMITS;
  try {
    checkedEntries(bytes, limits);
  } catch (e) {
    if (e instanceof SheetRefused) throw refused(e.refusal, columns);
    throw e;
  }
  const done = await turn();
  const answer = await inWorker(bytes, columns, limits, o.timeMs ?? SHEET_TIME_MS).finally(done);
  if ("rows" in answer) return answer.rows;
  if ("refusal" in answer) throw refused(answer.refusal, columns);
  // a file the reader fails on in a way it did not foresee is still the file's fault for the person: say so, and log it
  o.log.error({ failure: answer.failure }, "spreadsheet reader failed");
  throw refused("unreadable");
}

const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const columnName = (i: number): string => (i >= 26 ? columnName(Math.floor(i / 26) - 1) : "") + String.fromCharCode(65 + (i % 26));

function cellXml(value: Cell, ref: string): string {
  if (value === null) return "";
  if (typeof value === "number") return `<c r="${ref}"><v>${value}</v></c>`;
  if (typeof value === "boolean") return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(value)}</t></is></c>`;
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

/** A template staff fill in: the header row and one example row, as the smallest .xlsx Excel and LibreOffice open. */
export function templateOf(sheetName: string, columns: readonly string[], example: readonly Cell[]): Buffer {
  const rows = [columns, example].map((cells, r) => `<row r="${r + 1}">${cells.map((v, c) => cellXml(v, `${columnName(c)}${r + 1}`)).join("")}</row>`).join("");
  const files: Record<string, string> = {
    "[Content_Types].xml": `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    "_rels/.rels": `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml": `${XML}<workbook xmlns="${MAIN}" xmlns:r="${RELS}"><sheets><sheet name="${xmlText(sheetName.slice(0, 31))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    "xl/worksheets/sheet1.xml": `${XML}<worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`,
  };
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)]))));
}
