/** The width of one point of the console's request chart. */
export const RECENT_STEP_MS = 5_000;
/** Ten minutes of points. */
export const RECENT_POINTS = 120;

/** Requests and server errors (5xx) per second over one step ending at `at`. */
export interface RecentPoint {
  at: string;
  requests: number;
  errors: number;
}

/**
 * The API requests of the last ten minutes in five-second steps, kept in the process so that the console's chart shows
 * that window as soon as it opens rather than an empty box until its own reads are five seconds apart (issue 46 item
 * 19). Per request the cost is an addition; the steps are a bounded array.
 */
export function createRecentRequests(now: () => number = Date.now) {
  const since = Math.floor(now() / RECENT_STEP_MS) * RECENT_STEP_MS;
  const steps: { start: number; requests: number; errors: number }[] = [];
  return {
    add(status: number) {
      const start = Math.floor(now() / RECENT_STEP_MS) * RECENT_STEP_MS;
      let step = steps.at(-1);
      if (step?.start !== start) {
        step = { start, requests: 0, errors: 0 };
        steps.push(step);
        if (steps.length > RECENT_POINTS) steps.shift();
      }
      step.requests++;
      if (status >= 500) step.errors++;
    },
    /** Every finished step of the window since this process started, oldest first; steps without a request are zeros. */
    window(): RecentPoint[] {
      const current = Math.floor(now() / RECENT_STEP_MS) * RECENT_STEP_MS;
      const byStart = new Map(steps.map((s) => [s.start, s]));
      const points: RecentPoint[] = [];
      for (let start = Math.max(since, current - RECENT_POINTS * RECENT_STEP_MS); start < current; start += RECENT_STEP_MS) {
        const s = byStart.get(start);
        const perSecond = (n = 0) => Math.round((n / (RECENT_STEP_MS / 1000)) * 100) / 100;
        points.push({ at: new Date(start + RECENT_STEP_MS).toISOString(), requests: perSecond(s?.requests), errors: perSecond(s?.errors) });
      }
      return points;
    },
  };
}
