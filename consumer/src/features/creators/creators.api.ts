import { api, requestHeaders } from "../../lib/api-client.ts";
import type { CreatorMembershipStatus, CustomRequestStatus, LibraryVisibility } from "../../../../server/src/contract/creators.ts";
import type { DisputeStatus } from "../../../../server/src/contract/creator-payouts.ts";
import type { TaskPage } from "../generation/generation.api.ts";

/**
 * An item of a creator page's library, as getHomeLinkInfo answers it. A members-only item the viewer cannot open is
 * `locked`, with no URL; one they can open has URLs signed for them alone, which need their token (`memberMedia`).
 */
export interface LibraryItem {
  id: number;
  task_id: number;
  visibility: LibraryVisibility;
  kind: "image" | "video";
  locked: boolean;
  video_url: string | null;
  image_url: string | null;
  poster_url: string | null;
}

/** The viewer's paid membership of the page. */
export interface MembershipView {
  status: CreatorMembershipStatus;
  price: number;
  /** access lasts until then; an active membership renews then */
  paid_through: string;
  member: boolean;
}

/** Issue 16: a creator page as getHomeLinkInfo answers it; every figure is counted from stored rows. */
export interface CreatorPageView {
  /** what a report of the page names (`creator_page`) */
  id: number;
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
  /** members-only items this viewer cannot open */
  library_locked: number;
  /** credits per month; null: the page offers no membership */
  membership_price: number | null;
  membership: MembershipView | null;
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
  update: (fields: { bio: string; social_links: string[]; request_price: number | null; membership_price: number | null }) => api.post<CreatorPageView>("/api/Subscribe/updatePage", fields, { quiet: true }),
  request: (home_link: string, text: string, idempotency_key: string) => api.post<CustomRequestView>("/api/Subscribe/request", { home_link, text, idempotency_key }, { quiet: true }),
  requests: (as: "fan" | "creator") => api.get<{ list: CustomRequestView[] }>("/api/Subscribe/requests", { query: { as }, quiet: true }).then((r) => r.list),
  answer: (what: "acceptRequest" | "declineRequest", id: number) => api.post<CustomRequestView>(`/api/Subscribe/${what}`, { id }, { quiet: true }),
  deliver: (id: number, task_id: number) => api.post<CustomRequestView>("/api/Subscribe/deliverRequest", { id, task_id }, { quiet: true }),
  rate: (id: number, satisfied: boolean) => api.post<CustomRequestView>("/api/Subscribe/rateRequest", { id, satisfied: satisfied ? 1 : 0 }, { quiet: true }),
  join: (home_link: string) => api.post<MembershipView>("/api/Subscribe/joinMembership", { home_link }, { quiet: true }),
  cancel: (home_link: string) => api.post<MembershipView>("/api/Subscribe/cancelMembership", { home_link }, { quiet: true }),
  /** A later page of a creator page's library (the page itself brings the first). */
  library: (home_link: string, page: number, limit: number) =>
    api.get<{ list: LibraryItem[]; total: number; locked: number }>("/api/Subscribe/library", { query: { home_link, page, limit }, quiet: true }),
  /** How the caller's page shows these creations of theirs (at most 50 ids); those not on it are left out. */
  myItems: (taskIds: number[]) =>
    api.get<{ list: { id: number; task_id: number; visibility: LibraryVisibility }[] }>("/api/Subscribe/myItems", { query: { task_ids: taskIds.join(",") }, quiet: true }).then((r) => r.list),
  /** A page of the caller's finished, unexpired creations, newest first (what can be published or delivered). */
  finishedCreations: (page: number, limit: number) => api.get<TaskPage>("/api/Generation/uploadLists", { query: { page, limit, finished: 1 } }),
  publishItem: (task_id: number, visibility: LibraryVisibility) => api.post<{ id: number }>("/api/Subscribe/publishItem", { task_id, visibility }, { quiet: true }),
  unpublishItem: (id: number) => api.post<{ id: number }>("/api/Subscribe/unpublishItem", { id }, { quiet: true }),
  /** Sets the viewer's media pass cookie, which a <video> element sends to stream members-only files (decision 217). */
  mediaPass: () => api.post<{ expires_in: number }>("/api/Subscribe/mediaPass", {}, { quiet: true }),
};

/**
 * A members-only file as an object URL: its signed URL also needs the viewer's token (the server checks the membership
 * on every request), which an <img> cannot send, so it is fetched here. Null when refused (no longer a member). Videos
 * stream with the media pass instead, and come here only where the pass cookie is not sent.
 */
export async function memberMedia(url: string, signal?: AbortSignal): Promise<string | null> {
  const res = await fetch(url, { headers: requestHeaders(), cache: "no-store", credentials: "same-origin", signal });
  return res.ok ? URL.createObjectURL(await res.blob()) : null;
}
