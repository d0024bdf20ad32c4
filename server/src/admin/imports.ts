import type { Action, Subject } from "../authz/abilities.ts";
import type { ApiRouter } from "../http/api.ts";
import { receiveFile } from "../http/multipart.ts";
import { IMPORT_LISTS, type ImportList } from "../contract/imports.ts";
import type { ImportsService } from "../domains/imports/imports.service.ts";
import { applyAnswer, applyBody, previewAnswer } from "../domains/imports/imports.schema.ts";
import { MAX_SPREADSHEET_BYTES, refused } from "../domains/imports/imports.workbook.ts";

/** Who may import each list: whoever may add its rows by hand (pixel ids: marketers; grants: the adjust rule, support; products: marketers). */
const PERMISSION: Record<ImportList, [Action, Subject]> = {
  "pixel-ids": ["create", "Channel"],
  "credit-grants": ["adjust", "LedgerEntry"],
  // a row may change a product as much as the form can (marketers, admins)
  products: ["update", "Product"],
};

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Spreadsheet imports at `/admin/api/imports/<list>/{template,preview,apply}` (docs/decisions/285). */
export function importsRoutes(api: ApiRouter, imports: ImportsService) {
  for (const list of IMPORT_LISTS) {
    const base = `/admin/api/imports/${list}`;
    const common = { tags: ["console: imports"], auth: "staff" as const, can: PERMISSION[list] };
    const upload = [receiveFile(MAX_SPREADSHEET_BYTES, () => refused("tooBig"))];
    api.get(
      `${base}/template`,
      {
        ...common,
        summary: `The ${list} template (.xlsx): header row and one example`,
        response: { kind: "file", contentType: XLSX_TYPE, description: "The template" },
      },
      ({ res }) => {
        res.setHeader("Content-Type", XLSX_TYPE);
        res.setHeader("Content-Disposition", `attachment; filename="${list}-template.xlsx"`);
        res.send(imports.template(list));
      },
    );
    api.post(
      `${base}/preview`,
      {
        ...common,
        summary: `Read a ${list} spreadsheet (multipart \`file\`: .xlsx ≤ 1 MB, checked by content and unpacked size, read in a worker thread) and answer every row with its errors; writes nothing`,
        before: upload,
        response: { kind: "plain", schema: previewAnswer, description: "The rows and their errors" },
      },
      ({ req }) => imports.preview(list, req.file),
    );
    api.post(
      `${base}/apply`,
      {
        ...common,
        summary: `Apply the previewed ${list} spreadsheet (the same \`file\` and its preview's \`digest\`) in one transaction, audited`,
        before: upload,
        body: applyBody,
        response: { kind: "plain", schema: applyAnswer, description: "Rows written now and rows already there" },
      },
      ({ req, body, principal }) => imports.apply(principal.staffId, list, req.file, body.digest),
    );
  }
}
