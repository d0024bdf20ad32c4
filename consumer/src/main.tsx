import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { captureLandingParams } from "./features/attribution/attribution.ts";
import { startChannelLogin } from "./features/channel/channel-login.ts";
import { registerServiceWorker } from "./features/install/install.ts";
import { startPixels, trackPixel } from "./features/pixels/pixels.ts";
import { initI18n } from "./i18n/index.ts";
import { router } from "./routes/router.tsx";

captureLandingParams(window.location.search);
registerServiceWorker();
startChannelLogin();
await initI18n();
createRoot(document.getElementById("root")!).render(<App />);
startPixels();
trackPixelPageViews();

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
