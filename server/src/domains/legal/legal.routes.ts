import type { ApiRouter } from "../../http/api.ts";
import type { LegalService } from "./legal.service.ts";
import { legalCurrentAnswer } from "./legal.schema.ts";

/** /agreement reads the legal pages in force (docs/decisions/282); anyone may, before signing in. */
export function legalRoutes(api: ApiRouter, legal: LegalService) {
  api.get(
    "/api/legal/current",
    {
      summary: "The legal pages in force: version, effective date, the operator's particulars and each document per language",
      tags: ["legal"],
      auth: "public",
      response: legalCurrentAnswer,
    },
    () => legal.current(),
  );
}
