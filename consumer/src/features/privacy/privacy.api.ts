import { api, type ApiData } from "../../lib/api-client.ts";

/** What the My data section shows (GET /api/privacy/status). */
export type PrivacyStatus = ApiData<"/api/privacy/status", "get">;

/** The section shows refusals itself (quiet): each is a sentence the person reads beside the button they tapped. */
export const privacyApi = {
  status: () => api.get("/api/privacy/status", { quiet: true }),
  requestExport: () => api.post("/api/privacy/export", undefined, { quiet: true }),
  exportLink: (id: number) => api.get("/api/privacy/export/link", { query: { id }, quiet: true }),
  sendDeletionCode: () => api.post("/api/privacy/deletion/code", undefined, { quiet: true }),
  requestDeletion: (confirm: { code: string } | { confirm: true }) => api.post("/api/privacy/deletion", confirm, { quiet: true }),
  undoDeletion: () => api.post("/api/privacy/deletion/undo", undefined, { quiet: true }),
};
