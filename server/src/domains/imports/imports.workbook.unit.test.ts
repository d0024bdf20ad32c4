import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { describe, expect, it, vi } from "vitest";
import { OLD_EXCEL, sheetBomb, sheetRows, spreadsheet, workbookParts, zipOf } from "../../../../tests/fixtures/spreadsheets.ts";
import { PROJECT_DIR } from "../../paths.ts";
import { eachSheetRow, readTable } from "./imports.sheet.ts";
import { MAX_SPREADSHEET_ROWS, readSheet, SHEET_LIMITS, templateOf } from "./imports.workbook.ts";

const columns = ["user_id", "credits", "reason"] as const;
const log = { error: () => {} } as never;
const refusal = async (bytes: Buffer, o: Partial<Parameters<typeof readSheet>[2]> = {}) => {
  try {
    await readSheet(bytes, columns, { log, ...o });
  } catch (e) {
    return { status: (e as { status?: number }).status, message: (e as Error).message, data: (e as { data?: unknown }).data };
  }
  return null;
};

describe("reading a staff spreadsheet", () => {
  it("knows .xlsx by content, not by name; refuses CSV and text before parsing, and says to save an old .xls as .xlsx", async () => {
    expect(await refusal(Buffer.from("user_id,credits,reason\n1,2,x\n"))).toMatchObject({ status: 400, message: "Please upload an Excel spreadsheet (.xlsx)" });
    expect(await refusal(OLD_EXCEL)).toMatchObject({
      status: 400,
      message: "Excel 97-2003 files (.xls) cannot be read: save the file as .xlsx and upload it again",
      data: { refusal: "oldExcel" },
    });
  });

  it("keys rows by the header's names in any case and order, numbers rows as the sheet does, skips blank rows", async () => {
    const rows = await readSheet(
      spreadsheet([
        [" Reason ", "CREDITS", "user_id", "note"],
        ["Gift", 5, 7, "ignored"],
        [null, null, null, null],
        ["  ", 3, 8, null],
      ]),
      columns,
      { log },
    );
    expect(rows).toEqual([
      { row: 2, cells: { user_id: 7, credits: 5, reason: "Gift" } },
      { row: 4, cells: { user_id: 8, credits: 3, reason: null } },
    ]);
  });

  it("reads files another program wrote exactly as the SheetJS reader did (shared and inline strings, numbers, booleans, blanks)", async () => {
    // written by SheetJS 0.18.5 before it was removed; the expected rows are what the SheetJS-based reader answered for them
    const names = ["name", "amount", "active", "note", "code"];
    const expected = [
      { row: 2, cells: { name: 'Ünïcödé & <tags> "q"', amount: 12.5, active: true, note: "x", code: "007" } },
      { row: 4, cells: { name: "second", amount: -3, active: false, note: null, code: "A-1" } },
      { row: 5, cells: { name: null, amount: 0, active: null, note: "only note", code: 42 } },
      { row: 6, cells: { name: "日本語テキスト", amount: 1e21, active: true, note: "line1\nline2", code: "x_y" } },
    ];
    for (const file of ["sheetjs-shared-strings.xlsx", "sheetjs-inline.xlsx"]) {
      const bytes = fs.readFileSync(path.join(PROJECT_DIR, "tests/fixtures/sheets", file));
      expect(await readSheet(bytes, names, { log })).toEqual(expected);
    }
    // rich text without its phonetic guide, formulas' cached values, error cells as blanks, OOXML's _xHHHH_ escapes
    const header = '<row r="1"><c r="A1" t="s"><v>2</v></c><c r="B1" t="s"><v>3</v></c><c r="C1" t="s"><v>4</v></c></row>';
    const parts = workbookParts(
      `${header}<row r="2"><c r="A2"><f>1+6</f><v>7</v></c><c r="B2" t="e"><v>#DIV/0!</v></c><c r="C2" t="s"><v>0</v></c></row><row r="3"><c r="A3" t="str"><f>"8"</f><v>8</v></c><c r="B3"><f>X</f></c><c r="C3" t="s"><v>1</v></c></row>`,
    ).map((p) =>
      p.name.endsWith("sharedStrings.xml")
        ? {
            ...p,
            data: Buffer.from(
              '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><r><t>Gi</t></r><r><rPr><b/></rPr><t>ft</t></r><rPh sb="0" eb="1"><t>ギフト</t></rPh></si><si><t>a_x000D_b</t></si><si><t>user_id</t></si><si><t>credits</t></si><si><t>reason</t></si></sst>',
            ),
          }
        : p,
    );
    expect(await readSheet(zipOf(parts), columns, { log })).toEqual([
      { row: 2, cells: { user_id: 7, credits: null, reason: "Gift" } },
      { row: 3, cells: { user_id: "8", credits: null, reason: "a\rb" } },
    ]);
  });

  it("refuses a sheet without the columns, without rows, or with too many rows, each with its refusal for the console", async () => {
    expect(await refusal(spreadsheet([["user_id"], [1]]))).toMatchObject({
      message: "The first row must name the columns: user_id, credits, reason",
      data: { refusal: "missingColumns", columns: "user_id, credits, reason" },
    });
    expect((await refusal(spreadsheet([[...columns]])))?.message).toBe("The spreadsheet has no rows under its header");
    const many = [[...columns], ...Array.from({ length: MAX_SPREADSHEET_ROWS + 1 }, (_, i) => [i + 1, 1, "x"])];
    expect(await refusal(spreadsheet(many))).toMatchObject({
      status: 400,
      message: `The spreadsheet can have at most ${MAX_SPREADSHEET_ROWS} rows`,
      data: { refusal: "tooManyRows", rows: MAX_SPREADSHEET_ROWS },
    });
  });

  it("stops reading at the row limit: a sheet of 200,000 rows is refused at row 1002, long before its end", () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${i}</v></c></row>`).join("");
    const file = zipOf(
      workbookParts(`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>${rows}`, [...columns]),
    );
    let started = performance.now();
    expect(() => readTable(file, columns, SHEET_LIMITS)).toThrow("tooManyRows");
    const stopped = performance.now() - started;
    started = performance.now();
    let seen = 0;
    eachSheetRow(file, SHEET_LIMITS, () => void seen++);
    expect(seen).toBe(200_001);
    expect(stopped).toBeLessThan((performance.now() - started) / 3);
  });

  it("refuses what would multiply past the limits: a repeated row number, one long shared string in every cell, an over-long cell", () => {
    const header = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>';
    const sameRow = Array.from({ length: MAX_SPREADSHEET_ROWS + 1 }, (_, i) => `<row r="2"><c r="A2"><v>${i}</v></c></row>`).join("");
    expect(() => readTable(zipOf(workbookParts(header + sameRow, [...columns])), columns, SHEET_LIMITS)).toThrow("tooManyRows");
    const everyCell = Array.from({ length: MAX_SPREADSHEET_ROWS }, (_, i) => `<row r="${i + 2}">${'<c t="s"><v>3</v></c>'.repeat(3)}</row>`).join("");
    expect(() => readTable(zipOf(workbookParts(header + everyCell, [...columns, "x".repeat(30_000)])), columns, SHEET_LIMITS)).toThrow("tooLarge");
    const long = `<row r="2"><c r="A2" t="inlineStr"><is><t>${"x".repeat(32_768)}</t></is></c></row>`;
    expect(() => readTable(zipOf(workbookParts(header + long, [...columns])), columns, SHEET_LIMITS)).toThrow("unreadable");
  });

  it("refuses a zip bomb (460 KB packed, 150 MB sheet) by its declared size without unpacking it, and one that lies about its size while unpacking", async () => {
    const honest = sheetBomb(150);
    expect(honest.length).toBeLessThan(MAX_SPREADSHEET_ROWS * 1024);
    const started = performance.now();
    expect(await refusal(honest)).toMatchObject({
      status: 400,
      message: "The spreadsheet is too large once unpacked (over 16 MB): copy the list alone into a new file",
      data: { refusal: "tooLarge", mb: 16 },
    });
    // refused from the central directory, before any thread is started or any byte inflated
    expect(performance.now() - started).toBeLessThan(250);
    expect(await refusal(sheetBomb(150, true))).toMatchObject({ status: 400, data: { refusal: "tooLarge" } });
  });

  it("ends a reading thread that runs past its time and answers that the file took too long", async () => {
    // a legal 8 MB sheet takes far longer than 50 ms to read
    const row = Array.from({ length: 500 }, (_, c) => `<c><v>${c}</v></c>`).join("");
    const rows = Array.from({ length: 900 }, (_, r) => `<row r="${r + 2}">${row}</row>`).join("");
    const file = zipOf(
      workbookParts(`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>${rows}`, [...columns]),
    );
    const terminate = Worker.prototype.terminate;
    const ended: Promise<number>[] = [];
    const spy = vi.spyOn(Worker.prototype, "terminate").mockImplementation(function (this: Worker) {
      const exit = terminate.call(this);
      ended.push(exit);
      return exit;
    });
    try {
      expect(await refusal(file, { timeMs: 50 })).toMatchObject({
        status: 400,
        message: "The spreadsheet took too long to read: copy the list alone into a new file and try again",
        data: { refusal: "tooSlow" },
      });
    } finally {
      spy.mockRestore();
    }
    // ended by the API thread (exit code 1), and gone before the answer came
    expect(await Promise.all(ended)).toEqual([1]);
    // the same file within its time reads whole
    expect(await readSheet(file, columns, { log })).toHaveLength(900);
  });

  it("cannot pollute prototypes: __proto__ as sheet, part, relationship, header, cell text and comment names stays text", async () => {
    const comment = {
      name: "xl/comments1.xml",
      data: Buffer.from('<comments><commentList><comment ref="__proto__" authorId="0"><text><t>polluted</t></text></comment></commentList></comments>'),
    };
    const parts = workbookParts(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c></row><row r="2"><c r="A2"><v>5</v></c><c r="B2"><v>6</v></c><c r="C2" t="s"><v>3</v></c><c r="D2" t="s"><v>4</v></c></row>',
      ["user_id", "credits", "reason", "__proto__", "constructor"],
      "__proto__",
    ).map((p) => (p.name.endsWith("workbook.xml.rels") ? { ...p, data: Buffer.from(p.data.toString().replace('Id="rId3"', 'Id="__proto__"')) } : p));
    const file = zipOf([...parts, comment, { name: "__proto__", data: Buffer.from("x") }]);
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    // read in this thread too: the worker would hide a polluted prototype from the API, not stop it
    const here = readTable(file, [...columns, "__proto__"], SHEET_LIMITS);
    const there = await readSheet(file, [...columns, "__proto__"], { log });
    for (const rows of [here, there]) {
      expect(rows).toEqual([{ row: 2, cells: { user_id: 5, credits: 6, reason: "__proto__", ["__proto__"]: "constructor" } }]);
      expect(Object.getPrototypeOf(rows[0]!.cells)).toBe(Object.prototype);
    }
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).c).toBeUndefined();
  });

  it("writes a template of the header and one example row", async () => {
    const template = templateOf("credit-grants", columns, [1, 100, "Gift"]);
    expect(sheetRows(template)).toEqual([[...columns], [1, 100, "Gift"]]);
    expect(await readSheet(template, columns, { log })).toEqual([{ row: 2, cells: { user_id: 1, credits: 100, reason: "Gift" } }]);
  });
});
