/** Lists staff keep in spreadsheets and import in the console (issue 35 item 8). Import-free (docs/decisions/050). */

/** The lists, as they appear in paths (`/admin/api/imports/<list>/...`) and the console's pages. */
export const IMPORT_LISTS = ["pixel-ids", "credit-grants"] as const;
export type ImportList = (typeof IMPORT_LISTS)[number];

/** Each list's columns, in the order of its template's header row. */
export const IMPORT_COLUMNS = {
  "pixel-ids": ["channel", "kind", "event", "value"],
  "credit-grants": ["user_id", "credits", "reason"],
} as const satisfies Record<ImportList, readonly string[]>;
