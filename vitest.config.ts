import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Three tiers (docs/decisions/232): `unit` (no database, no browser, no child process: `*.unit.test.ts`), `api` (a
 * database cloned from the run's migrated template, the API in process, real child processes) and `browser` (the built
 * apps in Chromium). `npm test` runs all three; `npm run test:unit` / `test:api` / `test:browser` one of them.
 */
const UNIT = ["server/src/**/*.unit.test.ts", "tests/**/*.unit.test.ts", "consumer/src/**/*.unit.test.ts"];
const BROWSER = ["tests/e2e/**/*.test.ts"];
const WORKERS = Math.max(3, availableParallelism() + 1);

export default defineConfig({
  test: {
    pool: "forks",
    // the files of a worker share its loaded modules (the app's ~300, Prisma's client, the test helpers): importing them
    // again for every file was the largest fixed cost of an API or browser test file. One pool serves every project and
    // takes its isolation from here, so it is set here, and the api and browser projects inherit it (docs/decisions/321)
    isolate: false,
    // most files wait on PostgreSQL, Chromium, ffmpeg or a fake server's time-out more than they compute: three at once
    // on a 2-core machine still finish sooner than two (docs/decisions/201, 232)
    maxWorkers: WORKERS,
    // and keeps them: a pool that may stop idle workers stopped one a file had just been handed to ("Terminating worker
    // thread") when files shared workers (docs/decisions/321)
    minWorkers: WORKERS,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    projects: [
      { extends: true, test: { name: "unit", include: UNIT, isolate: true } },
      {
        extends: true,
        test: {
          name: "api",
          include: ["server/src/**/*.test.ts", "tests/**/*.test.ts", "consumer/src/**/*.test.ts"],
          exclude: [...UNIT, ...BROWSER],
          globalSetup: ["tests/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: BROWSER,
          // above Playwright's own 30 s: a step that waits in vain fails with its locator and call log, not as a bare
          // "test timed out" that names no step
          testTimeout: 45_000,
          globalSetup: ["tests/global-setup.ts", "tests/e2e/browser-setup.ts"],
          setupFiles: ["tests/e2e/page-errors.setup.ts"],
        },
      },
    ],
  },
});
