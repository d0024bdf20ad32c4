import { lazy, Suspense, useState } from "react";
import IconButton from "@mui/material/IconButton";
import TranslateIcon from "@mui/icons-material/Translate";
import { useTranslation } from "react-i18next";

const LanguageMenu = lazy(() => import("./LanguageMenu.tsx"));

export function LanguageSwitcher() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton
        aria-label={t("lang.choose")}
        title={t("lang.choose")}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="language-switcher"
        color="inherit"
      >
        <TranslateIcon fontSize="small" />
      </IconButton>
      {anchor && (
        <Suspense fallback={null}>
          <LanguageMenu anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
