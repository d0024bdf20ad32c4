import crypto from "node:crypto";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { visitor, type TestApp } from "../db-utils.ts";
import { photo } from "../fixtures/media.ts";
import { staffMember, type StaffLogin } from "../staff-utils.ts";
import { screenshot } from "./browser.ts";
import { consoleForThisFile } from "./console-per-file.ts";
import { seedLegal } from "../../server/src/domains/legal/legal.seed.ts";
import { MENU_GROUP_OF } from "../../console/src/menu/groups.ts";

const app = consoleForThisFile({ SECRETS_KEY: crypto.randomBytes(32).toString("hex") });
const staff: Record<string, StaffLogin> = {};

/** Every menu entry each role must see, and no other (the dashboard is everyone's). */
const MENUS: Record<string, string[]> = {
  support: [
    "users",
    "support-threads",
    "orders",
    "memberships",
    "payouts",
    "disputes",
    "tips",
    "referrals",
    "reward-days",
    "check-ins",
    "generation-tasks",
    "outbox",
    "operations",
    "credit-grant-imports",
  ],
  marketer: [
    "orders",
    "memberships",
    "products",
    "templates",
    "engines",
    "channels",
    "banners",
    "prompt-suggestions",
    "site-settings",
    "pixel-id-imports",
    "product-imports",
  ],
  moderator: [
    "users",
    "reports",
    "bans",
    "appeals",
    "transparency",
    "characters",
    "creator-pages",
    "creator-memberships",
    "creator-library-items",
    "character-models",
    "conversations",
    "chat-policy-hits",
    "chat-suspensions",
    "reported-threads",
    "upload-screenings",
    "blocked-hashes",
    "generation-tasks",
    "referrals",
    "reward-days",
    "check-ins",
  ],
  admin: [
    "users",
    "support-threads",
    "orders",
    "memberships",
    "products",
    "templates",
    "engines",
    "channels",
    "reports",
    "bans",
    "appeals",
    "transparency",
    "evidence",
    "characters",
    "creator-pages",
    "creator-memberships",
    "creator-library-items",
    "payouts",
    "disputes",
    "character-models",
    "conversations",
    "chat-policy-hits",
    "chat-suspensions",
    "reported-threads",
    "chat-backends",
    "upload-screenings",
    "blocked-hashes",
    "generation-tasks",
    "banners",
    "prompt-suggestions",
    "site-settings",
    "legal-versions",
    "audit-log",
    "staff",
    "outbox",
    "operations",
    "pixel-id-imports",
    "credit-grant-imports",
    "product-imports",
    "tips",
    "referrals",
    "reward-days",
    "check-ins",
  ],
};

/**
 * Queues this file seeds nothing into (suspensions, held uploads, blocked hashes, reported threads, payouts and disputes, which
 * console.payouts.e2e.test.ts fills, and a page's memberships and library items, which console.creator-pages.e2e.test.ts
 * fills): their empty state is their screenshot.
 */
const UNSEEDED = [
  "support-threads",
  "reported-threads",
  "chat-suspensions",
  "upload-screenings",
  "blocked-hashes",
  "payouts",
  "disputes",
  "creator-memberships",
  "creator-library-items",
  "tips",
  "referrals",
  "reward-days",
  "check-ins",
];

/** A little of everything, so every list and chart has rows to show. */
async function seedData(t: Pick<TestApp, "db">) {
  const { db } = t;
  const product = await db.product.create({
    data: { code: "credits-100", name: "100 credits", credits: 100, prices: [{ currency: "USD", priceMinor: 999, salePriceMinor: null }] },
  });
  const users = await Promise.all(
    ["anna@example.com", "boris@example.com", null, "dmitri@example.com"].map((email, i) =>
      db.user.create({
        data: {
          email,
          nickname: email ? email.split("@")[0] : null,
          loginType: email ? "registered" : "visitor",
          role: email ? "user" : "visitor",
          createdAt: new Date(Date.now() - i * 86_400_000),
        },
      }),
    ),
  );
  const statuses = ["paid", "paid", "pending", "failed", "paid", "threeDsPending", "expired", "paid"] as const;
  const providers = ["stripe", "paypal", "sandbox"];
  for (const [i, status] of statuses.entries()) {
    const at = new Date(Date.now() - (i % 5) * 86_400_000);
    await db.order.create({
      data: {
        orderNo: `R${1000 + i}`,
        userId: users[i % users.length].id,
        productId: product.id,
        productName: product.name,
        amountMinor: 999,
        finalPriceMinor: 999 + i * 100,
        currency: "USD",
        credits: 100,
        status,
        provider: providers[i % 3],
        channelId: "default",
        createdAt: at,
        paidAt: status === "paid" ? at : null,
        expiresAt: new Date(at.getTime() + 900_000),
      },
    });
  }
  const modes = ["image_to_video", "text_to_image", "audio_overlay"] as const;
  const taskStatuses = ["succeeded", "failed", "queued", "running", "succeeded"] as const;
  const tasks = [];
  for (let i = 0; i < 12; i++) {
    tasks[i] = await db.generationTask.create({
      data: {
        userId: users[i % users.length].id,
        mode: modes[i % 3],
        engine: "local",
        status: taskStatuses[i % 5],
        cost: 1,
        input: { prompt: `scene ${i}` },
        error: taskStatuses[i % 5] === "failed" ? "Failed to generate video" : null,
        createdAt: new Date(Date.now() - (i % 6) * 86_400_000),
      },
    });
  }
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
  await db.report.createMany({
    data: [
      { targetType: "task", targetId: tasks[0].id, targetUserId: tasks[0].userId, reason: "underage", details: "Looks like a minor", createdAt: hoursAgo(0.2) },
      { targetType: "task", targetId: tasks[1].id, targetUserId: tasks[1].userId, reason: "other", details: "Spam", createdAt: hoursAgo(30) },
      { targetType: "task", targetId: tasks[2].id, targetUserId: tasks[2].userId, reason: "non_consensual", details: "Not me", createdAt: hoursAgo(200) },
    ],
  });
  await db.template.createMany({
    data: [
      {
        name: "Golden hour",
        category: "Portrait",
        suitFor: "image_to_video",
        mode: "image_to_video",
        engineParams: { motion: "pan" },
        creditPrice: 1,
        sortOrder: 0,
      },
      {
        name: "City walk",
        category: "Lifestyle",
        suitFor: "image_to_video",
        mode: "image_to_video",
        engineParams: { motion: "zoom" },
        creditPrice: 2,
        sortOrder: 1,
      },
      {
        name: "Neon dream",
        category: "Creative",
        suitFor: "text_to_image",
        mode: "text_to_image",
        engineParams: {},
        creditPrice: 1,
        sortOrder: 2,
        enabled: false,
      },
    ],
  });
  await db.banner.create({ data: { title: "Spring sale", imageUrl: "/media/banners/spring.webp", link: "/buy" } });
  await db.promptSuggestion.create({ data: { text: "A portrait in soft window light", category: "portrait" } });
  await seedLegal(db);
  await db.siteSetting.create({ data: { key: "basicSettings", value: { supportEmail: "help@reverie.local", freeGenerations: 1 } } });
  await db.channel.create({ data: { code: "default", name: "Direct", bigo: 0, kspin: 0 } });
  await db.ban.create({ data: { userId: users[2].id, reason: "Spam uploads", liftedAt: new Date() } });
  await db.auditLog.create({
    data: { action: "update", resource: "Channel", resourceId: "1", before: { bigo: 1 }, after: { bigo: 0 }, reason: "Bigo campaign paused" },
  });
  const luna = await db.character.create({ data: { userId: users[0].id, name: "Luna", description: "A calm night guide", isPublic: true } });
  const conversation = await db.conversation.create({ data: { userId: users[1].id, characterId: luna.id } });
  await db.chatMessage.createMany({
    data: [
      { conversationId: conversation.id, role: "assistant", content: "Good evening." },
      { conversationId: conversation.id, role: "user", content: "Which stars are out?" },
    ],
  });
  await db.chatPolicyHit.create({
    data: { userId: users[1].id, conversationId: conversation.id, source: "user_message", rule: "age_play", excerpt: "(seeded excerpt)" },
  });
  await db.creatorPage.create({ data: { userId: users[1].id, homeLink: "boris", title: "Boris draws", bio: "Sketches every day" } });
  await db.characterModel.create({
    data: { userId: users[0].id, name: "Anna", homeLink: "anna-model", cost: 5, status: "success", trainer: "replicate", triggerWord: "rvannamodel" },
  });
  await db.outboxEmail.create({ data: { to: "anna@example.com", subject: "Your Reverie login code", body: "Your code is 123456" } });
  // issue 19: an appealed takedown and a preserved piece of evidence
  const decision = await db.decision.create({
    data: {
      userId: tasks[2].userId,
      action: "takedown",
      ground: "non_consensual",
      explanation: "Shown without consent",
      targetType: "task",
      targetId: tasks[2].id,
      appealKey: "seeded-appeal-key-0001",
    },
  });
  await db.appeal.create({ data: { decisionId: decision.id, text: "That is me and I agreed to it." } });
  await db.evidence.create({
    data: {
      targetType: "task",
      targetId: tasks[0].id,
      userId: tasks[0].userId,
      sourceKey: "out/seeded.png",
      storageKey: "evidence/seeded.png",
      kind: "image",
      sizeBytes: 1,
      sha256: "0".repeat(64),
      md5: "0".repeat(32),
      keepUntil: new Date(Date.now() + 365 * 86_400_000),
    },
  });
  return { users };
}

beforeAll(async () => {
  await seedData(app.server);
  for (const role of Object.keys(MENUS)) staff[role] = await staffMember(app.server, [role as "admin"]);
}, 300_000);

/** The console's key for the staff token in the browser's storage (TOKEN_KEY of console/src/http.ts, which needs a window to load). */
const TOKEN_KEY = "reverie.console.token";

/**
 * A page of the console at `/console<path>`, signed in as `role` with the token its sign-in in beforeAll (POST
 * /admin/api/login, password and one-time code) gave: each journey starts on its own screen in one load of the console
 * instead of two and the sign-in form. That form is walked by every other console file (signInToConsole).
 */
async function openAs(role: string, path: string, viewport = { width: 1400, height: 900 }): Promise<Page> {
  const context = await app.browser.newContext({
    viewport,
    storageState: { cookies: [], origins: [{ origin: app.server.url, localStorage: [{ name: TOKEN_KEY, value: staff[role].token }] }] },
  });
  const page = await context.newPage();
  await page.goto(`${app.server.url}/console${path}`);
  return page;
}

/**
 * Moves the open console to `/console<path>` within the app, as its links do, instead of loading it again; resolves
 * once the screen shown before has left (the console keeps it until the next one's code has loaded, and a list's rows
 * carry the same action buttons as the record's page).
 */
async function navigate(page: Page, path: string): Promise<void> {
  const before = await page.$("#main-content > *");
  await page.evaluate((to) => {
    window.history.pushState(null, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, `/console${path}`);
  await page.waitForFunction((el) => !el?.isConnected, before);
}

/** The menu's entries as "group/resource" (the dashboard stands outside the groups), and the group headers shown. */
async function menu(page: Page): Promise<{ entries: string[]; headers: string[] }> {
  const entries = await page.$$eval(".RaSidebar-fixed [data-menu-group] a", (links) =>
    links.map((a) => `${a.closest("[data-menu-group]")?.getAttribute("data-menu-group")}/${(a.getAttribute("href") ?? "").replace(/^\/console\/?/, "")}`),
  );
  const headers = await page.$$eval(".RaSidebar-fixed [data-menu-toggle]", (els) => els.map((e) => e.getAttribute("data-menu-toggle") ?? ""));
  return { entries: entries.sort(), headers: headers.sort() };
}

/** What a role's menu must be: its entries, each in its group (console/src/menu/groups.ts), and only those groups' headers. */
const grouped = (entries: string[]) => ({
  entries: entries.map((r) => `${MENU_GROUP_OF[r]}/${r}`).sort(),
  headers: [...new Set(entries.map((r) => MENU_GROUP_OF[r]))].sort(),
});

describe("operator console in Chromium", () => {
  it("each role sees only its menus", { timeout: 120_000 }, async () => {
    for (const [role, expected] of Object.entries(MENUS)) {
      const page = await openAs(role, "");
      await page.waitForSelector(".RaSidebar-fixed a[href='/console']");
      // menu entries appear as canAccess answers; poll until they settle on the expected set (or fail)
      await expect.poll(() => menu(page), { timeout: 5000 }).toEqual(grouped(expected));
      expect(await page.locator(".RaSidebar-fixed a[href='/console']").count()).toBe(1);
      await page.context().close();
    }
  });

  it("a marketer changes a pack's dollar price and adds a euro one in the products screen (360 px): audited, and the list shows it", {
    timeout: 60_000,
  }, async () => {
    const product = await app.server.db.product.findUniqueOrThrow({ where: { code: "credits-100" } });
    const page = await openAs("marketer", `/products/${product.id}`, { width: 360, height: 780 });
    await page.waitForSelector('input[name="prices.0.priceMinor"]');
    await page.fill('input[name="prices.0.priceMinor"]', "1099");
    await page.locator(".button-add-prices").click();
    await page.getByRole("combobox", { name: "Currency" }).last().click();
    await page.getByRole("option", { name: "EUR" }).click();
    await page.fill('input[name="prices.1.priceMinor"]', "999");
    await screenshot(page, "console-product-edit-360");
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/console\/products$/);
    await screenshot(page, "console-products-360");
    expect((await app.server.db.product.findUniqueOrThrow({ where: { id: product.id } })).prices).toEqual([
      { currency: "USD", priceMinor: 1099, salePriceMinor: null },
      { currency: "EUR", priceMinor: 999, salePriceMinor: null },
    ]);
    expect(await app.server.db.auditLog.count({ where: { resource: "Product", resourceId: String(product.id), action: "update" } })).toBe(1);
    await page.context().close();
  });

  it("a marketer writes a banner's caption in Japanese and Russian (360 px): the landing's bannerList answers them", { timeout: 60_000 }, async () => {
    const banner = await app.server.db.banner.findFirstOrThrow({ where: { title: "Spring sale" } });
    const page = await openAs("marketer", `/banners/${banner.id}`, { width: 360, height: 780 });
    await page.getByLabel("Caption in Japanese").fill("春のセール");
    await page.getByLabel("Caption in Russian").fill("Весенняя распродажа");
    await screenshot(page, "console-banner-edit-360");
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/console\/banners$/);
    const list = (await (await fetch(`${app.server.url}/api/Index/bannerList`)).json()) as { data: { list: { id: number; titles: unknown }[] } };
    expect(list.data.list.find((b) => b.id === banner.id)?.titles).toEqual({ ja: "春のセール", ru: "Весенняя распродажа" });
    await page.context().close();
  });

  it("a marketer switches a channel's TikTok pixel off and getpixeLState answers 0 for it", { timeout: 60_000 }, async () => {
    const channel = await app.server.db.channel.create({ data: { code: "promo", name: "Promo" } });
    const page = await openAs("marketer", `/channels/${channel.id}`);
    await page.waitForSelector('input[name="tiktok"]');
    expect(await page.isChecked('input[name="tiktok"]')).toBe(true);
    await page.click('input[name="tiktok"]');
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/console\/channels$/);
    await screenshot(page, "console-channels-after-tiktok-off");
    const state = await fetch(`${app.server.url}/api/Pixelcollect/getpixeLState?channel_id=promo`).then((r) => r.json());
    expect(state.data).toEqual({ Facebook: 1, TikTok: 0, Google: 1, Bigo: 1, BeMob: 1, KSpin: 1, ExoClick: 1, Vk: 1 });
    await page.context().close();
  });

  it("a marketer sets a channel's Meta pixel id but sees no token; an admin sets the token, which shows only as 'set' and its last 4", {
    timeout: 90_000,
  }, async () => {
    const channel = await app.server.db.channel.create({ data: { code: "capi", name: "CAPI" } });
    const page = await openAs("marketer", `/channels/${channel.id}`);
    await page.waitForSelector('input[name="serverConversions.meta.pixelId"]');
    expect(await page.locator('input[name*="accessToken"], input[name*="refreshToken"]').count()).toBe(0);
    await page.waitForSelector("[data-secrets-note]");
    await page.fill('input[name="serverConversions.meta.pixelId"]', "123456789");
    await screenshot(page, "console-channel-server-conversions-marketer");
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/console\/channels$/);
    const saved = await app.server.db.channel.findUniqueOrThrow({ where: { id: channel.id } });
    expect(saved.serverConversions).toMatchObject({ meta: { pixelId: "123456789" } });
    expect((saved.serverConversions as Record<string, unknown>).tiktok ?? null).toBeNull();
    await page.context().close();

    const admin = await openAs("admin", `/channels/${channel.id}`);
    const state = admin.locator('[data-secret-state="secret.meta.accessToken"]');
    await state.waitFor();
    expect(await state.innerText()).toBe("Not set");
    await admin.fill('input[name="secret.meta.accessToken"]', "EAAG-console-token-0123456789abcd");
    await admin.click('[data-secret-save="secret.meta.accessToken"]');
    await admin.waitForFunction(() => document.querySelector('[data-secret-state="secret.meta.accessToken"]')?.textContent?.includes("abcd"));
    expect(await admin.inputValue('input[name="secret.meta.accessToken"]')).toBe("");
    await screenshot(admin, "console-channel-server-conversions-admin");
    // the page never held the token once saved: reload and look everywhere
    await admin.reload();
    await state.waitFor();
    expect(await admin.content()).not.toContain("EAAG-console-token");
    expect(await app.server.db.channelSecret.count({ where: { channelId: channel.id } })).toBe(1);
    await admin.context().close();
  });

  it("a marketer uploads a template cover; the form, the list and getTemplatesList show it", { timeout: 60_000 }, async () => {
    const template = await app.server.db.template.create({
      data: { name: "Sunset cover", category: "Portrait", suitFor: "image", mode: "image_to_video", engineParams: {}, creditPrice: 1, sortOrder: 99 },
    });
    const page = await openAs("marketer", `/templates/${template.id}`);
    await page.waitForSelector('[data-action="templates-cover"]');
    await page.setInputFiles('input[name="cover"]', { name: "sunset.png", mimeType: "image/png", buffer: await photo(480, 320, "png") });
    const img = page.locator(".template-cover img[src*='/api/media/file?']");
    await img.waitFor({ timeout: 15_000 }).catch(async (e) => {
      await screenshot(page, "debug-template-cover");
      throw e;
    });
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBe(480);
    expect(await img.getAttribute("src")).toContain("/api/media/file?");
    await screenshot(page, "console-template-cover-uploaded");

    const stored = await app.server.db.template.findUniqueOrThrow({ where: { id: template.id } });
    expect(stored.coverUrl).toMatch(/^site\/templates\//);
    // saving the form afterwards keeps the uploaded cover
    await page.fill('input[name="creditPrice"]', "3");
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/console\/templates$/);
    const saved = await app.server.db.template.findUniqueOrThrow({ where: { id: template.id } });
    expect(saved).toMatchObject({ coverUrl: stored.coverUrl, creditPrice: 3 });
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>(".RaDatagrid-table img")].some((i) => i.src.includes("/api/media/file?") && i.naturalWidth > 0),
    );
    await screenshot(page, "console-templates-with-cover");

    const list = await fetch(`${app.server.url}/api/Index/getTemplatesList`).then((r) => r.json());
    const shown = (list.data.list as { id: number; cover_url: string }[]).find((x) => x.id === template.id);
    const got = await fetch(new URL(shown!.cover_url, app.server.url));
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toMatch(/^image\//);
    await page.context().close();
  });

  it("support grants payment permission and adjusts credits; the balance and ledger show it", { timeout: 60_000 }, async () => {
    const user = await visitor(app.server);
    const page = await openAs("support", `/users/${user.userId}/show`);
    await page.click('[data-action="users-payment-permission"]');
    await page.fill('textarea[name="reason"]', "Verified card holder over chat");
    await page.click('[data-submit="users-payment-permission"]');
    await page.waitForSelector('[data-action="users-payment-permission"]:has-text("Revoke")');

    await page.click('[data-action="users-credits"]');
    await page.fill('input[name="delta"]', "25");
    await page.fill('textarea[name="reason"]', "Compensation for a failed render");
    await page.click('[data-submit="users-credits"]');
    await page.waitForSelector('.ra-field-points:has-text("25")');
    await page.click(`a[href$="/users/${user.userId}/show/ledger"]`);
    await page.waitForSelector('td:has-text("Compensation for a failed render")');
    await screenshot(page, "console-user-ledger");

    const info = await app.server.http.get("/api/Personal/personal_info").set("token", user.token).expect(200);
    expect(info.body.data.info).toMatchObject({ points: 25, payment_permission: true });
    await page.context().close();
  });

  it("support refunds a paid order: the dialog shows what was already spent first; the clawback stops at zero", { timeout: 60_000 }, async () => {
    const user = await visitor(app.server);
    const product = await app.server.db.product.findUniqueOrThrow({ where: { code: "credits-100" } });
    const order = await app.server.http
      .post("/api/order/createOrderAndPay")
      .set("token", user.token)
      .send({ product_id: product.id, provider: "sandbox", agree_terms: true })
      .expect(200);
    await fetch(`${order.body.data.pay_url}/pay`, { method: "POST", redirect: "manual" });
    await app.server.services.credits.charge({ userId: user.userId, amount: 30, reason: "generation", idempotencyKey: `e2e-spend-${user.userId}` });
    const page = await openAs("support", `/orders/${order.body.data.order_id}/show`);
    await page.click('[data-action="orders-refund"]');
    await page.waitForSelector('[data-preview="orders-refund"] [data-spent="30"]');
    await page.fill('textarea[name="reason"]', "Charged twice by the bank");
    await screenshot(page, "console-order-refund-dialog");
    await page.click('[data-submit="orders-refund"]');
    await page.waitForSelector('.ra-field-status:has-text("refunded")');
    await screenshot(page, "console-order-refunded");
    expect((await app.server.db.user.findUniqueOrThrow({ where: { id: user.userId } })).points).toBe(0);
    expect(await page.locator('[data-action="orders-refund"]').count()).toBe(0);
    // the memberships list: one running plan, readable by support
    await app.server.db.membership.create({
      data: {
        userId: user.userId,
        orderId: order.body.data.order_id,
        provider: "stripe",
        providerRef: "sub_e2e",
        creditsPerPeriod: 100,
        periodsPaid: 3,
        currentPeriodEnd: new Date(Date.now() + 20 * 86_400_000),
      },
    });
    await navigate(page, "/memberships");
    await page.waitForSelector('td:has-text("sub_e2e"), td:has-text("stripe")');
    await screenshot(page, "console-memberships");
    await page.context().close();
  });

  it("support refunds a JPay order: the dialog says the TON goes back by hand and asks for that transfer's reference", { timeout: 60_000 }, async () => {
    const user = await visitor(app.server);
    const product = await app.server.db.product.findUniqueOrThrow({ where: { code: "credits-100" } });
    const order = await app.server.db.order.create({
      data: {
        orderNo: `RJ${user.userId}`,
        userId: user.userId,
        productId: product.id,
        productName: product.name,
        amountMinor: 999,
        finalPriceMinor: 999,
        currency: "USD",
        credits: 100,
        status: "paid",
        provider: "jpay",
        providerRef: `RJ${user.userId}:3196800000:1`,
        receivedAmount: "3.1968",
        receivedCurrency: "TON",
        paidAt: new Date(),
        expiresAt: new Date(),
      },
    });
    await app.server.services.credits.grant({ userId: user.userId, amount: 100, reason: "purchase", idempotencyKey: `order:${order.id}:paid` });
    const page = await openAs("support", `/orders/${order.id}/show`, { width: 360, height: 740 });
    await page.click('[data-action="orders-refund"]');
    await page.waitForSelector('[data-preview="orders-refund"] [data-return-by-hand]');
    expect(await page.textContent("[data-return-by-hand]")).toContain("3.1968 TON");
    await page.fill('textarea[name="reason"]', "Bought the wrong pack");
    await page.fill('input[name="reference"]', "tx 4f1c2e9ab07d");
    await screenshot(page, "console-order-refund-jpay-dialog");
    // the same dialog in Russian, the console's other language
    await page.click("text=Cancel");
    await page.click('header button:has-text("English")');
    await page.click('li:has-text("Русский")');
    await page.click('[data-action="orders-refund"]');
    await page.waitForSelector('[data-return-by-hand]:has-text("3.1968 TON")');
    await page.fill('textarea[name="reason"]', "Купил не тот пакет");
    await page.fill('input[name="reference"]', "tx 4f1c2e9ab07d");
    await screenshot(page, "console-order-refund-jpay-dialog-ru");
    await page.click('[data-submit="orders-refund"]');
    await expect.poll(async () => (await app.server.db.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("refunded");
    const audit = await app.server.db.auditLog.findFirstOrThrow({ where: { resource: "Order", resourceId: String(order.id) } });
    expect(audit).toMatchObject({
      reason: "Купил не тот пакет",
      after: { credits_taken_back: 100, returned_by_hand: { amount: "3.1968", currency: "TON", reference: "tx 4f1c2e9ab07d" } },
    });
    await page.context().close();
  });

  it("a moderator bans a user from a report: their next call is refused and their content is down", { timeout: 60_000 }, async () => {
    const uploader = await visitor(app.server);
    const reporter = await visitor(app.server);
    const task = await app.server.db.generationTask.create({
      data: { userId: uploader.userId, mode: "image_to_video", engine: "local", status: "succeeded", cost: 1, input: {}, isPublic: true },
    });
    const filed = await app.server.http
      .post("/api/report")
      .set("token", reporter.token)
      .send({ target_type: "task", target_id: task.id, reason: "non_consensual", details: "That is me, I never agreed" })
      .expect(200);
    await app.server.http.get("/api/Personal/personal_info").set("token", uploader.token).expect(200);

    const page = await openAs("moderator", "/reports");
    await page.waitForSelector(`.RaDatagrid-table td:has-text("non_consensual")`);
    await screenshot(page, "console-reports-queue");
    await navigate(page, `/reports/${filed.body.data.id}/show`);
    await page.click('[data-action="reports-ban-uploader"]');
    await page.fill('textarea[name="reason"]', "Non-consensual content confirmed");
    await page.click('[data-submit="reports-ban-uploader"]');
    await page.waitForSelector('.ra-field-status:has-text("actioned")');

    // the session is revoked; the old token earns the ban's reason (docs/decisions/068), not access
    const refused = await app.server.http.get("/api/Personal/personal_info").set("token", uploader.token).expect(403);
    expect(refused.body.data).toMatchObject({ reason: "banned", ban_reason: "Non-consensual content confirmed" });
    expect((await app.server.db.session.findFirstOrThrow({ where: { userId: uploader.userId } })).revokedAt).not.toBeNull();
    expect((await app.server.db.generationTask.findUniqueOrThrow({ where: { id: task.id } })).state).toBe("removed");
    expect((await app.server.db.user.findUniqueOrThrow({ where: { id: uploader.userId } })).bannedAt).not.toBeNull();
    await page.context().close();
  });

  it("a moderator takes a character down from its page", { timeout: 60_000 }, async () => {
    const owner = await visitor(app.server);
    const character = await app.server.db.character.create({
      data: { userId: owner.userId, name: "Copycat", description: "Pretends to be a celebrity", isPublic: true },
    });
    const page = await openAs("moderator", "/characters");
    await page.waitForSelector('.RaDatagrid-table td:has-text("Copycat")');
    await screenshot(page, "console-list-characters-moderator");
    await navigate(page, `/characters/${character.id}/show`);
    await page.click('[data-action="characters-takedown"]');
    await page.fill('textarea[name="reason"]', "Impersonates a real person");
    await page.click('[data-submit="characters-takedown"]');
    await page.waitForSelector('.ra-field-state:has-text("removed")');
    await screenshot(page, "console-character-taken-down");
    expect((await app.server.db.character.findUniqueOrThrow({ where: { id: character.id } })).state).toBe("removed");
    expect(await page.locator('[data-action="characters-takedown"]').count()).toBe(0);

    // and a creator page straight from its row in the list
    const creatorPage = await app.server.db.creatorPage.create({ data: { userId: owner.userId, homeLink: "copycat", title: "Copycat's fan club" } });
    await navigate(page, "/creator-pages");
    const row = page.locator(".RaDatagrid-table tbody tr", { hasText: "Copycat's fan club" });
    await row.locator('[data-action="creator-pages-takedown"]').click();
    await page.fill('textarea[name="reason"]', "Same impersonation");
    await page.click('[data-submit="creator-pages-takedown"]');
    await row.locator('td:has-text("removed")').waitFor();
    expect(page.url()).toMatch(/\/console\/creator-pages$/);
    expect((await app.server.db.creatorPage.findUniqueOrThrow({ where: { id: creatorPage.id } })).state).toBe("removed");
    await page.context().close();
  });

  it("screenshots of the dashboard and every list", { timeout: 120_000 }, async () => {
    const page = await openAs("admin", "");
    await page.waitForSelector(".recharts-surface");
    await page.mouse.move(0, 0);
    await screenshot(page, "console-dashboard");
    let shown = await page.$(".recharts-surface");
    for (const resource of MENUS.admin) {
      // within the app, as its menu moves (a reload per list would time the console's start 40 times over); what the
      // last screen showed leaves first, so its rows are not taken for this one's
      await page.evaluate((to) => {
        window.history.pushState(null, "", to);
        window.dispatchEvent(new PopStateEvent("popstate"));
      }, `/console/${resource}`);
      await page.waitForFunction((el) => !el?.isConnected, shown);
      // every list has seeded rows; the loading bar is gone once they render. The engine status page is no list, and
      // with no chat back end configured here that page says how to set one.
      const ready =
        resource === "engines"
          ? "[data-testid='engines-page']"
          : resource === "operations"
            ? "[data-testid='operations-page']"
            : resource.endsWith("-imports")
              ? "[data-testid='import-page']"
              : resource === "chat-backends"
                ? "[data-testid=chat-backends-empty]"
                : resource === "transparency"
                  ? "[data-card='time-to-action']"
                  : UNSEEDED.includes(resource)
                    ? ".RaList-main, .RaEmpty-message"
                    : ".RaDatagrid-table tbody tr";
      shown = await page.waitForSelector(ready, { timeout: 15_000 });
      if (UNSEEDED.includes(resource)) await page.waitForLoadState("networkidle");
      await screenshot(page, `console-list-${resource}`);
    }
    // the same console in Russian: every label is a translation key
    await navigate(page, "/reports");
    await page.click('header button:has-text("English")');
    await page.click('li:has-text("Русский")');
    await page.waitForSelector('.RaSidebar-fixed a:has-text("Жалобы")');
    await page.waitForSelector('th:has-text("Причина")');
    await screenshot(page, "console-list-reports-ru");
    await page.context().close();
  });
});
