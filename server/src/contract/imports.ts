/** Lists staff keep in spreadsheets and import in the console (issue 35 item 8). Import-free (docs/decisions/050). */

/** The lists, as they appear in paths (`/admin/api/imports/<list>/...`) and the console's pages. */
export const IMPORT_LISTS = ["pixel-ids", "credit-grants", "products"] as const;
export type ImportList = (typeof IMPORT_LISTS)[number];

/**
 * The columns of the lists of their own, in the order of their template's header row. Products have the console form's
 * fields instead (docs/decisions/301): the template and each preview name them.
 */
export const IMPORT_COLUMNS = {
  "pixel-ids": ["channel", "kind", "event", "value"],
  "credit-grants": ["user_id", "credits", "reason"],
} as const satisfies Partial<Record<ImportList, readonly string[]>>;

/** Why the spreadsheet reader refuses a file (its thread answers one of these). */
export const SHEET_REFUSALS = ["tooLarge", "tooManyRows", "unreadable", "empty", "missingColumns"] as const;
export type SheetRefusal = (typeof SHEET_REFUSALS)[number];

/**
 * Why the server refused a spreadsheet or an import as a whole: its errors carry `data.refusal` (with the numbers the
 * message names) so the console shows them in the staff member's language (docs/decisions/371).
 */
export const SPREADSHEET_REFUSALS = ["notSpreadsheet", "oldExcel", "tooBig", ...SHEET_REFUSALS, "tooSlow", "busy", "fixRows", "changed"] as const;
export type SpreadsheetRefusal = (typeof SPREADSHEET_REFUSALS)[number];
