import { beforeEach, describe, expect, it, vi } from "vitest";

// the browser's parts session.ts uses, in memory: the HTTP client (each answer released by the test), storage and i18n
const answers = vi.hoisted(() => ({ pending: new Map<string, (data: unknown) => void>() }));
vi.mock("../../lib/api-client.ts", () => ({
  api: {
    post: (path: string) => new Promise((resolve) => answers.pending.set(path, resolve)),
    get: (path: string) => new Promise((resolve) => answers.pending.set(path, resolve)),
  },
}));
vi.mock("../../lib/storage.ts", () => {
  const kept = new Map<string, string>();
  return {
    storage: { get: (k: string) => kept.get(k) ?? null, set: (k: string, v: string) => kept.set(k, v), remove: (k: string) => kept.delete(k) },
    clearStoredSession: () => kept.clear(),
  };
});
vi.mock("../pixels/fingerprint.ts", () => ({ deviceFingerprint: async () => null }));
vi.mock("../../i18n/index.ts", () => ({
  default: { language: "ko" },
  changeLanguage: async () => undefined,
  isLanguage: (v: unknown) => ["en", "ja", "ko", "ru"].includes(v as string),
  storedLanguage: () => "ko",
}));

const { session } = await import("./session.ts");

/** Releases the answer the app is waiting for on `path`, and lets the app's follow-up calls start. */
async function answer(path: string, data: unknown): Promise<void> {
  for (let i = 0; i < 20 && !answers.pending.has(path); i++) await new Promise((r) => setTimeout(r, 0));
  const resolve = answers.pending.get(path);
  if (!resolve) throw new Error(`the app never asked ${path}`);
  answers.pending.delete(path);
  resolve(data);
  await new Promise((r) => setTimeout(r, 0));
}

const guest = { id: 7, uuid: "u7", type: "visitor", language: null, email: null, nickname: "Guest", points: 0 };

describe("answers that arrive after another sign-in (issue 46: a channel account shown as the guest it was)", () => {
  beforeEach(() => answers.pending.clear());

  it("the guest's language, saved while the channel login ran, does not bring the guest back", async () => {
    const signingIn = session.guestLogin();
    await answer("/api/login/visitor", { token: "t-guest", user_info: guest, is_register: 1 });
    await signingIn;
    // the app shows Korean and saves it on the guest account; that request is still out when the channel login answers
    const channel = session.channelLogin("init-data");
    await answer("/api/OrderJpay/channelServerLogin", {
      token: "t-channel",
      user_info: { ...guest, type: "noRegister", nickname: "Mira", language: "ko" },
      is_register: 1,
      playerUid: "880102",
    });
    await channel;
    await answer("/api/Personal/user_update", {});
    expect(session.get().user).toMatchObject({ id: 7, type: "noRegister", nickname: "Mira", language: "ko" });
    expect(session.get().token).toBe("t-channel");
  });

  it("a profile loaded for the session before a sign-in does not replace the account signed in since", async () => {
    const signingIn = session.guestLogin();
    await answer("/api/login/visitor", { token: "t-guest2", user_info: { ...guest, language: "ko" }, is_register: 1 });
    await signingIn;
    const loading = session.loadUser();
    const channel = session.channelLogin("init-data");
    await answer("/api/OrderJpay/channelServerLogin", {
      token: "t-channel2",
      user_info: { ...guest, type: "noRegister", language: "ko" },
      is_register: 1,
      playerUid: "880103",
    });
    await channel;
    await answer("/api/Personal/personal_info", { info: { ...guest, language: "ko" } });
    await loading;
    expect(session.get()).toMatchObject({ token: "t-channel2", user: { type: "noRegister" } });
  });
});
