import type { GallerySort, GenerationMode } from "../../../../server/src/contract/generation.ts";
import { api, type ApiData } from "../../lib/api-client.ts";

/** Issue 32 items 1 and 2: the home gallery people respond to (docs/decisions/299). */

/** A shared creation shown in the home gallery. */
export type GalleryItem = ApiData<"/api/Index/gallery", "get">["list"][number];
/** One item with its prompt and settings, and the item it remixes. */
export type GalleryItemDetail = ApiData<"/api/Index/galleryItem", "get">;
export type LikeState = ApiData<"/api/Gallery/like", "post">;

export interface GalleryFilter {
  sort: GallerySort;
  mode?: GenerationMode;
  template_id?: number;
}

/** A page of shared creations, newest first or popular this week. */
export async function getGallery(filter: GalleryFilter = { sort: "new" }, limit = 20): Promise<GalleryItem[]> {
  return (await api.get("/api/Index/gallery", { query: { limit, ...filter }, quiet: true })).list;
}

export function getGalleryItem(id: number): Promise<GalleryItemDetail> {
  return api.get("/api/Index/galleryItem", { query: { id }, quiet: true });
}

/** Likes (or takes back the like of) a shared creation; answers its count as it now stands. */
export function setLiked(id: number, liked: boolean): Promise<LikeState> {
  return api.post(liked ? "/api/Gallery/like" : "/api/Gallery/unlike", { id }, { quiet: true });
}

/** An entry of the "Subscriptions" feed: a followed creator's shared creation or library item (docs/decisions/309). */
export type FeedEntry = ApiData<"/api/Subscribe/feed", "get">["list"][number];

/** A page of the caller's feed, newest first; members-only items come locked, without URLs, unless the caller is a member. */
export async function getFeed(page = 1, limit = 20): Promise<FeedEntry[]> {
  return (await api.get("/api/Subscribe/feed", { query: { page, limit }, quiet: true })).list;
}
