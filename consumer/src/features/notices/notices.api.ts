import { api, type ApiData } from "../../lib/api-client.ts";
import type { ReportReason } from "../../../../server/src/contract/moderation.ts";

/** A statement of reasons as GET /api/notices answers it. */
export type Notice = ApiData<"/api/notices", "get">["list"][number];

export interface NoticeForm {
  url: string;
  reason: ReportReason;
  details: string;
  name: string;
  email: string;
  removal: boolean;
  sworn: boolean;
}

/** The public notice-and-action form; no account needed. Errors are shown by the form itself. */
export function fileNotice(form: NoticeForm): Promise<ApiData<"/api/notices/report", "post">> {
  return api.post("/api/notices/report", form, { quiet: true });
}

export function listNotices(): Promise<ApiData<"/api/notices", "get">> {
  return api.get("/api/notices", { quiet: true });
}

/** Works without a login: the key of the statement is the proof (a banned account has no session left). */
export function appealDecision(id: number, key: string, text: string): Promise<ApiData<"/api/notices/appeal", "post">> {
  return api.post("/api/notices/appeal", { id, key, text }, { quiet: true });
}
