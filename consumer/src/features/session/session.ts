import { api, type ApiData } from "../../lib/api-client.ts";
import { createStore, useStore } from "../../lib/store.ts";
import { clearStoredSession, storage } from "../../lib/storage.ts";
import { deviceFingerprint } from "../pixels/fingerprint.ts";
import i18n, { changeLanguage, isLanguage, storedLanguage, type Language } from "../../i18n/index.ts";
import { signInLanguage } from "./sign-in-language.ts";

/**
 * Sign-ins carry the device fingerprint (the same one the pixels use) so a ban can cover the device as well as the
 * account, together with the server's first-party device cookie (docs/decisions/154).
 */
async function deviceHeaders(): Promise<Record<string, string>> {
  const fingerprint = await deviceFingerprint();
  return fingerprint ? { "device-fingerprint": fingerprint } : {};
}

/** SPEC.md §3 user info, as personal_info answers it. */
export type UserInfo = ApiData<"/api/Personal/personal_info", "get">["info"];

export type Balance = ApiData<"/api/Personal/select_users_integral", "get">;

export interface SessionState {
  token: string | null;
  user: UserInfo | null;
}

const store = createStore<SessionState>({ token: storage.get("token"), user: null });

function setState(next: Partial<SessionState>): void {
  store.set({ ...store.get(), ...next });
}

/**
 * Changes the signed-in user as it is now, and only if it is still the account `userId`: an answer that arrives after
 * another sign-in (a guest's language saved while the channel login ran) must not bring the earlier account back.
 */
function patchUser(userId: number, patch: Partial<UserInfo>): void {
  const { user } = store.get();
  if (user && user.id === userId) setState({ user: { ...user, ...patch } });
}

export const session = {
  get: (): SessionState => store.get(),

  /** The route guard calls this before every navigation (SPEC.md §2). Without a token there is nobody to load. */
  async loadUser(): Promise<UserInfo | null> {
    const token = storage.get("token");
    if (!token) {
      if (store.get().token || store.get().user) setState({ token: null, user: null });
      return null;
    }
    const { info } = await api.get("/api/Personal/personal_info");
    // a sign-in while this was loading has set its own account: this answer is about the one before it
    if (storage.get("token") === token) setState({ token, user: info });
    return info;
  },

  /** Only the balance (after paying or generating). */
  async refreshBalance(): Promise<Balance | null> {
    if (!store.get().token) return null;
    const asked = store.get().user;
    const balance = await api.get("/api/Personal/select_users_integral", { quiet: true });
    if (asked) patchUser(asked.id, balance);
    return balance;
  },

  async guestLogin(): Promise<UserInfo> {
    return signedIn(await api.post("/api/login/visitor", undefined, { headers: await deviceHeaders() }));
  },

  async sendEmailCode(email: string): Promise<{ resend_in: number }> {
    return api.post("/api/login/sendEmailCode", { email }, { quiet: true });
  },

  /** A guest who logs in keeps what they made: the server moves it to the account. */
  async emailLogin(email: string, code: string): Promise<UserInfo> {
    return signedIn(await api.post("/api/login/emailLogin", { email, code }, { quiet: true, headers: await deviceHeaders() }));
  },

  async googleLogin(payload: { code?: string; id_token?: string }): Promise<UserInfo> {
    return signedIn(await api.post("/api/login/googleLogin", payload, { quiet: true, headers: await deviceHeaders() }));
  },

  /** SPEC.md §7 channelServerLogin: the messaging app's launch data signs in (a guest's belongings follow). */
  async channelLogin(channelToken: string): Promise<UserInfo> {
    const answer = await api.post("/api/OrderJpay/channelServerLogin", { channel_token: channelToken }, { quiet: true, headers: await deviceHeaders() });
    storage.set("playerUid", answer.playerUid);
    return signedIn(answer);
  },

  /** Called whenever the session changes (login, logout, reload). */
  subscribe: (listener: () => void) => store.subscribe(listener),

  async googleLoginUrl(): Promise<string> {
    return (await api.get("/api/login/getLoginUrl", { quiet: true })).url;
  },

  /** The language chosen here: shown at once, and kept on the account so that a sign-in on any device speaks it. */
  async chooseLanguage(lng: Language): Promise<void> {
    await changeLanguage(lng);
    await keepOnAccount(lng);
  },

  async logout(): Promise<void> {
    try {
      await api.post("/api/login/logout", {}, { quiet: true });
    } finally {
      clearStoredSession();
      setState({ token: null, user: null });
    }
  },
};

function signedIn(answer: ApiData<"/api/login/visitor", "post">): UserInfo {
  storage.set("token", answer.token);
  storage.set("uuid", answer.user_info.uuid);
  storage.set("loginType", answer.user_info.type);
  setState({ token: answer.token, user: answer.user_info });
  void useAccountLanguage(answer.user_info, answer.is_register === 0 && answer.user_info.type !== "visitor");
  return answer.user_info;
}

/** Keeps the language on the signed-in account, so that its emails and its sign-ins elsewhere speak it. */
async function keepOnAccount(lng: Language): Promise<void> {
  const { user } = store.get();
  if (!user || user.language === lng) return;
  await api.post("/api/Personal/user_update", { language: lng }, { quiet: true });
  patchUser(user.id, { language: lng });
}

/** At sign-in the app and the account agree on a language (sign-in-language.ts); neither may fail the sign-in. */
async function useAccountLanguage(user: UserInfo, returning: boolean): Promise<void> {
  const shown = isLanguage(i18n.language) ? i18n.language : storedLanguage();
  const { show, save } = signInLanguage(isLanguage(user.language) ? user.language : null, returning, shown);
  try {
    if (show !== i18n.language) await changeLanguage(show);
    if (save) await keepOnAccount(save);
  } catch {
    // the language stays as it is on this device; the next choice saves it again
  }
}

export function useSession(): SessionState {
  return useStore(store);
}
