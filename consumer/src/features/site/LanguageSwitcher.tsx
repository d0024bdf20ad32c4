import { useState } from "react";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Tooltip from "@mui/material/Tooltip";
import TranslateIcon from "@mui/icons-material/Translate";
import { useTranslation } from "react-i18next";
import { changeLanguage, LANGUAGES } from "../../i18n/index.ts";

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t("lang.choose")}>
        <IconButton aria-label={t("lang.choose")} onClick={(e) => setAnchor(e.currentTarget)} data-testid="language-switcher" color="inherit">
          <TranslateIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((lng) => (
          <MenuItem
            key={lng}
            selected={i18n.language === lng}
            data-testid={`language-${lng}`}
            onClick={() => {
              setAnchor(null);
              void changeLanguage(lng);
            }}
          >
            {t(`lang.${lng}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
