import crypto from "node:crypto";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { ImportList } from "../../contract/imports.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { IncomingFile } from "../uploads/uploads.service.ts";
import { importLists, type ListDeps } from "./imports.lists.ts";
import type { ImportListSpec, ParsedRow } from "./imports.list-spec.ts";
import type { ApplyAnswer, PreviewAnswer } from "./imports.schema.ts";
import type { Logger } from "pino";
import { readSheet, refused, templateOf } from "./imports.workbook.ts";

export const IMPORT_MESSAGES = {
  fixRows: "Some rows have errors: fix them and preview the file again",
  changed: "This is not the file you previewed: preview it again",
} as const;

/** A thousand grants or ids: well past Prisma's 5 s default for one interactive transaction. */
const APPLY_TIMEOUT_MS = 60_000;

interface Checked<R> {
  digest: string;
  preview: PreviewAnswer;
  valid: ParsedRow<R>[];
}

/**
 * Lists staff keep in spreadsheets (issue 35 item 8, docs/decisions/285): a preview with every row's problems, then
 * the same file applied in one transaction, each list through its owner's service (pixel ids through pixels, grants
 * through the credits ledger), with one audit row for the import beside each change's own.
 */
export function createImportsService({ db, audit, log, ...deps }: ListDeps & { db: Db; audit: AuditService; log: Logger }) {
  const lists = importLists(deps) as Record<ImportList, ImportListSpec<unknown>>;

  async function checked(list: ImportList, file: IncomingFile | undefined): Promise<Checked<unknown>> {
    if (!file) throw refused("notSpreadsheet");
    const spec = lists[list];
    const sheet = await readSheet(file.buffer, spec.columns, { log });
    const parsed = sheet.map((r) => ({ ...r, result: spec.schema.safeParse(r.cells) }));
    const valid = parsed.flatMap((r) => (r.result.success ? [{ row: r.row, data: r.result.data }] : []));
    const known = await spec.check(valid);
    const rows = parsed.map((r) => ({
      row: r.row,
      cells: r.cells,
      errors: r.result.success ? (known.has(r.row) ? [known.get(r.row)!] : []) : r.result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
    }));
    const invalid = rows.filter((r) => r.errors.length).length;
    const digest = crypto.createHash("sha256").update(file.buffer).digest("hex");
    return {
      digest,
      preview: { list, digest, columns: [...spec.columns], rows, valid: rows.length - invalid, invalid },
      valid: valid.filter((r) => !known.has(r.row)),
    };
  }

  return {
    /** Reads and checks the file; writes nothing. */
    preview: async (list: ImportList, file: IncomingFile | undefined): Promise<PreviewAnswer> => (await checked(list, file)).preview,

    /** Applies the previewed file: all its rows or, when any row has an error or the file is another, none. */
    async apply(staffId: number, list: ImportList, file: IncomingFile | undefined, digest: string): Promise<ApplyAnswer> {
      const c = await checked(list, file);
      if (c.digest !== digest) throw new HttpError(409, IMPORT_MESSAGES.changed, { refusal: "changed" });
      if (c.preview.invalid) throw new HttpError(400, IMPORT_MESSAGES.fixRows, { refusal: "fixRows" });
      return db.$transaction(
        async (tx) => {
          const result = await lists[list].write(staffId, c.valid, digest, tx);
          await audit.record(tx, {
            staffId,
            action: "import",
            resource: "SpreadsheetImport",
            resourceId: list,
            after: { digest, rows: c.valid.length, ...result },
          });
          return { list, ...result };
        },
        { timeout: APPLY_TIMEOUT_MS },
      );
    },

    /** The list's template: its header row and one example row. */
    template: (list: ImportList): Buffer => templateOf(list, lists[list].columns, lists[list].example),
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
