import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["server/src/**/*.test.ts", "tests/**/*.test.ts", "consumer/src/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    pool: "forks",
    // vitest leaves one core free, i.e. runs files one at a time on a 2-core machine; most files wait on PostgreSQL,
    // Chromium or ffmpeg, so two at once finish sooner there (docs/decisions/201)
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default"],
  },
});
