import ForumIcon from "@mui/icons-material/Forum";
import Box from "@mui/material/Box";
import ListItemIcon from "@mui/material/ListItemIcon";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Typography from "@mui/material/Typography";
import AddToHomeScreenIcon from "@mui/icons-material/AddToHomeScreen";
import BoltIcon from "@mui/icons-material/Bolt";
import LogoutIcon from "@mui/icons-material/Logout";
import ManageAccountsIcon from "@mui/icons-material/ManageAccounts";
import VideoLibraryIcon from "@mui/icons-material/VideoLibrary";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { session, type UserInfo } from "../session/session.ts";

/** The signed-in user's menu; loaded when the avatar is first clicked. */
export default function AccountMenu({ anchor, user, onClose }: { anchor: HTMLElement; user: UserInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
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
      <MenuItem
        onClick={() => {
          onClose();
          navigate("/account");
        }}
        data-testid="menu-account"
      >
        <ListItemIcon>
          <ManageAccountsIcon fontSize="small" />
        </ListItemIcon>
        {t("nav.myAccount")}
      </MenuItem>
      <MenuItem
        onClick={() => {
          onClose();
          navigate("/function");
        }}
      >
        <ListItemIcon>
          <VideoLibraryIcon fontSize="small" />
        </ListItemIcon>
        {t("nav.results")}
      </MenuItem>
      <MenuItem
        onClick={() => {
          onClose();
          navigate("/chat");
        }}
        data-testid="menu-chat"
      >
        <ListItemIcon>
          <ForumIcon fontSize="small" />
        </ListItemIcon>
        {t("nav.chat")}
      </MenuItem>
      <MenuItem
        onClick={() => {
          onClose();
          dialogs.open("install");
        }}
      >
        <ListItemIcon>
          <AddToHomeScreenIcon fontSize="small" />
        </ListItemIcon>
        {t("install.action")}
      </MenuItem>
      {user.type === "visitor" && (
        <MenuItem
          onClick={() => {
            onClose();
            dialogs.open("login");
          }}
          data-testid="menu-login"
        >
          <ListItemIcon>
            <BoltIcon fontSize="small" />
          </ListItemIcon>
          {t("login.saveAccount")}
        </MenuItem>
      )}
      <MenuItem
        data-testid="logout"
        onClick={() => {
          onClose();
          void session.logout().finally(() => navigate("/home"));
        }}
      >
        <ListItemIcon>
          <LogoutIcon fontSize="small" />
        </ListItemIcon>
        {t("login.logout")}
      </MenuItem>
    </Menu>
  );
}
