import { renderToStaticMarkup } from "react-dom/server";
import createCache from "@emotion/cache";
import { CacheProvider } from "@emotion/react";
import Box from "@mui/material/Box";
import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { createInstance } from "i18next";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { LANGUAGES, type Language } from "../../../../server/src/contract/locales.ts";
import en from "../../i18n/locales/en.json";
import ja from "../../i18n/locales/ja.json";
import ko from "../../i18n/locales/ko.json";
import ru from "../../i18n/locales/ru.json";
import { STORAGE_PREFIX } from "../../lib/storage.ts";
import { theme } from "../../theme.ts";
import { Header } from "../site/Header.tsx";
import { LandingHero } from "./LandingHero.tsx";

/**
 * Build time only (consumer/vite.config.ts renders this into index.html; docs/decisions/213): the landing page's first
 * screen as static HTML, so /home paints its headline before any script has run. The markup is what React renders
 * (the same components, theme and emotion styles); each text is a key between two marks, and a small inline script
 * puts in the visitor's stored language before the first paint. React's first commit replaces it (consumer/src/main.tsx).
 */

const MARK = "\u2063";
type Tree = { [key: string]: string | Tree };
const LOCALES: Record<Language, Tree> = { en, ja, ko, ru };

function lookup(tree: Tree, key: string): string {
  const value = key.split(".").reduce<string | Tree | undefined>((node, part) => (typeof node === "object" ? node[part] : undefined), tree);
  if (typeof value !== "string") throw new Error(`prerendered landing: no text for ${key}`);
  return value;
}

/** Emotion writes each style tag just before the first element using it (inside the h1 too): all go first instead. */
function hoistStyles(html: string): string {
  const styles: string[] = [];
  const rest = html.replace(/<style data-emotion="[^"]*">[^<]*<\/style>/g, (tag) => {
    styles.push(tag);
    return "";
  });
  return styles.join("") + rest;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Runs in the browser as index.html's inline script, before the first paint: on / and /home only, the landing goes into
 * #root with the texts of the stored language (as the app's i18n chooses it: unknown or none = English), and those
 * of a signed-in visitor when a session is stored. Free of imports and closures: it is serialised with toString().
 */
function showLanding(args: {
  texts: Record<string, Record<string, string>>;
  signedInKeys: Record<string, string>;
  languageKey: string;
  tokenKey: string;
  mark: string;
}): void {
  const path = location.pathname.toLowerCase().replace(/\/+$/, "");
  if (path !== "" && path !== "/home") return;
  const stored = (key: string) => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  const storedLanguage = stored(args.languageKey) ?? "";
  const language = Object.hasOwn(args.texts, storedLanguage) ? storedLanguage : "en";
  const signedIn = stored(args.tokenKey) !== null;
  const template = document.getElementById("prerendered-landing") as HTMLTemplateElement;
  document.documentElement.lang = language;
  document.getElementById("root")!.innerHTML = template.innerHTML.replace(
    new RegExp(`${args.mark}([\\w.]+)${args.mark}`, "g"),
    (_, key: string) => args.texts[language][(signedIn && args.signedInKeys[key]) || key],
  );
}

/** The templates and the inline script that go right after `<div id="root"></div>`. */
export async function renderLanding(): Promise<string> {
  const i18n = createInstance();
  await i18n
    .use({ type: "postProcessor", name: "mark", process: (_value: string, key: string | string[]) => `${MARK}${[key].flat()[0]}${MARK}` })
    .init({ lng: "en", resources: { en: { translation: en } }, postProcess: ["mark"], interpolation: { escapeValue: false } });
  const page = (signedIn: boolean) => (
    // one emotion cache: each style goes out once, as a <style> tag the client's emotion adopts (it moves them to <head>)
    <CacheProvider value={createCache({ key: "css" })}>
      <I18nextProvider i18n={i18n}>
        <ThemeProvider theme={theme}>
          <CssBaseline enableColorScheme />
          <MemoryRouter initialEntries={["/home"]}>
            <Header prerendered />
            <Box component="main">
              <LandingHero signedIn={signedIn} />
            </Box>
          </MemoryRouter>
        </ThemeProvider>
      </I18nextProvider>
    </CacheProvider>
  );
  // test ids name the live app's controls; the static copy's buttons do nothing until React replaces them
  const render = (signedIn: boolean) => hoistStyles(renderToStaticMarkup(page(signedIn))).replace(/ data-testid="[^"]*"/g, "");
  const marked = new RegExp(`${MARK}([\\w.]+)${MARK}`, "g");
  const keysOf = (html: string) => [...html.matchAll(marked)].map((m) => m[1]);
  // one template for both: a signed-in visitor's landing differs only in texts (the "try" button's), which the script swaps
  const guest = render(false);
  const member = render(true);
  if (guest.replace(marked, MARK) !== member.replace(marked, MARK))
    throw new Error("prerendered landing: the signed-in markup differs from the guest's in more than its texts");
  const guestKeys = keysOf(guest);
  const memberKeys = keysOf(member);
  const signedInKeys = Object.fromEntries(guestKeys.flatMap((key, i) => (key === memberKeys[i] ? [] : [[key, memberKeys[i]]])));
  const keys = new Set([...guestKeys, ...memberKeys]);
  const texts = Object.fromEntries(LANGUAGES.map((lng) => [lng, Object.fromEntries([...keys].map((key) => [key, escapeHtml(lookup(LOCALES[lng], key))]))]));
  const args = { texts, signedInKeys, languageKey: `${STORAGE_PREFIX}language`, tokenKey: `${STORAGE_PREFIX}token`, mark: MARK };
  // "<" as \u003c: no text can end the script element early
  const script = `(${showLanding.toString()})(${JSON.stringify(args).replace(/</g, "\\u003c")});`;
  return `<template id="prerendered-landing">${guest}</template><script>${script}</script>`;
}
