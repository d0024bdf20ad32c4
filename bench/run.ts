import fs from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * `npm run bench`: runs every bench/*.bench.ts in turn (or those named on the command line).
 * Each exports `default async function (): Promise<BenchResult[]>`; results are printed and written to bench/output/.
 */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  target?: string;
  pass?: boolean;
  detail?: Record<string, unknown>;
}

const dir = path.dirname(new URL(import.meta.url).pathname);
const only = process.argv.slice(2);
const files = (await fs.readdir(dir)).filter((f) => f.endsWith(".bench.ts") && (only.length === 0 || only.some((o) => f.includes(o)))).sort();
const all: Record<string, BenchResult[]> = {};
for (const file of files) {
  console.log(`\n## ${file}`);
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: () => Promise<BenchResult[]> };
  const results = await mod.default();
  all[file] = results;
  for (const r of results) {
    const verdict = r.pass === undefined ? "" : r.pass ? "  PASS" : "  MISS";
    console.log(`${r.name}: ${r.value.toFixed(2)} ${r.unit}${r.target ? `  (target ${r.target})` : ""}${verdict}`);
  }
}
await fs.mkdir(path.join(dir, "output"), { recursive: true });
const out = path.join(dir, "output", `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
await fs.writeFile(out, JSON.stringify(all, null, 2));
console.log(`\nwritten to ${out}`);
process.exit(0);
