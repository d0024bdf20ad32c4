import { dialogs } from "../../dialogs/dialog-store.ts";
import { api, type ApiData } from "../../lib/api-client.ts";
import { createStore, useStore } from "../../lib/store.ts";
import { session, type UserInfo } from "./session.ts";

export type Belongings = ApiData<"/api/Personal/belongings", "get">;

/** What the guest about to log out holds; null: the server could not say (the warning is shown all the same). */
const held = createStore<Belongings | null>(null);

export function holdsSomething(b: Belongings): boolean {
  return b.credits > 0 || b.results > 0 || b.plan || b.creator_page;
}

/**
 * The account menu's "Log out" (issue 46 item 1). A guest account has no email or password, so once its token is gone
 * nobody can get back into it: a guest who holds credits, results, a plan or a page is warned first and offered to save
 * the account with an email; a guest with nothing, and every saved account, logs out at once.
 */
export async function logOut(user: UserInfo, after: () => void): Promise<void> {
  if (user.type === "visitor") {
    const belongings = await api.get("/api/Personal/belongings", { quiet: true }).catch(() => null);
    if (belongings === null || holdsSomething(belongings)) {
      held.set(belongings);
      dialogs.open("logout");
      return;
    }
  }
  await session.logout().finally(after);
}

export function useGuestBelongings(): Belongings | null {
  return useStore(held);
}
