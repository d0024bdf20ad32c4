import ListItemIcon from "@mui/material/ListItemIcon";
import MenuItem from "@mui/material/MenuItem";
import StorefrontIcon from "@mui/icons-material/Storefront";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

/** The account menu's way to a creator page (issue 30 item 1): /creator makes one, or opens the one there is. */
export function CreatorMenuItem({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <MenuItem
      onClick={() => {
        onClose();
        navigate("/creator");
      }}
      data-testid="menu-creator-page"
    >
      <ListItemIcon>
        <StorefrontIcon fontSize="small" />
      </ListItemIcon>
      {t("nav.creatorPage")}
    </MenuItem>
  );
}
