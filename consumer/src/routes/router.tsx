import { createBrowserRouter, redirect, type LoaderFunction } from "react-router";
import { session } from "../features/session/session.ts";
import { followCityRedirect } from "../features/site/city-redirect.ts";
import { storage } from "../lib/storage.ts";
import { PAYMENT_CALLBACK_ROUTES } from "../features/payments/providers.ts";

import { RootLayout } from "./RootLayout.tsx";
import { RouteError } from "./RouteError.tsx";
import { withLaterTranslations } from "../i18n/index.ts";

/** The route guard (SPEC.md §2): user info is loaded before every navigation; the first also asks redirectByCity. */
const loadUserBeforeNavigation: LoaderFunction = async () => {
  followCityRedirect();
  try {
    await session.loadUser();
  } catch {
    // the client has already shown the error (or is reloading after a 401); the page itself can still render
  }
  return null;
};

/** SPEC.md §6: /function needs a stored token. */
const requireStoredToken: LoaderFunction = () => (storage.get("token") ? null : redirect("/home"));

export const router = createBrowserRouter([
  {
    id: "root",
    path: "/",
    element: <RootLayout />,
    errorElement: <RouteError />,
    loader: loadUserBeforeNavigation,
    shouldRevalidate: () => true,
    HydrateFallback: () => null,
    children: [
      { index: true, loader: () => redirect("/home") },
      // the landing page ships with the first load: one round trip less before the largest paint
      { path: "home", lazy: () => import("./HomePage.tsx") },
      { path: "function", loader: requireStoredToken, lazy: () => withLaterTranslations(import("./FunctionPage.tsx")) },
      // issue 30: the account area under the avatar, and one paid order's receipt
      { path: "account", loader: requireStoredToken, lazy: () => withLaterTranslations(import("./AccountPage.tsx")) },
      { path: "account/receipt/:orderId", loader: requireStoredToken, lazy: () => withLaterTranslations(import("./ReceiptPage.tsx")) },
      { path: "creationStudio", lazy: () => withLaterTranslations(import("./CreationStudioPage.tsx")) },
      { path: "chat", lazy: () => withLaterTranslations(import("./ChatPage.tsx")) },
      { path: "messages", loader: requireStoredToken, lazy: () => withLaterTranslations(import("./MessagesPage.tsx")) },
      { path: "characterCreatEdit", lazy: () => withLaterTranslations(import("./CharacterEditPage.tsx")) },
      { path: "training", lazy: () => withLaterTranslations(import("./TrainingPage.tsx")) },
      // issue 30: "Create my page" without training ("creator" is a reserved home link, so no page is hidden by it)
      { path: "creator", lazy: () => withLaterTranslations(import("./CreatorNewPage.tsx")) },
      { path: "agreement", lazy: () => withLaterTranslations(import("./AgreementPage.tsx")) },
      { path: "payment", lazy: () => withLaterTranslations(import("./PaymentPage.tsx")) },
      { path: "googleCallback", lazy: () => withLaterTranslations(import("./GoogleCallbackPage.tsx")) },
      ...PAYMENT_CALLBACK_ROUTES.map((path) => ({ path, lazy: () => withLaterTranslations(import("./PaymentCallbackPage.tsx")) })),
      // SPEC.md §2 marketer test pages (ad pixels, ad conversion tracking, Google Ads tool): one lazy screen
      ...["pixel-optimization-test", "ad-conversion-test", "google-ads-tool"].map((path) => ({
        path,
        lazy: () => withLaterTranslations(import("./PixelTestPage.tsx")),
      })),
      // issue 19: the public notice-and-action form and the statements of reasons with their appeals
      { path: "report-content", lazy: () => withLaterTranslations(import("./ReportContentPage.tsx")) },
      { path: "notices", lazy: () => withLaterTranslations(import("./NoticesPage.tsx")) },
      // issue 33 item 8: the public provenance check of a file or link ("Was this made with Reverie?")
      { path: "provenance", lazy: () => withLaterTranslations(import("./ProvenancePage.tsx")) },
      // issue 30 item 6: my data out, my account gone (the account area may place the same section among its own)
      { path: "myData", lazy: () => withLaterTranslations(import("./MyDataPage.tsx")) },
      // issue 32 item 7: the email digest's link stops digests without signing in
      { path: "unsubscribe", lazy: () => withLaterTranslations(import("./UnsubscribePage.tsx")) },
      { path: "401", lazy: () => withLaterTranslations(import("./NoPermissionPage.tsx")) },
      // SPEC.md §2 /{dynamicPath}: a creator's home link (any fixed route above wins over it)
      // only the page's own texts: a fan opening a shared link does not download every screen's (issue 16)
      { path: ":homeLink", lazy: () => withLaterTranslations(import("./CreatorHomePage.tsx"), ["creatorPage"]) },
      { path: "*", lazy: () => withLaterTranslations(import("./NotFoundPage.tsx")) },
    ],
  },
]);
