import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useTranslation } from "react-i18next";
import { changeLanguage, LANGUAGES } from "../../i18n/index.ts";

/** The language list; loaded when the switcher is first opened. */
export default function LanguageMenu({ anchor, onClose }: { anchor: HTMLElement; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Menu anchorEl={anchor} open onClose={onClose}>
      {LANGUAGES.map((lng) => (
        <MenuItem
          key={lng}
          selected={i18n.language === lng}
          data-testid={`language-${lng}`}
          onClick={() => {
            onClose();
            void changeLanguage(lng);
          }}
        >
          {t(`lang.${lng}`)}
        </MenuItem>
      ))}
    </Menu>
  );
}
