import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { PROJECT_DIR } from "../server/src/paths.ts";

/**
 * `npm run build` (and so `npm start`): builds the server bundle, the consumer app and the console, each only when one
 * of the files it was last built from has changed (decision 061). A build records the project files it read (esbuild's
 * metafile, Rollup's module ids, the public folder) with their content hashes in dist/<target>/.build-inputs.json;
 * packages count through package-lock.json. A file that a build did not read cannot change its output unless a file
 * it did read changes to import it, so the recorded list is the whole truth.
 */
export const TARGETS = ["server", "consumer", "console"] as const;
export type Target = (typeof TARGETS)[number];

/** Files every target depends on besides what its bundler reports. */
const ALWAYS = ["package-lock.json", "scripts/build.ts", "server/build.ts"];
const stampFile = (target: Target) => path.join(PROJECT_DIR, "dist", target, ".build-inputs.json");

async function fingerprint(files: string[]): Promise<string | null> {
  const hash = crypto.createHash("sha256");
  for (const file of [...new Set([...ALWAYS, ...files])].sort()) {
    const content = await fs.readFile(path.join(PROJECT_DIR, file)).catch(() => null);
    if (!content) return null;
    hash.update(file).update("\0").update(crypto.createHash("sha256").update(content).digest());
  }
  return hash.digest("hex");
}

/** True when dist/<target> was built from exactly the files as they are now. */
export async function isBuildFresh(target: Target): Promise<boolean> {
  const stamp = await fs
    .readFile(stampFile(target), "utf8")
    .then((s) => JSON.parse(s) as { files: string[]; fingerprint: string })
    .catch(() => null);
  return stamp !== null && (await fingerprint(stamp.files)) === stamp.fingerprint;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(PROJECT_DIR, path.join(e.parentPath, e.name)));
}

/**
 * Rollup's module ids and the files plugins watch (consumer/vite.config.ts's landing prerender) after the build: the
 * app's own files, without Vite's virtual modules and query suffixes.
 */
function recordInputs(into: Set<string>): Plugin {
  return {
    name: "reverie-record-inputs",
    apply: "build",
    buildEnd() {
      for (const id of [...this.getModuleIds(), ...this.getWatchFiles()]) {
        const file = id.split("?")[0];
        if (!path.isAbsolute(file) || file.includes("/node_modules/") || !file.startsWith(PROJECT_DIR)) continue;
        into.add(path.relative(PROJECT_DIR, file));
      }
    },
  };
}

/**
 * Text files an app's build writes (scripts, styles, HTML, JSON, SVG, the web manifest, the service worker) get Brotli
 * and gzip copies beside them, at the strongest settings since they are made once per build; the server answers each
 * request with the best copy the client accepts (server/src/http/static-files.ts). A copy no smaller than its file is
 * not written.
 */
const precompressed = ({ compression }: typeof import("vite-plugin-compression2")) =>
  compression({ include: /\.(html|css|js|mjs|json|svg|webmanifest|txt|xml)$/, algorithms: ["brotliCompress", "gzip"], logLevel: "silent" });

async function buildApp(app: "consumer" | "console"): Promise<string[]> {
  const inputs = new Set<string>([`${app}/vite.config.ts`, ...(await listFiles(path.join(PROJECT_DIR, app, "public")))]);
  // bundlers load only when something is stale: an up-to-date check stays a fraction of a second
  const [{ build: viteBuild }, compressor] = await Promise.all([import("vite"), import("vite-plugin-compression2")]);
  await viteBuild({
    configFile: path.join(PROJECT_DIR, app, "vite.config.ts"),
    mode: "production",
    logLevel: "warn",
    plugins: [recordInputs(inputs), precompressed(compressor)],
  });
  return [...inputs];
}

/** Builds one target when it is stale; answers whether it built. */
export async function buildTarget(target: Target, force = false): Promise<boolean> {
  if (!force && (await isBuildFresh(target))) return false;
  const files = target === "server" ? await (await import("../server/build.ts")).buildServer() : await buildApp(target);
  const print = await fingerprint(files);
  if (print) await fs.writeFile(stampFile(target), JSON.stringify({ files: files.sort(), fingerprint: print }));
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const named = args.filter((a) => !a.startsWith("--")) as Target[];
  for (const target of named.length ? named : TARGETS) {
    if (!TARGETS.includes(target)) throw new Error(`unknown build target ${target}; one of ${TARGETS.join(", ")}`);
    const started = Date.now();
    const built = await buildTarget(target, force);
    console.log(built ? `built ${target} in ${((Date.now() - started) / 1000).toFixed(1)} s` : `${target} is up to date`);
  }
}
