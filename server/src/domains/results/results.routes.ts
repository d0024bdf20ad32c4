import type { ApiRouter } from "../../http/api.ts";
import { deleteResultBody } from "./results.schema.ts";
import type { ResultsService } from "./results.service.ts";

export function resultsRoutes(api: ApiRouter, results: ResultsService) {
  api.post(
    "/api/Generation/deleteTask",
    { summary: "Remove one of the caller's finished generated items from their results", tags: ["generation"], auth: "user", can: ["delete", "GenerationTask"], body: deleteResultBody },
    async ({ principal, body }) => {
      await results.remove(principal.userId, body.id);
      return {};
    },
  );
}
