import { api } from "../../lib/api-client.ts";
import type { AppealStatus, DecisionAction, DecisionGround, ReportReason, ReportTarget } from "../../../../server/src/contract/moderation.ts";

/** A statement of reasons as GET /api/notices answers it (server/src/domains/moderation/appeals.service.ts). */
export interface Notice {
  id: number;
  action: DecisionAction;
  ground: DecisionGround;
  explanation: string;
  automated: boolean;
  target_type: ReportTarget | null;
  target_id: number | null;
  created_at: string;
  reversed_at: string | null;
  appeal_key: string;
  appeal: { status: AppealStatus; answer: string | null; decided_at: string | null } | null;
}

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
export function fileNotice(form: NoticeForm): Promise<{ id: number }> {
  return api.post("/api/notices/report", form, { quiet: true });
}

export function listNotices(): Promise<{ list: Notice[] }> {
  return api.get("/api/notices", { quiet: true });
}

/** Works without a login: the key of the statement is the proof (a banned account has no session left). */
export function appealDecision(id: number, key: string, text: string): Promise<{ id: number; status: AppealStatus }> {
  return api.post("/api/notices/appeal", { id, key, text }, { quiet: true });
}
