import { lazy, Suspense, useEffect, useState } from "react";
import Box from "@mui/material/Box";
import LinearProgress from "@mui/material/LinearProgress";
import { Outlet, useLocation, useNavigation } from "react-router";
import { useOpenDialog } from "../dialogs/dialog-store.ts";
import { resumePendingVerification } from "../features/payments/verification.ts";
import { BottomBar } from "../features/site/BottomBar.tsx";
import { Footer } from "../features/site/Footer.tsx";
import { Header } from "../features/site/Header.tsx";
import { useNotice } from "../features/site/notifications.ts";
import { useApiErrorsAsNotices } from "../features/site/useApiErrorsAsNotices.ts";
import { SupportBubble } from "../features/support/SupportBubble.tsx";
import { storage } from "../lib/storage.ts";

const NoticeSnackbar = lazy(() => import("../features/site/NoticeSnackbar.tsx"));
const AgeGateDialog = lazy(() => import("../dialogs/AgeGateDialog.tsx"));
const LoginDialog = lazy(() => import("../dialogs/LoginDialog.tsx"));
const BuyCreditsDialog = lazy(() => import("../dialogs/BuyCreditsDialog.tsx"));
const InstallDialog = lazy(() => import("../dialogs/InstallDialog.tsx"));

export function RootLayout() {
  const navigation = useNavigation();
  const inChat = useLocation().pathname.toLowerCase() === "/chat";
  const open = useOpenDialog();
  const notice = useNotice();
  const [noticesUsed, setNoticesUsed] = useState(false);
  if (notice && !noticesUsed) setNoticesUsed(true);
  // the gate's code is fetched only for visitors who have not answered it on this device
  const [askAge] = useState(() => storage.get("age_confirmed") !== "1");
  useApiErrorsAsNotices();
  useEffect(resumePendingVerification, []);

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
      {!inChat && <SupportBubble />}
      <Suspense fallback={null}>
        {noticesUsed && <NoticeSnackbar notice={notice} />}
        {askAge && <AgeGateDialog />}
        {open === "login" && <LoginDialog />}
        {open === "buyCredits" && <BuyCreditsDialog />}
        {open === "install" && <InstallDialog />}
      </Suspense>
    </Box>
  );
}
