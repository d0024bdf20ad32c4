import { api } from "../../lib/api-client.ts";

import type { ReportReason, ReportTarget } from "../../../../server/src/contract/moderation.ts";

/** ARCHITECTURE.md §8: anyone can report a public creation (issue 6 serves POST /api/report). */
export function reportContent(input: { target_type: ReportTarget; target_id: number; reason: ReportReason; details?: string }): Promise<unknown> {
  return api.post("/api/report", input, { quiet: true });
}
