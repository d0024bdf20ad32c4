import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { captureLandingParams } from "./features/attribution/attribution.ts";
import { startChannelLogin } from "./features/channel/channel-login.ts";
import { registerServiceWorker } from "./features/install/install.ts";
import { startPixels, trackPixel } from "./features/pixels/pixels.ts";
import { loadBrand } from "./features/site/brand.ts";
import { initI18n, applyDefaultLanguage } from "./i18n/index.ts";
import { router } from "./routes/router.tsx";
import { themeFor } from "./theme.ts";

captureLandingParams(window.location.search);
registerServiceWorker();
startChannelLogin();
void start();

/**
 * Not top-level await: Rollup keeps every module that the entry shares with a lazy route in a chunk of its own when the
 * entry awaits at its top level (to avoid a cycle through the awaited imports), so the first load fetched some 40
 * files of a few hundred bytes, each with its headers (issue 48, docs/decisions/387).
 */
async function start(): Promise<void> {
  // the operator's brand is asked beside the router's first data, not before it: no round trip is added (decision 289)
  const brandLoaded = loadBrand();
  await initI18n();
  // #root may hold the landing prerendered into index.html (docs/decisions/213). React's first commit empties it, so it
  // waits for the router's first route and data: that commit is the whole page in one frame, never a blank one.
  await routerReady();
  const brand = await brandLoaded;
  await applyDefaultLanguage(brand.language);
  createRoot(document.getElementById("root")!).render(<App theme={themeFor(brand)} />);
  startPixels();
  trackPixelPageViews();
}

function routerReady(): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

/** One page_view per route the visitor sees (the app changes routes without loading pages). */
function trackPixelPageViews(): void {
  let last = "";
  const onRoute = () => {
    const path = router.state.location.pathname;
    if (path === last || router.state.navigation.state !== "idle") return;
    last = path;
    trackPixel("page_view");
  };
  router.subscribe(onRoute);
  onRoute();
}
