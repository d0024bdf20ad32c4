import type { NotificationKind } from "../../../../server/src/contract/notifications.ts";
import { api, type ApiData } from "../../lib/api-client.ts";
import { createStore, useStore } from "../../lib/store.ts";

/** The bell and its email digest (docs/decisions/312). */
export type NotificationLine = ApiData<"/api/notifications", "get">["list"][number];

/** Lines a page of the panel shows. */
export const PANEL_PAGE_SIZE = 20;

/**
 * Where a line leads: the gallery item liked or remixed, the creator's own page for a tip or a new follower (its count
 * is there), the thread for a message, and the creator's side of it for an unlock.
 */
export function linkOf(line: Pick<NotificationLine, "kind" | "subject_id">): string {
  const links: Record<NotificationKind, string> = {
    like: `/home?item=${line.subject_id}`,
    remix: `/home?item=${line.subject_id}`,
    // /creator opens the creator's own page, where the tips they were sent are listed
    tip: "/creator",
    follow: "/creator",
    message: `/messages?t=${line.subject_id}`,
    unlock: `/messages?as=creator&t=${line.subject_id}`,
  };
  return links[line.kind];
}

const unreadStore = createStore(0);
export const useUnread = () => useStore(unreadStore);

/** Asks the server how many lines are unread (on load, on each navigation, when the tab comes back into focus). */
export async function refreshUnread(): Promise<void> {
  try {
    unreadStore.set((await api.get("/api/notifications/unread", { quiet: true })).unread);
  } catch {
    // the badge keeps its last count; the next navigation asks again
  }
}

export async function notifications(page: number): Promise<ApiData<"/api/notifications", "get">> {
  const answer = await api.get("/api/notifications", { query: { page, limit: PANEL_PAGE_SIZE }, quiet: true });
  unreadStore.set(answer.unread);
  return answer;
}

export async function markRead(id: number): Promise<void> {
  unreadStore.set((await api.post("/api/notifications/read", { id }, { quiet: true })).unread);
}

export async function markAllRead(): Promise<void> {
  unreadStore.set((await api.post("/api/notifications/readAll", {}, { quiet: true })).unread);
}

export async function digestSetting(): Promise<boolean> {
  return (await api.get("/api/notifications/settings", { quiet: true })).email_digest;
}

export async function setDigest(on: boolean): Promise<boolean> {
  return (await api.post("/api/notifications/settings", { email_digest: on }, { quiet: true })).email_digest;
}

export async function unsubscribe(token: string): Promise<void> {
  await api.post("/api/notifications/unsubscribe", { token }, { quiet: true });
}
