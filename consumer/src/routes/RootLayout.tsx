import { lazy, Suspense, useEffect, useLayoutEffect, useState } from "react";
import Box from "@mui/material/Box";
import LinearProgress from "@mui/material/LinearProgress";
import { Outlet, useLocation, useNavigation } from "react-router";
import { useAgeConfirmed, useOpenDialog } from "../dialogs/dialog-store.ts";
import { useConsent, useConsentSettingsOpen } from "../features/consent/consent.ts";
import { afterFirstPaint } from "../lib/after-paint.ts";
import { BottomBar } from "../features/site/BottomBar.tsx";
import { Footer } from "../features/site/Footer.tsx";
import { Header } from "../features/site/Header.tsx";
import { useNotice } from "../features/site/notifications.ts";
import { useApiErrorsAsNotices } from "../features/site/useApiErrorsAsNotices.ts";
import type { StoredBanNotice } from "../lib/api-client.ts";
import { storage } from "../lib/storage.ts";
import { lazyView } from "../i18n/index.ts";

const NoticeSnackbar = lazy(() => import("../features/site/NoticeSnackbar.tsx"));
const AgeGateDialog = lazy(() => import("../dialogs/AgeGateDialog.tsx"));
const LoginDialog = lazyView(() => import("../dialogs/LoginDialog.tsx"));
const BuyCreditsDialog = lazyView(() => import("../dialogs/BuyCreditsDialog.tsx"));
const InstallDialog = lazyView(() => import("../dialogs/InstallDialog.tsx"));
const GuestLogoutDialog = lazyView(() => import("../dialogs/GuestLogoutDialog.tsx"));
const SupportBubble = lazy(() => import("../features/support/SupportBubble.tsx").then((m) => ({ default: m.SupportBubble })));
const ConsentBanner = lazy(() => import("../features/consent/ConsentBanner.tsx"));
const BanNoticeDialog = lazyView(() => import("../dialogs/BanNoticeDialog.tsx"));

export function RootLayout() {
  const navigation = useNavigation();
  const { pathname, hash } = useLocation();
  const inChat = pathname.toLowerCase() === "/chat";
  // another screen opens at its top, not at the last one's scroll (a bottom-bar tap left Results 270 px down, issue 46
  // item 12); a change of the query alone (the studio's task) keeps the place, and a #section link is left to its page
  useLayoutEffect(() => {
    if (!hash) window.scrollTo(0, 0);
  }, [pathname]); // eslint-disable-line react-hooks/exhaustive-deps
  const open = useOpenDialog();
  const notice = useNotice();
  const [noticesUsed, setNoticesUsed] = useState(false);
  if (notice && !noticesUsed) setNoticesUsed(true);
  // the gate's code is fetched only for visitors who have not answered it on this device
  const adult = useAgeConfirmed();
  const [askAge] = useState(() => !adult);
  // consent is asked after the age gate, and again whenever the footer opens it
  const consentChoice = useConsent();
  const consentSettings = useConsentSettingsOpen();
  const [painted, setPainted] = useState(false);
  useEffect(() => afterFirstPaint(() => setPainted(true)), []);
  const askConsent = adult && painted && (consentChoice === null || consentSettings);
  // left by the API client when the server answered that this account is banned
  const [banNotice] = useState(() => storage.getJson<StoredBanNotice>("ban_notice"));
  useApiErrorsAsNotices();
  // SPEC.md §4: a payment verification cut short by a reload carries on; its code loads only when one is stored
  useEffect(() => {
    if (storage.get("payment_verification")) void import("../features/payments/verification.ts").then((m) => m.resumePendingVerification());
  }, []);

  return (
    <Box sx={{ minHeight: "100vh", display: "flex", flexDirection: "column" }}>
      {navigation.state === "loading" && <LinearProgress sx={{ position: "fixed", top: 0, left: 0, right: 0, zIndex: 2000, height: 2 }} />}
      <Header />
      <Box component="main" sx={{ flex: 1 }}>
        <Outlet />
      </Box>
      {/* SPEC.md §2: /chat hides the footer; the conversation fills the screen, so the support bubble (which would
          cover the send button) stays off it too */}
      {!inChat && <Footer />}
      <BottomBar />
      {/* the billing-support bubble is no part of any first screen: its code loads after the first paint (its own
          boundary, so its loading never hides a dialog that is open) */}
      {!inChat && painted && (
        <Suspense fallback={null}>
          <SupportBubble />
        </Suspense>
      )}
      <Suspense fallback={null}>
        {noticesUsed && <NoticeSnackbar notice={notice} />}
        {askAge && <AgeGateDialog />}
        {askConsent && <ConsentBanner />}
        {banNotice && !askAge && <BanNoticeDialog notice={banNotice} />}
        {open === "login" && <LoginDialog />}
        {open === "buyCredits" && <BuyCreditsDialog />}
        {open === "install" && <InstallDialog />}
        {open === "logout" && <GuestLogoutDialog />}
      </Suspense>
    </Box>
  );
}
