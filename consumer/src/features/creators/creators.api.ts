import { api } from "../../lib/api-client.ts";
import type { CustomRequestStatus } from "../../../../server/src/contract/creators.ts";
import type { DisputeStatus } from "../../../../server/src/contract/creator-payouts.ts";

/** A creation in a creator page's library (what the creator shares), as getHomeLinkInfo answers it. */
export interface LibraryItem {
  id: number;
  video_url: string | null;
  image_url: string | null;
  poster_url: string | null;
}

/** Issue 16: a creator page as getHomeLinkInfo answers it; every figure is counted from stored rows. */
export interface CreatorPageView {
  home_link: string;
  title: string;
  bio: string;
  social_links: string[];
  cover_url: string | null;
  subscriber_count: number;
  subscribed: boolean;
  is_owner: boolean;
  library: LibraryItem[];
  library_total: number;
  /** credits per custom request; null: the creator takes none */
  request_price: number | null;
  /** percent of satisfied ratings; null until the page has enough ratings */
  satisfaction_rate: number | null;
}

/** A premium custom request: its price is held from the fan until delivery, decline or expiry. */
export interface CustomRequestView {
  id: number;
  text: string;
  price: number;
  status: CustomRequestStatus;
  delivered_task_id: number | null;
  satisfied: boolean | null;
  /** a dispute of an unsatisfying delivery (docs/decisions/206); null: none */
  dispute_status: DisputeStatus | null;
  home_link: string;
  creator: string;
}

export const creatorsApi = {
  page: (home_link: string) => api.get<CreatorPageView>("/api/Subscribe/getHomeLinkInfo", { query: { home_link }, quiet: true }),
  bind: (home_link: string, subscribe: boolean) => api.post<{ subscribed: boolean; subscriber_count: number }>("/api/Subscribe/binding", { home_link, subscribe: subscribe ? 1 : 0 }, { quiet: true }),
  mine: () => api.get<{ page: CreatorPageView | null }>("/api/Subscribe/myPage", { quiet: true }).then((r) => r.page),
  publish: (role_id: number) => api.post<CreatorPageView>("/api/Subscribe/publishPage", { role_id }, { quiet: true }),
  update: (fields: { bio: string; social_links: string[]; request_price: number | null }) => api.post<CreatorPageView>("/api/Subscribe/updatePage", fields, { quiet: true }),
  request: (home_link: string, text: string, idempotency_key: string) => api.post<CustomRequestView>("/api/Subscribe/request", { home_link, text, idempotency_key }, { quiet: true }),
  requests: (as: "fan" | "creator") => api.get<{ list: CustomRequestView[] }>("/api/Subscribe/requests", { query: { as }, quiet: true }).then((r) => r.list),
  answer: (what: "acceptRequest" | "declineRequest", id: number) => api.post<CustomRequestView>(`/api/Subscribe/${what}`, { id }, { quiet: true }),
  deliver: (id: number, task_id: number) => api.post<CustomRequestView>("/api/Subscribe/deliverRequest", { id, task_id }, { quiet: true }),
  rate: (id: number, satisfied: boolean) => api.post<CustomRequestView>("/api/Subscribe/rateRequest", { id, satisfied: satisfied ? 1 : 0 }, { quiet: true }),
};
