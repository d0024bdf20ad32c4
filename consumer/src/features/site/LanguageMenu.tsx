import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useTranslation } from "react-i18next";
import { LANGUAGES } from "../../i18n/index.ts";
import { session } from "../session/session.ts";

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
            void session.chooseLanguage(lng).catch(() => undefined);
          }}
        >
          {t(`lang.${lng}`)}
        </MenuItem>
      ))}
    </Menu>
  );
}
