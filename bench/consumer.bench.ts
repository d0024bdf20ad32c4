import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import type { BenchResult } from "./run.ts";
import { buildTarget } from "../scripts/build.ts";
import { embeddedUrl } from "../server/src/db/embedded.ts";
import { launchBrowser } from "../tests/e2e/browser.ts";
import { freePort } from "../tests/net-utils.ts";
import { interrupt, spawnReverie, waitForHealth } from "../tests/process-utils.ts";

const LOOPBACK_RUNS = 7;
const PHONE_RUNS = 3;
const SCRIPT_BUDGET_KB = 200;
const CONSOLE_BUDGET_KB = 450;
const LCP_BUDGET_MS = 1000;
const PHONE_LCP_MS = 2500;
const PHONE_TAPPABLE_MS = 3500;

/** A slow 4G link and a mid-range phone's CPU (issue 48): 1.6 Mbps down, 750 kbps up, 150 ms round trip, 4× slower. */
const PHONE = { latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8, cpuSlowdown: 4 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** A page to load: where, and the element that shows it is usable (a button whose React handler is attached). */
interface Target {
  name: string;
  path: string;
  ready: string;
}

/**
 * Bytes that crossed the wire for everything a page requested, per resource type, as Chromium's network layer counts
 * them (`encodedDataLength`: the body as sent, compressed or not, plus the response headers).
 */
async function wireCounter(cdp: CDPSession): Promise<() => Record<string, number>> {
  const types = new Map<string, string>();
  const bytes: Record<string, number> = {};
  cdp.on("Network.responseReceived", (e) => types.set(e.requestId, e.type));
  cdp.on("Network.loadingFinished", (e) => {
    const type = types.get(e.requestId) ?? "Other";
    bytes[type] = (bytes[type] ?? 0) + e.encodedDataLength;
  });
  await cdp.send("Network.enable");
  return () => ({ ...bytes });
}

async function freshPage(browser: Browser, phone: boolean): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession }> {
  const context = await browser.newContext({
    viewport: phone ? { width: 360, height: 740 } : { width: 1280, height: 800 },
    isMobile: phone,
    hasTouch: phone,
    serviceWorkers: "block",
  });
  // the visitor passed the age gate before (it is remembered), so the page itself is measured
  await context.addInitScript(() => localStorage.setItem("reverie_age_confirmed", "1"));
  const page = await context.newPage();
  return { context, page, cdp: await context.newCDPSession(page) };
}

/**
 * Waits until `selector` names an enabled element React has attached its handlers to (the prerendered landing shows the
 * button before that, and a tap on it then does nothing); answers the page's clock at that moment.
 */
async function tappableAt(page: Page, selector: string): Promise<number> {
  const handle = await page.waitForFunction(
    (sel) => {
      const el = document.querySelector(sel) as HTMLButtonElement | HTMLInputElement | null;
      if (!el || el.disabled || !Object.keys(el).some((k) => k.startsWith("__reactProps"))) return false;
      return performance.now();
    },
    selector,
    { polling: "raf", timeout: 60_000 },
  );
  return (await handle.jsonValue()) as number;
}

async function largestContentfulPaint(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => resolve(list.getEntries().at(-1)?.startTime ?? Number.NaN)).observe({
          type: "largest-contentful-paint",
          buffered: true,
        });
      }),
  );
}

/** One first load in a fresh profile: bytes on the wire by type until the page is usable, its LCP and that moment. */
async function firstLoad(browser: Browser, url: string, target: Target, phone: boolean) {
  const { context, page, cdp } = await freshPage(browser, phone);
  try {
    const counted = await wireCounter(cdp);
    if (phone) {
      await cdp.send("Network.emulateNetworkConditions", { offline: false, ...PHONE });
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: PHONE.cpuSlowdown });
    }
    await page.goto(`${url}${target.path}`, { waitUntil: "load", timeout: 120_000 });
    const tappable = await tappableAt(page, target.ready);
    const lcp = await largestContentfulPaint(page);
    return { bytes: counted(), tappable, lcp };
  } finally {
    await context.close();
  }
}

/**
 * What a person receives from `npm start` (node dist/server/main.js, as `npm start` execs it, on a fresh DATA_DIR):
 * bytes on the wire for /home, the studio, a creator page and the console's sign-in, each in a fresh profile; /home's
 * Largest Contentful Paint over loopback; and /home and a creator page on a throttled phone profile.
 */
export default async function consumerBench(): Promise<BenchResult[]> {
  for (const target of ["server", "consumer", "console"] as const) await buildTarget(target);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-consumer-bench-"));
  const pgPort = await freePort();
  const server = spawnReverie({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) });
  let browser: Browser | undefined;
  try {
    await waitForHealth(server, 120_000);
    const url = server.url;
    // a published creator page, for the page's own first load (issue 16)
    const db = new pg.Client({ connectionString: await embeddedUrl(path.join(dataDir, "pg"), pgPort) });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: number }>(
        "INSERT INTO users (uuid, login_type, role, created_at, updated_at) VALUES (gen_random_uuid(), 'registered', 'creator', now(), now()) RETURNING id",
      );
      await db.query("INSERT INTO creator_pages (user_id, home_link, title, bio, updated_at) VALUES ($1, 'BenchCreator', 'Bench Creator', 'A page', now())", [
        rows[0].id,
      ]);
    } finally {
      await db.end();
    }
    browser = await launchBrowser();
    const home: Target = { name: "/home", path: "/home", ready: '[data-testid="try-guest"]' };
    const creator: Target = { name: "creator page (/{homeLink})", path: "/BenchCreator", ready: '[data-testid="creator-subscribe"]' };
    const targets: Target[] = [
      home,
      { name: "studio (/creationStudio)", path: "/creationStudio", ready: '[data-testid="studio-try-guest"], [data-testid="generate"]' },
      creator,
      { name: "console sign-in (/console/login)", path: "/console/login", ready: 'input[name="username"]' },
    ];
    const wire: Record<string, Record<string, number>> = {};
    for (const target of targets) wire[target.name] = (await firstLoad(browser, url, target, false)).bytes;

    const loopback = [];
    for (let i = 0; i < LOOPBACK_RUNS; i++) loopback.push(await firstLoad(browser, url, home, false));
    const phone: Record<string, { lcp: number[]; tappable: number[] }> = {};
    for (const target of [home, creator]) {
      phone[target.name] = { lcp: [], tappable: [] };
      for (let i = 0; i < PHONE_RUNS; i++) {
        const run = await firstLoad(browser, url, target, true);
        phone[target.name].lcp.push(Math.round(run.lcp));
        phone[target.name].tappable.push(Math.round(run.tappable));
      }
    }

    const scriptKb = (name: string) => kb(wire[name].Script ?? 0);
    const allKb = (name: string) => kb(Object.values(wire[name]).reduce((a, b) => a + b, 0));
    const lcp = median(loopback.map((r) => r.lcp));
    const results: BenchResult[] = targets.map((t) => {
      const budget = t === home || t === creator ? SCRIPT_BUDGET_KB : t.path.startsWith("/console") ? CONSOLE_BUDGET_KB : undefined;
      const value = scriptKb(t.name);
      return {
        name: `npm start ${t.name}: script on the wire (fresh profile)`,
        value,
        unit: "KB",
        ...(budget === undefined ? {} : { target: `<= ${budget} KB`, pass: value <= budget }),
        detail: { everythingKb: allKb(t.name), byTypeKb: Object.fromEntries(Object.entries(wire[t.name]).map(([k, v]) => [k, kb(v)])) },
      };
    });
    results.push({
      name: `npm start /home Largest Contentful Paint (median of ${LOOPBACK_RUNS}, loopback)`,
      value: lcp,
      unit: "ms",
      target: `<= ${LCP_BUDGET_MS} ms`,
      pass: lcp <= LCP_BUDGET_MS,
      detail: { runs: loopback.map((r) => Math.round(r.lcp)), loadAverage: os.loadavg()[0] },
    });
    for (const t of [home, creator]) {
      const runs = phone[t.name];
      const button = t === home ? "Generate (try as a guest)" : "Subscribe";
      results.push(
        {
          name: `phone profile ${t.name} Largest Contentful Paint (median of ${PHONE_RUNS})`,
          value: median(runs.lcp),
          unit: "ms",
          target: `<= ${PHONE_LCP_MS} ms`,
          pass: median(runs.lcp) <= PHONE_LCP_MS,
          detail: { runs: runs.lcp, profile: PHONE, loadAverage: os.loadavg()[0] },
        },
        {
          name: `phone profile ${t.name} time until ${button} can be tapped (median of ${PHONE_RUNS})`,
          value: median(runs.tappable),
          unit: "ms",
          target: `<= ${PHONE_TAPPABLE_MS} ms`,
          pass: median(runs.tappable) <= PHONE_TAPPABLE_MS,
          detail: { runs: runs.tappable, profile: PHONE },
        },
      );
    }
    return results;
  } finally {
    await browser?.close();
    await interrupt(server);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
