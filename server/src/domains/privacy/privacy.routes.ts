import type { ApiRouter } from "../../http/api.ts";
import { clientContext } from "../../http/client-context.ts";
import { deletionAnswer, deletionBody, deletionCodeAnswer, exportAnswer, exportLinkAnswer, exportQuery, privacyStatusAnswer } from "./privacy.schema.ts";
import type { PrivacyService } from "./privacy.service.ts";

/** The person's own GDPR requests (issue 30 item 6): my data out (decision 261) and my account gone (decision 262). */
export function privacyRoutes(api: ApiRouter, privacy: PrivacyService) {
  const tags = ["privacy"];

  api.get(
    "/api/privacy/status",
    {
      summary: "My data: the latest export, the latest deletion and how a deletion is confirmed",
      tags,
      auth: "user",
      can: ["read", "DataRequest"],
      response: privacyStatusAnswer,
    },
    ({ principal }) => privacy.status(principal.userId),
  );

  api.post(
    "/api/privacy/export",
    {
      summary: "Ask for an archive of everything of mine, prepared in the background (one at a time)",
      tags,
      auth: "user",
      can: ["create", "DataRequest"],
      response: exportAnswer,
    },
    ({ principal }) => privacy.requestExport(principal.userId),
  );

  api.get(
    "/api/privacy/export/link",
    {
      summary: "A short-lived signed link to my ready archive",
      tags,
      auth: "user",
      can: ["read", "DataRequest"],
      query: exportQuery,
      response: exportLinkAnswer,
    },
    ({ principal, query }) => privacy.exportLink(principal.userId, query.id),
  );

  api.post(
    "/api/privacy/deletion/code",
    { summary: "Email the code that confirms deleting my account", tags, auth: "user", can: ["delete", "DataRequest"], response: deletionCodeAnswer },
    ({ principal, req }) => privacy.sendDeletionCode(principal.userId, clientContext(req)),
  );

  api.post(
    "/api/privacy/deletion",
    {
      summary: "Delete my account after the grace period (confirmed by the emailed code, or in the app without an email)",
      tags,
      auth: "user",
      can: ["delete", "DataRequest"],
      body: deletionBody,
      response: deletionAnswer,
    },
    ({ principal, body }) => privacy.requestDeletion(principal.userId, { by: "person", ...body }),
  );

  api.post(
    "/api/privacy/deletion/undo",
    { summary: "Undo my account's deletion during the grace period", tags, auth: "user", can: ["delete", "DataRequest"], response: deletionAnswer },
    ({ principal }) => privacy.undoDeletion(principal.userId),
  );
}
