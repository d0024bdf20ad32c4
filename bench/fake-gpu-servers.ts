import { startFakeComfy } from "../tests/fixtures/fake-comfyui.ts";

/**
 * Child process of comfyui-pool.bench.ts: N fake ComfyUI servers taking a fixed time per job, in a process of their
 * own so that their clocks are not delayed by the pool under measurement. Prints their URLs as one JSON line.
 */
const [count, fixedMs] = process.argv.slice(2).map(Number);
const fakes = await Promise.all(Array.from({ length: count }, () => startFakeComfy({ msPerStep: 0, fixedMs, outputSide: 64 })));
console.log(JSON.stringify(fakes.map((f) => f.url)));
process.on("SIGTERM", () => void Promise.all(fakes.map((f) => f.close())).then(() => process.exit(0)));
