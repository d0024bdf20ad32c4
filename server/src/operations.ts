import { METRIC } from "./contract/metrics.ts";
import type { Engines } from "./domains/generation/engines/registry.ts";
import type { GenerationService } from "./domains/generation/generation.service.ts";
import type { ConversionsService } from "./domains/pixels/conversions.service.ts";
import type { Metrics, Sample } from "./metrics/metrics.ts";

/** A server's host and port only: an address may carry credentials (`http://user:secret@gpu1`), never a label. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "unknown";
  }
}

/** Each engine's servers, up (1) or not (0); an engine without servers (the local renderer) is one, up when available. */
async function engineSamples(engines: Engines): Promise<Sample[]> {
  return (await engines.statuses()).flatMap((s) =>
    s.servers?.length
      ? s.servers.map((server) => ({ labels: { engine: s.engine, server: hostOf(server.url) }, values: [server.health === "healthy" ? 1 : 0] }))
      : [{ labels: { engine: s.engine, server: "" }, values: [s.available ? 1 : 0] }],
  );
}

/**
 * The figures measured when scraped, one read each, from the domains that own them: the generation queue, the engines'
 * servers (their health as last checked, cached by the engines) and the conversion outbox.
 */
export function measureOperations(metrics: Metrics, s: { generation: GenerationService; engines: Engines; conversions: ConversionsService }) {
  metrics.measure({
    labelNames: ["state"],
    figures: [
      { name: METRIC.queueJobs, help: "Generation tasks waiting for a worker (queued) and being rendered (running)" },
      { name: METRIC.queueOldest, help: "Seconds the oldest task of each state has been waiting (queued) or rendering (running); 0 when none" },
    ],
    read: async () => (await s.generation.queueFigures()).map((r) => ({ labels: { state: r.state }, values: [r.jobs, r.oldest_seconds] })),
  });
  metrics.measure({
    labelNames: ["engine", "server"],
    figures: [{ name: METRIC.engineUp, help: "Whether each engine server is up (1) or down (0), as last checked" }],
    read: () => engineSamples(s.engines),
  });
  metrics.measure({
    labelNames: [],
    figures: [
      { name: METRIC.outbox, help: "Server-side conversions waiting in the outbox to be delivered" },
      { name: METRIC.outboxOldest, help: "Seconds the oldest waiting conversion has waited; 0 when none" },
    ],
    read: async () => {
      const b = await s.conversions.backlog();
      return [{ labels: {}, values: [b.pending, b.oldest_seconds] }];
    },
  });
}
