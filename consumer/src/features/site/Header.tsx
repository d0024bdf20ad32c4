import { Suspense, useState } from "react";
import AppBar from "@mui/material/AppBar";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import BoltIcon from "@mui/icons-material/Bolt";
import ForumIcon from "@mui/icons-material/Forum";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, NavLink } from "react-router";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { accentGradient } from "../../theme.ts";
import { currentBrand } from "./brand.ts";
import { useSession } from "../session/session.ts";
import { LanguageSwitcher } from "./LanguageSwitcher.tsx";
import { lazyView } from "../../i18n/index.ts";
import { KEEP_CLEAR } from "../support/keep-clear.ts";
import { NotificationBell } from "../notifications/NotificationBell.tsx";

export function Logo() {
  const { t } = useTranslation();
  const { logo_url } = currentBrand();
  if (logo_url)
    return (
      <RouterLink to="/home" style={{ display: "flex" }}>
        <Box component="img" src={logo_url} alt={t("app.name")} sx={{ height: 32, maxWidth: 160, objectFit: "contain" }} />
      </RouterLink>
    );
  return (
    <Typography
      component={RouterLink}
      to="/home"
      variant="h6"
      sx={{ fontWeight: 800, letterSpacing: "-0.02em", textDecoration: "none", background: accentGradient, WebkitBackgroundClip: "text", color: "transparent" }}
    >
      {t("app.name")}
    </Typography>
  );
}

const AccountMenu = lazyView(() => import("./AccountMenu.tsx"));

const NAV = [
  { to: "/home", key: "nav.home" },
  { to: "/creationStudio", key: "nav.studio" },
  { to: "/function", key: "nav.results" },
  { to: "/chat", key: "nav.chat" },
] as const;

/** `prerendered`: the build's static copy in index.html (features/landing/prerender.tsx) leaves out the controls that
 * need the session or a script; the app's own header replaces it with them. */
export function Header({ prerendered = false }: { prerendered?: boolean }) {
  const { t } = useTranslation();
  return (
    <AppBar position="sticky" elevation={0} sx={{ bgcolor: "rgba(11,11,18,0.72)", backdropFilter: "blur(14px)", borderBottom: 1, borderColor: "divider" }}>
      <Toolbar sx={{ gap: 1.5, maxWidth: 1200, width: "100%", mx: "auto" }}>
        <Logo />
        <Box component="nav" sx={{ display: { xs: "none", md: "flex" }, gap: 0.5, ml: 3 }}>
          {NAV.map((item) => (
            <Button
              key={item.to}
              component={NavLink}
              to={item.to}
              color="inherit"
              sx={{ color: "text.secondary", "&.active": { color: "text.primary", bgcolor: "rgba(255,255,255,0.06)" } }}
            >
              {t(item.key)}
            </Button>
          ))}
        </Box>
        <Box sx={{ flex: 1 }} />
        {!prerendered && <HeaderControls />}
      </Toolbar>
    </AppBar>
  );
}

/** Balance, chat, language, the bell and the account: what the header shows right of the navigation. */
function HeaderControls() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  return (
    <>
      {user && (
        <Button
          size="small"
          startIcon={<BoltIcon sx={{ color: "secondary.main" }} />}
          onClick={() => dialogs.open("buyCredits")}
          data-testid="balance"
          {...KEEP_CLEAR}
          data-points={user.points}
          aria-label={t("credits.balance", { count: user.points })}
          sx={{
            bgcolor: "rgba(167,139,250,0.14)",
            color: "primary.main",
            px: 1.5,
            whiteSpace: "nowrap",
            flexShrink: 0,
            minWidth: 0,
            "&:hover": { bgcolor: "rgba(167,139,250,0.22)" },
          }}
        >
          {/* phones: the bolt and the number, so the pill holds its text in every language (issue 31.7); the word from 600 px */}
          <Box component="span" sx={{ display: { xs: "inline", sm: "none" } }}>
            {user.points}
          </Box>
          <Box component="span" sx={{ display: { xs: "none", sm: "inline" } }}>
            {t("credits.balance", { count: user.points })}
          </Box>
        </Button>
      )}
      {/* phones: signed-in people reach chat from the account menu (the header has no room beside the balance) */}
      {!user && (
        <IconButton component={RouterLink} to="/chat" aria-label={t("nav.chat")} sx={{ display: { md: "none" } }} data-testid="nav-chat">
          <ForumIcon />
        </IconButton>
      )}
      <LanguageSwitcher />
      {user ? (
        <>
          <NotificationBell />
          <IconButton onClick={(e) => setMenu(e.currentTarget)} aria-label={t("nav.account")} data-testid="account-menu">
            <Avatar src={user.photo ?? undefined} sx={{ width: 32, height: 32, background: accentGradient, fontSize: 14 }}>
              {user.nickname.slice(0, 1).toUpperCase()}
            </Avatar>
          </IconButton>
          {menu && (
            <Suspense fallback={null}>
              <AccountMenu anchor={menu} user={user} onClose={() => setMenu(null)} />
            </Suspense>
          )}
        </>
      ) : (
        <Button variant="contained" onClick={() => dialogs.open("login")} data-testid="open-login">
          {t("login.action")}
        </Button>
      )}
    </>
  );
}
