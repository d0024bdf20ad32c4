import { lazy, Suspense, useEffect } from "react";
import Box from "@mui/material/Box";
import LinearProgress from "@mui/material/LinearProgress";
import { Outlet, useNavigation } from "react-router";
import { AgeGateDialog } from "../dialogs/AgeGateDialog.tsx";
import { useOpenDialog } from "../dialogs/dialog-store.ts";
import { resumePendingVerification } from "../features/payments/verification.ts";
import { BottomBar } from "../features/site/BottomBar.tsx";
import { Footer } from "../features/site/Footer.tsx";
import { Header } from "../features/site/Header.tsx";
import { NoticeSnackbar } from "../features/site/NoticeSnackbar.tsx";
import { useApiErrorsAsNotices } from "../features/site/useApiErrorsAsNotices.ts";
import { SupportBubble } from "../features/support/SupportBubble.tsx";

const LoginDialog = lazy(() => import("../dialogs/LoginDialog.tsx"));
const BuyCreditsDialog = lazy(() => import("../dialogs/BuyCreditsDialog.tsx"));
const InstallDialog = lazy(() => import("../dialogs/InstallDialog.tsx"));

export function RootLayout() {
  const navigation = useNavigation();
  const open = useOpenDialog();
  useApiErrorsAsNotices();
  useEffect(resumePendingVerification, []);

  return (
    <Box sx={{ minHeight: "100vh", display: "flex", flexDirection: "column" }}>
      {navigation.state === "loading" && <LinearProgress sx={{ position: "fixed", top: 0, left: 0, right: 0, zIndex: 2000, height: 2 }} />}
      <Header />
      <Box component="main" sx={{ flex: 1 }}>
        <Outlet />
      </Box>
      <Footer />
      <BottomBar />
      <SupportBubble />
      <NoticeSnackbar />
      <AgeGateDialog />
      <Suspense fallback={null}>
        {open === "login" && <LoginDialog />}
        {open === "buyCredits" && <BuyCreditsDialog />}
        {open === "install" && <InstallDialog />}
      </Suspense>
    </Box>
  );
}
