import { api } from "../../lib/api-client.ts";

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
}

export const creatorsApi = {
  page: (home_link: string) => api.get<CreatorPageView>("/api/Subscribe/getHomeLinkInfo", { query: { home_link }, quiet: true }),
  bind: (home_link: string, subscribe: boolean) => api.post<{ subscribed: boolean; subscriber_count: number }>("/api/Subscribe/binding", { home_link, subscribe: subscribe ? 1 : 0 }, { quiet: true }),
  mine: () => api.get<{ page: CreatorPageView | null }>("/api/Subscribe/myPage", { quiet: true }).then((r) => r.page),
  publish: (role_id: number) => api.post<CreatorPageView>("/api/Subscribe/publishPage", { role_id }, { quiet: true }),
  update: (fields: { bio: string; social_links: string[] }) => api.post<CreatorPageView>("/api/Subscribe/updatePage", fields, { quiet: true }),
};
