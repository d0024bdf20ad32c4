import { api, requestHeaders, type ApiData } from "../../lib/api-client.ts";
import type { LibraryVisibility } from "../../../../server/src/contract/creators.ts";
import type { Side } from "../../../../server/src/contract/sides.ts";

/** Issue 16: a creator page as getHomeLinkInfo answers it; every figure is counted from stored rows. */
export type CreatorPageView = ApiData<"/api/Subscribe/getHomeLinkInfo", "get">;
/**
 * An item of a creator page's library. A members-only item the viewer cannot open is `locked`, with no URL; one they
 * can open has URLs signed for them alone, which need their token (`memberMedia`).
 */
export type LibraryItem = CreatorPageView["library"][number];
/** The viewer's paid membership of the page. */
export type MembershipView = ApiData<"/api/Subscribe/joinMembership", "post">;
/** A premium custom request: its price is held from the fan until delivery, decline or expiry. */
export type CustomRequestView = ApiData<"/api/Subscribe/request", "post">;

/** Tips (decision 304): the presets and limits staff set, and a tip as the fan and the creator see it. */
export type TipSettings = ApiData<"/api/Subscribe/tipSettings", "get">;
export type TipView = ApiData<"/api/Subscribe/tip", "post">;

/** The caller's own page, with what its edit screen picks (the model shown, its own cover). */
export type OwnPageView = NonNullable<ApiData<"/api/Subscribe/myPage", "get">["page"]>;
/** A page's name, its own cover (an image upload; null: none) and the model shown with it (null: none). */
export interface PageIdentity {
  title: string;
  cover_id: number | null;
  role_id: number | null;
}

/** The page just published or changed: the server's view of it is null only for a page that is gone. */
function stillThere<T>(page: T | null): T {
  if (!page) throw new Error("The access resource does not exist");
  return page;
}

export const creatorsApi = {
  page: (home_link: string) => api.get("/api/Subscribe/getHomeLinkInfo", { query: { home_link }, quiet: true }),
  bind: (home_link: string, subscribe: boolean) => api.post("/api/Subscribe/binding", { home_link, subscribe: subscribe ? 1 : 0 }, { quiet: true }),
  mine: () => api.get("/api/Subscribe/myPage", { quiet: true }).then((r) => r.page),
  publish: (role_id: number) => api.post("/api/Subscribe/publishPage", { role_id }, { quiet: true }).then(stillThere),
  /** A page made without training (issue 30): its own home link, name and cover; a model is optional. */
  create: (body: PageIdentity & { home_link: string; bio: string; social_links: string[] }) =>
    api.post("/api/Subscribe/createPage", body, { quiet: true }).then(stillThere),
  update: (fields: Partial<PageIdentity> & { bio: string; social_links: string[]; request_price: number | null; membership_price: number | null }) =>
    api.post("/api/Subscribe/updatePage", fields, { quiet: true }).then(stillThere),
  request: (home_link: string, text: string, idempotency_key: string) =>
    api.post("/api/Subscribe/request", { home_link, text, idempotency_key }, { quiet: true }),
  requests: (as: Side) => api.get("/api/Subscribe/requests", { query: { as }, quiet: true }).then((r) => r.list),
  answer: (what: "acceptRequest" | "declineRequest", id: number) => api.post(`/api/Subscribe/${what}`, { id }, { quiet: true }),
  deliver: (id: number, task_id: number) => api.post("/api/Subscribe/deliverRequest", { id, task_id }, { quiet: true }),
  rate: (id: number, satisfied: boolean) => api.post("/api/Subscribe/rateRequest", { id, satisfied: satisfied ? 1 : 0 }, { quiet: true }),
  join: (home_link: string) => api.post("/api/Subscribe/joinMembership", { home_link }, { quiet: true }),
  cancel: (home_link: string) => api.post("/api/Subscribe/cancelMembership", { home_link }, { quiet: true }),
  /** A later page of a creator page's library (the page itself brings the first). */
  library: (home_link: string, page: number, limit: number) => api.get("/api/Subscribe/library", { query: { home_link, page, limit }, quiet: true }),
  /** How the caller's page shows these creations of theirs (at most 50 ids); those not on it are left out. */
  myItems: (taskIds: number[]) => api.get("/api/Subscribe/myItems", { query: { task_ids: taskIds.join(",") }, quiet: true }).then((r) => r.list),
  /** A page of the caller's finished, unexpired creations, newest first (what can be published or delivered). */
  finishedCreations: (page: number, limit: number) => api.get("/api/Generation/uploadLists", { query: { page, limit, finished: 1 } }),
  publishItem: (task_id: number, visibility: LibraryVisibility) => api.post("/api/Subscribe/publishItem", { task_id, visibility }, { quiet: true }),
  unpublishItem: (id: number) => api.post("/api/Subscribe/unpublishItem", { id }, { quiet: true }),
  tipSettings: () => api.get("/api/Subscribe/tipSettings", { quiet: true }),
  tip: (body: { home_link: string; amount: number; message?: string; library_item_id?: number; idempotency_key: string }) =>
    api.post("/api/Subscribe/tip", body, { quiet: true }),
  tips: (as: Side) => api.get("/api/Subscribe/tips", { query: { as }, quiet: true }).then((r) => r.list),
  /** Sets the viewer's media pass cookie, which a <video> element sends to stream members-only files (decision 217). */
  mediaPass: () => api.post("/api/Subscribe/mediaPass", {}, { quiet: true }),
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
