import type { ReactNode } from "react";
import ForumIcon from "@mui/icons-material/Forum";
import Box from "@mui/material/Box";
import ListItemIcon from "@mui/material/ListItemIcon";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Typography from "@mui/material/Typography";
import AddToHomeScreenIcon from "@mui/icons-material/AddToHomeScreen";
import BoltIcon from "@mui/icons-material/Bolt";
import LogoutIcon from "@mui/icons-material/Logout";
import MailIcon from "@mui/icons-material/Mail";
import ManageAccountsIcon from "@mui/icons-material/ManageAccounts";
import StorefrontIcon from "@mui/icons-material/Storefront";
import VideoLibraryIcon from "@mui/icons-material/VideoLibrary";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { logOut } from "../session/guest-logout.ts";
import type { UserInfo } from "../session/session.ts";

/** One entry of the menu: its icon, its label's key, what it does, and its test id where tests tap it. */
interface Entry {
  icon: ReactNode;
  label: string;
  act: () => void;
  testId?: string;
}

/** The signed-in user's menu; loaded when the avatar is first clicked. */
export default function AccountMenu({ anchor, user, onClose }: { anchor: HTMLElement; user: UserInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const entries: Entry[] = [
    { icon: <ManageAccountsIcon fontSize="small" />, label: "nav.myAccount", act: () => navigate("/account"), testId: "menu-account" },
    { icon: <VideoLibraryIcon fontSize="small" />, label: "nav.results", act: () => navigate("/function") },
    { icon: <ForumIcon fontSize="small" />, label: "nav.chat", act: () => navigate("/chat"), testId: "menu-chat" },
    // messages with creators are a saved account's (docs/decisions/310)
    ...(user.type === "visitor"
      ? []
      : [{ icon: <MailIcon fontSize="small" />, label: "nav.messages", act: () => navigate("/messages"), testId: "menu-messages" }]),
    // A creator page needs no training (issue 30 item 1): /creator makes one, or opens the one there is.
    { icon: <StorefrontIcon fontSize="small" />, label: "nav.creatorPage", act: () => navigate("/creator"), testId: "menu-creator-page" },
    { icon: <AddToHomeScreenIcon fontSize="small" />, label: "install.action", act: () => dialogs.open("install") },
    ...(user.type === "visitor"
      ? [{ icon: <BoltIcon fontSize="small" />, label: "login.saveAccount", act: () => dialogs.open("login"), testId: "menu-login" }]
      : []),
    {
      icon: <LogoutIcon fontSize="small" />,
      label: "login.logout",
      act: () => void logOut(user, () => navigate("/home")),
      testId: "logout",
    },
  ];
  return (
    <Menu
      anchorEl={anchor}
      open
      onClose={onClose}
      anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
      transformOrigin={{ vertical: "top", horizontal: "right" }}
    >
      <Box sx={{ px: 2, py: 1 }}>
        <Typography variant="subtitle2" data-testid="nickname">
          {user.nickname}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {user.email ?? t(`loginType.${user.type}`)}
        </Typography>
      </Box>
      {entries.map((e) => (
        <MenuItem
          key={e.label}
          data-testid={e.testId}
          onClick={() => {
            onClose();
            e.act();
          }}
        >
          <ListItemIcon>{e.icon}</ListItemIcon>
          {t(e.label)}
        </MenuItem>
      ))}
    </Menu>
  );
}
