import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { Server } from "node:http";
import { pino } from "pino";
import type { BenchResult } from "./run.ts";
import { createApp } from "../server/src/app.ts";
import { parseConfig } from "../server/src/config.ts";
import { openDatabase } from "../server/src/db/database.ts";
import { launchBrowser } from "../tests/e2e/browser.ts";
import { ensureConsumerBuild } from "../tests/e2e/consumer-app.ts";
import { freePort } from "../tests/net-utils.ts";

const RUNS = 7;
const JS_BUDGET_KB = 200;
const LCP_BUDGET_MS = 1000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * A creator page's first load (issue 16): every script requested from navigation until the page shows its title, so
 * the lazily loaded route and what it needs count too (gzip-compressed, fresh profile).
 */
async function creatorPageFirstLoad(browser: import("playwright-core").Browser, pageUrl: string): Promise<{ kb: number; files: Record<string, number> }> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, serviceWorkers: "block" });
  await context.addInitScript(() => localStorage.setItem("reverie_age_confirmed", "1"));
  const page = await context.newPage();
  const scripts = new Map<string, Promise<number>>();
  page.on("response", (res) => {
    if (res.request().resourceType() === "script")
      scripts.set(
        new URL(res.url()).pathname,
        res.body().then((b) => zlib.gzipSync(b, { level: 9 }).length),
      );
  });
  await page.goto(pageUrl);
  await page.getByTestId("creator-page").getByText("Bench Creator").first().waitFor();
  const sizes = await Promise.all([...scripts.entries()].map(async ([u, size]) => [u, await size] as const));
  await context.close();
  return { kb: sizes.reduce((sum, [, b]) => sum + b, 0) / 1024, files: Object.fromEntries(sizes) };
}

/**
 * First load of /home in headless Chromium over loopback, each run in a fresh profile (empty cache):
 * the JavaScript it requests before its load event (gzip-compressed size, as a compressing proxy or CDN would serve
 * it; what the app fetches after load, such as the rest of English, is not first-load) and its Largest Contentful Paint. The visitor has passed the age gate before (it is remembered), so the page itself is measured.
 */
export default async function consumerBench(): Promise<BenchResult[]> {
  await ensureConsumerBuild();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-consumer-bench-"));
  const config = parseConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), PORT: "0" });
  const log = pino({ level: "silent" });
  const database = await openDatabase(config, log);
  const { app } = createApp({ db: database.db, config, log });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  // a published creator page, for the page's own first load (issue 16)
  const [creator] = await database.db.$queryRaw<{ id: number }[]>`
    INSERT INTO users (uuid, login_type, role, created_at, updated_at) VALUES (gen_random_uuid(), 'registered', 'creator', now(), now()) RETURNING id`;
  await database.db
    .$executeRaw`INSERT INTO creator_pages (user_id, home_link, title, bio, updated_at) VALUES (${creator.id}, 'BenchCreator', 'Bench Creator', 'A page', now())`;
  const browser = await launchBrowser();
  const jsKb: number[] = [];
  const lcps: number[] = [];
  let files: Record<string, number> = {};
  const timings: Array<Record<string, number | string>> = [];
  let creatorPageKb = { kb: Number.NaN, files: {} as Record<string, number> };
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: "block" });
      await context.addInitScript(() => {
        localStorage.setItem("reverie_age_confirmed", "1");
        // the element is kept as each candidate paints: the LCP entry forgets one that has left the page, as the
        // prerendered landing does when React replaces it (docs/decisions/213)
        new PerformanceObserver((list) => {
          const el = (list.getEntries().at(-1) as PerformanceEntry & { element?: Element }).element;
          if (el) (window as Window & { __lcpElement?: Element }).__lcpElement = el;
        }).observe({ type: "largest-contentful-paint", buffered: true });
      });
      const page = await context.newPage();
      const scripts = new Map<string, Promise<number>>();
      const firstLoad = new Set<import("playwright-core").Request>();
      let loaded = false;
      page.on("load", () => (loaded = true));
      page.on("request", (req) => {
        if (!loaded && req.resourceType() === "script") firstLoad.add(req);
      });
      page.on("response", (res) => {
        if (firstLoad.has(res.request()))
          scripts.set(
            res.url(),
            res.body().then((b) => zlib.gzipSync(b, { level: 9 }).length),
          );
      });
      await page.goto(`${url}/home`, { waitUntil: "load" });
      await page.getByTestId("try-guest").waitFor();
      const { lcp, element, fcp, domContentLoaded } = await page.evaluate(
        () =>
          new Promise<{ lcp: number; element: string; fcp: number; domContentLoaded: number }>((resolve) => {
            new PerformanceObserver((list) => {
              const last = list.getEntries().at(-1) as PerformanceEntry & { element?: Element };
              const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
              resolve({
                lcp: last.startTime,
                element: ((el) =>
                  el
                    ? `${el.tagName.toLowerCase()}${el.isConnected ? "" : " (prerendered, since replaced by React)"}: ${(el.textContent ?? "").slice(0, 40)}`
                    : "")(last.element ?? (window as Window & { __lcpElement?: Element }).__lcpElement),
                fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0,
                domContentLoaded: nav.domContentLoadedEventEnd,
              });
            }).observe({ type: "largest-contentful-paint", buffered: true });
          }),
      );
      timings.push({ lcp: Math.round(lcp), fcp: Math.round(fcp), domContentLoaded: Math.round(domContentLoaded), element });
      const sizes = await Promise.all([...scripts.entries()].map(async ([u, size]) => [new URL(u).pathname, await size] as const));
      files = Object.fromEntries(sizes);
      jsKb.push(sizes.reduce((sum, [, s]) => sum + s, 0) / 1024);
      lcps.push(lcp);
      await context.close();
    }
    creatorPageKb = await creatorPageFirstLoad(browser, `${url}/BenchCreator`);
  } finally {
    await browser.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
  const js = Math.max(...jsKb);
  const lcp = median(lcps);
  return [
    {
      name: "consumer /home first-load JavaScript (gzip)",
      value: js,
      unit: "KB",
      target: `<= ${JS_BUDGET_KB} KB`,
      pass: js <= JS_BUDGET_KB,
      detail: { files },
    },
    {
      name: "consumer creator page (/{homeLink}) first-load JavaScript (gzip)",
      value: creatorPageKb.kb,
      unit: "KB",
      target: `<= ${JS_BUDGET_KB} KB`,
      pass: creatorPageKb.kb <= JS_BUDGET_KB,
      detail: { files: creatorPageKb.files },
    },
    {
      name: "consumer /home Largest Contentful Paint (median of 7, loopback)",
      value: lcp,
      unit: "ms",
      target: `<= ${LCP_BUDGET_MS} ms`,
      pass: lcp <= LCP_BUDGET_MS,
      detail: { runs: timings, loadAverage: os.loadavg()[0] },
    },
  ];
}
