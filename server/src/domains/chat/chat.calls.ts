import type { Logger } from "pino";
import type pg from "pg";
import type { Db } from "../../db/client.ts";
import type { BackendCall, ChatBackends } from "./backends/registry.ts";
import { backendStats, recordBackendCalls } from "./chat.queries.ts";

/** Back-end calls: recorded as they end, counted for the console. */
export function createBackendCalls(o: { db: Db; pool: pg.Pool; log: Logger; failed: (backend: string) => void }) {
  /**
   * The calls that end in one turn of the event loop are written in one statement, since replies started together
   * end together (200 at once in the chat bench, decision 227).
   */
  let unrecorded: BackendCall[] = [];
  function record(c: BackendCall) {
    if (!c.ok) o.failed(c.backend);
    if (!unrecorded.length) setImmediate(writeCalls);
    unrecorded.push(c);
  }
  function writeCalls() {
    const calls = unrecorded;
    unrecorded = [];
    recordBackendCalls.rows(o.pool, { calls }).catch((err: unknown) => o.log.warn({ err }, "could not record chat back-end calls"));
  }

  const rounded = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : Math.round(ms));

  /** Per configured back end over the last `hours`: requests, errors, tokens and latency, for the console. */
  async function status(backends: ChatBackends, hours = 24) {
    const rows = await backendStats.rows(o.db, { since: new Date(Date.now() - hours * 3600_000) });
    const seen = new Map(rows.map((r) => [r.backend, r]));
    const configured = backends.names();
    return {
      configured: configured.length > 0,
      hours,
      backends: configured.map((b) => {
        const r = seen.get(b.name);
        return {
          id: b.name,
          name: b.name,
          model: b.model,
          tiers: b.tiers,
          base_url: b.baseUrl,
          requests: r?.requests ?? 0,
          errors: r?.errors ?? 0,
          prompt_tokens: r?.prompt_tokens ?? 0,
          completion_tokens: r?.completion_tokens ?? 0,
          p50_first_token_ms: rounded(r?.p50_first_ms),
          p95_first_token_ms: rounded(r?.p95_first_ms),
          avg_total_ms: rounded(r?.avg_total_ms),
          last_error: r?.last_error ?? null,
        };
      }),
    };
  }

  return { record, status };
}
