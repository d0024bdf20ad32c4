import path from "node:path";
import { fileURLToPath } from "node:url";
import fs from "node:fs";
import { defineConfig, runnerImport, type Plugin } from "vite";
import { LATER_GROUP_NAMES, splitLocale, type LaterGroup } from "./src/i18n/later-namespaces.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const apiTarget = `http://127.0.0.1:${process.env.PORT ?? "8105"}`;

/**
 * `locales/en.json?first` and `?later-<group>`: the English texts split by namespace (src/i18n/later-namespaces.ts), so
 * the first load carries only what the landing page shows. Vite's JSON plugin then turns each part into a module.
 */
function localeHalves(): Plugin {
  const groups = LATER_GROUP_NAMES as string[];
  return {
    name: "reverie-locale-halves",
    enforce: "pre",
    load(id) {
      const m = /^(.*\.json)\?(first|later-(\w+))$/.exec(id);
      if (!m || (m[3] && !groups.includes(m[3]))) return null;
      return JSON.stringify(splitLocale(JSON.parse(fs.readFileSync(m[1], "utf8")) as Record<string, unknown>, (m[3] as LaterGroup | undefined) ?? "first"));
    },
  };
}

/**
 * MUI's CSS-variables theming (createThemeWithVars, CssVarsProvider and its colour-scheme manager) is reachable from
 * `createTheme` and `ThemeProvider` even for a theme without CSS variables, so every page carried about 7 KB gzip of it
 * (docs/decisions/214). The app's theme has neither `cssVariables` nor `colorSchemes`, so MUI takes the plain path;
 * these two internal imports resolve to stand-ins that fail loudly should a theme ever ask for variables.
 */
function withoutMuiCssVariables(): Plugin {
  const standIns: Record<string, string> = {
    "./createThemeWithVars.js": "export default function createThemeWithVars() { throw new Error(NEEDS); }",
    "./ThemeProviderWithVars.js": "export function CssVarsProvider() { throw new Error(NEEDS); }",
  };
  const needs = `const NEEDS = "MUI CSS variables are left out of the consumer build (consumer/vite.config.ts, docs/decisions/214)";`;
  const prefix = "\0mui-without-css-variables:";
  return {
    name: "reverie-mui-without-css-variables",
    enforce: "pre",
    resolveId(source, importer) {
      if (!importer || !/[\\/]@mui[\\/]material[\\/]esm[\\/]styles[\\/](createTheme|ThemeProvider)\.js$/.test(importer)) return null;
      return source in standIns ? prefix + source : null;
    },
    load(id) {
      return id.startsWith(prefix) ? `${needs}\n${standIns[id.slice(prefix.length)]}` : null;
    },
  };
}

/**
 * The landing page's first screen, rendered at build time into index.html right after the root element (templates and
 * an inline script that picks the stored language; consumer/src/features/landing/prerender.tsx, docs/decisions/213).
 * Texts come from the locale files through the same keys the components look up.
 */
function prerenderedLanding(): Plugin {
  const renderer = path.join(here, "src/features/landing/prerender.tsx");
  const placeholder = "<!-- prerendered landing -->";
  return {
    name: "reverie-prerendered-landing",
    // the dev server serves the app without it (importing the renderer takes seconds; the placeholder stays a comment)
    apply: "build",
    buildStart() {
      // the renderer is no module of the app: the build's input list (scripts/build.ts) learns of it here
      this.addWatchFile(renderer);
    },
    async transformIndexHtml(html) {
      if (!html.includes(placeholder)) throw new Error(`index.html lacks ${placeholder}`);
      const { module } = await runnerImport<{ renderLanding(): Promise<string> }>(renderer, {
        configFile: false,
        root: here,
        logLevel: "error",
        esbuild: { jsx: "automatic" },
        plugins: [localeHalves()],
      });
      return html.replace(placeholder, await module.renderLanding());
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
  plugins: [localeHalves(), withoutMuiCssVariables(), prerenderedLanding()],
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
