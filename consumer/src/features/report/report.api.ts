import { api } from "../../lib/api-client.ts";

export const REPORT_REASONS = ["underage", "non_consensual", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export type ReportTarget = "task" | "upload" | "character" | "creator_page" | "conversation";

/** ARCHITECTURE.md §8: anyone can report a public creation (issue 6 serves POST /api/report). */
export function reportContent(input: { target_type: ReportTarget; target_id: number; reason: ReportReason; details?: string }): Promise<unknown> {
  return api.post("/api/report", input, { quiet: true });
}
