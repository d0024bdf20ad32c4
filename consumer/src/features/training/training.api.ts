import { api } from "../../lib/api-client.ts";
import type { PhotoVerdict, TrainingStatus } from "../../../../server/src/contract/training.ts";

/** Issue 14's training calls. */
export interface TrainingAvailability {
  available: boolean;
  message: string | null;
  price: number;
  photos_min: number;
  expected_seconds: number;
}

export interface PhotoCheck {
  upload_id: number;
  verdict: PhotoVerdict;
  message: string;
  faces: number;
  similarity: number | null;
  age: number | null;
}

export interface CharacterModelView {
  id: number;
  name: string;
  home_link: string;
  status: TrainingStatus;
  usable: boolean;
  progress: number;
  eta_seconds: number;
  cover_url: string | null;
  cost: number;
  error: string | null;
  created_at: string;
}

export interface SubmitBody {
  name: string;
  home_link: string;
  cover_id?: number;
  photo_ids: number[];
  selfie_id?: string;
  idempotency_key: string;
}

export const trainingApi = {
  status: () => api.get<TrainingAvailability>("/api/Training/status", { quiet: true }),
  homeLinkFree: (home_link: string) => api.get<{ free: boolean }>("/api/Training/homeLinkFree", { query: { home_link }, quiet: true }),
  selfie: (frames: string[]) => api.post<{ selfie_id: string }>("/api/Training/selfie", { frames }, { quiet: true }),
  checkPhoto: (selfie_id: string, upload_id: number) => api.post<PhotoCheck>("/api/Training/checkPhoto", { selfie_id, upload_id }, { quiet: true }),
  submit: (body: SubmitBody) => api.post<CharacterModelView>("/api/Training/submit", body, { quiet: true }),
  list: (page = 1, limit = 20) => api.get<{ list: CharacterModelView[]; total: number }>("/api/Generation/getLoraCharacterList", { query: { page, limit } }),
  /** The caller's trained models that generation can use (SPEC §7 `status`), for the creators' model picker. */
  usable: (limit = 50) => api.get<{ list: CharacterModelView[]; total: number }>("/api/Generation/getLoraCharacterList", { query: { page: 1, limit, status: "success" satisfies TrainingStatus }, quiet: true }),
  cancel: (id: number) => api.post<CharacterModelView>("/api/Training/cancel", { id }, { quiet: true }),
};
