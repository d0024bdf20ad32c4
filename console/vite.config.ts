import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The operator console, served by the API at /console (server/src/admin/console-app.ts). */
export default defineConfig({
  root: here,
  base: "/console/",
  // @vitejs/plugin-react does not install alongside vite 7 here; esbuild's automatic JSX runtime is all the build needs
  esbuild: { jsx: "automatic" },
  build: {
    outDir: path.resolve(here, "../dist/console"),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    rollupOptions: {
      // MUI and react-query mark modules "use client" for server components; meaningless in this browser-only bundle
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
      output: {
        // ra-core's modules import each other through its index: split across the resources' chunks they would import
        // each other in a circle, whose order of execution Rollup cannot promise. The shell needs most of it anyway.
        manualChunks(id) {
          return /node_modules\/ra-core\//.test(id) ? "ra-core" : undefined;
        },
      },
    },
  },
  server: { proxy: { "/admin/api": "http://127.0.0.1:8104" } },
});
