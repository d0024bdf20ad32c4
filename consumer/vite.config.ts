import path from "node:path";
import { fileURLToPath } from "node:url";
import fs from "node:fs";
import { defineConfig, type Plugin } from "vite";
import { splitLocale } from "./src/i18n/later-namespaces.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const apiTarget = `http://127.0.0.1:${process.env.PORT ?? "8105"}`;

/**
 * `locales/en.json?first` and `?later`: the English texts split by namespace (src/i18n/later-namespaces.ts), so the
 * first load carries only what the landing page shows. Vite's JSON plugin then turns each half into a module.
 */
function localeHalves(): Plugin {
  return {
    name: "reverie-locale-halves",
    enforce: "pre",
    load(id) {
      const m = /^(.*\.json)\?(first|later)$/.exec(id);
      if (!m) return null;
      return JSON.stringify(splitLocale(JSON.parse(fs.readFileSync(m[1], "utf8")) as Record<string, unknown>, m[2] === "later"));
    },
  };
}

/**
 * The consumer app. JSX goes through Vite's own esbuild transform (no React plugin: it does not install with
 * Vite 7 here, see docs/decisions/040). The build lands in dist/consumer, which the API process serves at `/`.
 */
export default defineConfig({
  root: here,
  base: "/",
  publicDir: path.join(here, "public"),
  esbuild: { jsx: "automatic" },
  plugins: [localeHalves()],
  build: {
    outDir: path.resolve(here, "../dist/consumer"),
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    reportCompressedSize: false,
    rollupOptions: {
      // MUI marks modules "use client" for server components; meaningless in this browser-only bundle
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
      output: {
        manualChunks(id) {
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return "react";
          if (/node_modules\/react-router\//.test(id)) return "router";
          if (/node_modules\/(i18next|react-i18next)\//.test(id)) return "i18n";
          return undefined;
        },
      },
    },
  },
  server: {
    port: 5105,
    strictPort: true,
    proxy: {
      "/api": { target: apiTarget, changeOrigin: false },
      "/sandbox-pay": { target: apiTarget, changeOrigin: false },
      // TON Connect reads the app manifest the API serves (docs/decisions/211)
      "/tonconnect-manifest.json": { target: apiTarget, changeOrigin: false },
    },
  },
});
