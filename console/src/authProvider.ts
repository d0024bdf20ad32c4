import type { AuthProvider } from "react-admin";
import { abilityFromRules, allowed, type ConsoleAbility } from "./access.ts";
import { TOKEN_KEY, apiUrl, httpClient, type AdminData } from "./http.ts";

type Me = AdminData<"/admin/api/me">;

/** Who is signed in, asked once per token; menus, fields and buttons are hidden from these rules, the server checks them again. */
let current: { token: string; me: Promise<Me>; ability: Promise<ConsoleAbility> } | null = null;

function session() {
  const token = localStorage.getItem(TOKEN_KEY);
  if (!token) return null;
  if (current?.token !== token) {
    // /admin/api/me is an ordinary API call: its answer is in the {code,msg,data} envelope
    const me = httpClient(`${apiUrl}/me`).then(({ json }) => (json as { data: Me }).data);
    current = { token, me, ability: me.then((m) => abilityFromRules(m.rules)) };
    me.catch(() => {
      current = null;
    });
  }
  return current;
}

export const authProvider: AuthProvider = {
  async login({ username, password, code }: { username: string; password: string; code: string }) {
    const response = await fetch(`${apiUrl}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username, password, code }),
    });
    const body = (await response.json().catch(() => null)) as { code: number; msg: string; data: { token: string } } | null;
    if (!response.ok || !body || body.code !== 200) throw new Error(body?.msg ?? response.statusText);
    localStorage.setItem(TOKEN_KEY, body.data.token);
    current = null;
  },

  async logout() {
    const token = localStorage.getItem(TOKEN_KEY);
    localStorage.removeItem(TOKEN_KEY);
    current = null;
    if (token) await fetch(`${apiUrl}/logout`, { method: "POST", headers: { token } }).catch(() => undefined);
  },

  async checkAuth() {
    const s = session();
    if (!s) throw new Error("ra.auth.auth_check_error");
    await s.me;
  },

  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      localStorage.removeItem(TOKEN_KEY);
      current = null;
      throw new Error("ra.notification.logged_out");
    }
  },

  async getIdentity() {
    const s = session();
    if (!s) throw new Error("ra.auth.auth_check_error");
    const me = await s.me;
    return { id: me.id, fullName: `${me.username} (${me.roles.join(", ")})` };
  },

  async getPermissions() {
    const s = session();
    return s ? (await s.me).authBtnList : [];
  },

  async canAccess({ action, resource }) {
    const s = session();
    if (!s) return false;
    return allowed(await s.ability, action, resource);
  },
};
