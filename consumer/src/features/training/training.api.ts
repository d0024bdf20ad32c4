import { api, type ApiData } from "../../lib/api-client.ts";
import type { TrainingStatus } from "../../../../server/src/contract/training.ts";

/** Issue 14's training calls. */
export type TrainingAvailability = ApiData<"/api/Training/status", "get">;
export type PhotoCheck = ApiData<"/api/Training/checkPhoto", "post">;
export type CharacterModelView = ApiData<"/api/Training/submit", "post">;

export interface SubmitBody {
  name: string;
  home_link: string;
  cover_id?: number;
  photo_ids: number[];
  selfie_id?: string;
  idempotency_key: string;
}

export const trainingApi = {
  status: () => api.get("/api/Training/status", { quiet: true }),
  homeLinkFree: (home_link: string) => api.get("/api/Training/homeLinkFree", { query: { home_link }, quiet: true }),
  selfie: (frames: string[]) => api.post("/api/Training/selfie", { frames }, { quiet: true }),
  checkPhoto: (selfie_id: string, upload_id: number) => api.post("/api/Training/checkPhoto", { selfie_id, upload_id }, { quiet: true }),
  submit: (body: SubmitBody) => api.post("/api/Training/submit", body, { quiet: true }),
  list: (page = 1, limit = 20) => api.get("/api/Generation/getLoraCharacterList", { query: { page, limit } }),
  /** The caller's trained models that generation can use (SPEC §7 `status`), for the creators' model picker. */
  usable: (limit = 50) =>
    api.get("/api/Generation/getLoraCharacterList", { query: { page: 1, limit, status: "success" satisfies TrainingStatus }, quiet: true }),
  cancel: (id: number) => api.post("/api/Training/cancel", { id }, { quiet: true }),
  /** Withdraw likeness consent: the model is deleted; a page showing it stays, without it (issue 30 item 7). */
  revoke: (id: number) => api.post("/api/Training/revoke", { id }, { quiet: true }),
};
