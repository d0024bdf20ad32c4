import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { METRIC, type JobOutcome, type LedgerDirection, type NotificationOutcome } from "../contract/metrics.ts";
import { createRecentRequests } from "./metrics.recent.ts";

/** One value a figure measured when scraped, with its labels. */
export interface Sample {
  labels: Record<string, string>;
  /** One value per figure of {@link Measured}, in its order. */
  values: number[];
}

/** Figures measured together by one read (one query) each time they are scraped. */
export interface Measured {
  labelNames: string[];
  figures: { name: string; help: string }[];
  read: () => Promise<Sample[]>;
}

/** A scrape's figures read once, however many gauges of the read are collected in that scrape. */
const READ_KEPT_MS = 500;

/**
 * The process's operations figures in one prom-client registry (its own, not prom-client's global one: every app a test
 * builds has its own). Knows no domain: domains are handed the small recorders below, and what is measured at scrape
 * time is registered with {@link Metrics.measure} by the wiring. Per request the cost is one histogram observation.
 */
export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  const http = new Histogram({
    name: METRIC.httpDuration,
    help: "API requests by route pattern (never the URL), method and status, and how long each took",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  /** Bounded: methods, route patterns and statuses are few. */
  const httpChildren = new Map<string, ReturnType<typeof http.labels>>();
  const recentRequests = createRecentRequests();
  const jobs = new Counter({ name: METRIC.jobs, help: "Generation job attempts by engine and how they ended", labelNames: ["engine", "outcome"], registers });
  const render = new Histogram({
    name: METRIC.renderSeconds,
    help: "Seconds from a task's first start to its result, by engine (succeeded tasks)",
    labelNames: ["engine"],
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200],
    registers,
  });
  const streaming = new Gauge({ name: METRIC.chatStreaming, help: "Chat replies being streamed from a back end now", registers });
  const chatErrors = new Counter({ name: METRIC.chatErrors, help: "Chat back-end calls that failed, by back end", labelNames: ["backend"], registers });
  const notifications = new Counter({
    name: METRIC.notifications,
    help: "Payment provider notifications received, by provider and outcome",
    labelNames: ["provider", "outcome"],
    registers,
  });
  const ledger = new Counter({ name: METRIC.ledger, help: "Credits moved through the ledger, by direction", labelNames: ["direction"], registers });

  return {
    registry,
    http: {
      observe(method: string, route: string, status: number, seconds: number) {
        // one child per label set, kept: prom-client otherwise hashes the labels object on every observation
        const key = `${method} ${status} ${route}`;
        let child = httpChildren.get(key);
        if (!child) {
          child = http.labels(method, route, String(status));
          httpChildren.set(key, child);
        }
        child.observe(seconds);
        recentRequests.add(status);
      },
      /** Requests and 5xx answers per second in each five seconds of the last ten minutes (the console's chart). */
      recent: () => recentRequests.window(),
    },
    jobs: {
      ended(engine: string, outcome: JobOutcome, renderSeconds?: number) {
        jobs.inc({ engine, outcome });
        if (renderSeconds !== undefined) render.observe({ engine }, renderSeconds);
      },
    },
    chat: {
      streamStarted: () => streaming.inc(),
      streamEnded: () => streaming.dec(),
      backendFailed: (backend: string) => chatErrors.inc({ backend }),
    },
    payments: { notification: (provider: string, outcome: NotificationOutcome) => notifications.inc({ provider, outcome }) },
    ledger: {
      moved(direction: LedgerDirection, credits: number) {
        if (credits > 0) ledger.inc({ direction }, credits);
      },
    },
    /** Registers gauges whose values one read measures when they are scraped. */
    measure(m: Measured) {
      let last: { at: number; samples: Promise<Sample[]> } | undefined;
      const samples = () => {
        if (!last || performance.now() - last.at > READ_KEPT_MS) last = { at: performance.now(), samples: m.read() };
        return last.samples;
      };
      m.figures.forEach((f, i) => {
        new Gauge({
          name: f.name,
          help: f.help,
          labelNames: m.labelNames,
          registers,
          async collect() {
            const read = await samples();
            this.reset();
            for (const s of read) this.set(s.labels, s.values[i] ?? 0);
          },
        });
      });
    },
    /** The Prometheus text exposition of every figure. */
    text: () => registry.metrics(),
    contentType: registry.contentType,
    /** Every figure's samples as plain values (histograms as their count and sum), for the console's operations page. */
    async snapshot(): Promise<{ name: string; labels: Record<string, string>; value: number }[]> {
      const all = await registry.getMetricsAsJSON();
      return all.flatMap((m) =>
        m.values
          .filter((v) => !("le" in v.labels))
          .map((v) => ({
            name: (v as { metricName?: string }).metricName ?? m.name,
            labels: Object.fromEntries(Object.entries(v.labels).map(([k, l]) => [k, String(l)])),
            value: v.value,
          })),
      );
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
/** What each domain records. */
export type JobMetrics = Metrics["jobs"];
export type ChatMetrics = Metrics["chat"];
export type PaymentMetrics = Metrics["payments"];
export type LedgerMetrics = Metrics["ledger"];
