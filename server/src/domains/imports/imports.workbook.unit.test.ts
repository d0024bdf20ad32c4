import { describe, expect, it } from "vitest";
import { sheetRows, spreadsheet } from "../../../../tests/fixtures/spreadsheets.ts";
import { isSpreadsheet, MAX_SPREADSHEET_ROWS, readSheet, templateOf } from "./imports.workbook.ts";

const columns = ["user_id", "credits", "reason"] as const;
const refusal = (bytes: Buffer) => {
  try {
    readSheet(bytes, columns);
  } catch (e) {
    return { status: (e as { status?: number }).status, message: (e as Error).message };
  }
  return null;
};

describe("reading a staff spreadsheet", () => {
  it("knows .xlsx and .xls by content, not by name, and refuses CSV and text before parsing", () => {
    expect(isSpreadsheet(spreadsheet([["a"]]))).toBe(true);
    expect(isSpreadsheet(spreadsheet([["a"]], "biff8"))).toBe(true);
    expect(refusal(Buffer.from("user_id,credits,reason\n1,2,x\n"))).toEqual({ status: 400, message: "Please upload an Excel spreadsheet (.xlsx or .xls)" });
  });

  it("keys rows by the header's names in any case and order, numbers rows as the sheet does, skips blank rows", () => {
    const rows = readSheet(
      spreadsheet([
        [" Reason ", "CREDITS", "user_id", "note"],
        ["Gift", 5, 7, "ignored"],
        [null, null, null, null],
        ["  ", 3, 8, null],
      ]),
      columns,
    );
    expect(rows).toEqual([
      { row: 2, cells: { user_id: 7, credits: 5, reason: "Gift" } },
      { row: 4, cells: { user_id: 8, credits: 3, reason: null } },
    ]);
  });

  it("refuses a sheet without the columns, without rows, or with too many rows", () => {
    expect(refusal(spreadsheet([["user_id"], [1]]))?.message).toBe("The first row must name the columns: user_id, credits, reason");
    expect(refusal(spreadsheet([[...columns]]))?.message).toBe("The spreadsheet has no rows under its header");
    const many = [[...columns], ...Array.from({ length: MAX_SPREADSHEET_ROWS + 1 }, (_, i) => [i + 1, 1, "x"])];
    expect(refusal(spreadsheet(many))?.message).toBe(`The spreadsheet can have at most ${MAX_SPREADSHEET_ROWS} rows`);
  });

  it("writes a template of the header and one example row", () => {
    expect(sheetRows(templateOf("credit-grants", columns, [1, 100, "Gift"]))).toEqual([[...columns], [1, 100, "Gift"]]);
  });
});
