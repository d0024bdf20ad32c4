import { describe, expect, it } from "vitest";
import { createRecentRequests, RECENT_POINTS, RECENT_STEP_MS } from "./metrics.recent.ts";

describe("the last ten minutes of API requests (the console's chart, issue 46 item 19)", () => {
  it("answers every finished five seconds since the start at once, as rates per second, zeros where nothing came", () => {
    let clock = Date.parse("2026-12-07T12:00:00.000Z");
    const recent = createRecentRequests(() => clock);
    expect(recent.window()).toEqual([]);
    for (const status of [200, 200, 500, 404, 503]) recent.add(status);
    clock += RECENT_STEP_MS;
    recent.add(200);
    clock += 3 * RECENT_STEP_MS + 1_000;
    expect(recent.window()).toEqual([
      { at: "2026-12-07T12:00:05.000Z", requests: 1, errors: 0.4 },
      { at: "2026-12-07T12:00:10.000Z", requests: 0.2, errors: 0 },
      { at: "2026-12-07T12:00:15.000Z", requests: 0, errors: 0 },
      { at: "2026-12-07T12:00:20.000Z", requests: 0, errors: 0 },
    ]);
  });

  it("keeps ten minutes: older steps leave the window", () => {
    let clock = Date.parse("2026-12-07T12:00:00.000Z");
    const recent = createRecentRequests(() => clock);
    for (let i = 0; i < RECENT_POINTS + 30; i++) {
      recent.add(200);
      clock += RECENT_STEP_MS;
    }
    const window = recent.window();
    expect(window).toHaveLength(RECENT_POINTS);
    expect(window.every((p) => p.requests === 0.2)).toBe(true);
    expect(window.at(-1)!.at).toBe(new Date(clock).toISOString());
  });
});
