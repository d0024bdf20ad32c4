import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { captureLandingParams } from "./features/attribution/attribution.ts";
import { startChannelLogin } from "./features/channel/channel-login.ts";
import { registerServiceWorker } from "./features/install/install.ts";
import { initI18n } from "./i18n/index.ts";

captureLandingParams(window.location.search);
registerServiceWorker();
startChannelLogin();
await initI18n();
createRoot(document.getElementById("root")!).render(<App />);
