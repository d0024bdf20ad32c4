import { describe, expect, it } from "vitest";
import { signInLanguage } from "./sign-in-language.ts";

describe("the language at sign-in (issue 30 item 2)", () => {
  it("an account used before brings its saved language; the account keeps it", () => {
    expect(signInLanguage("ko", true, "en")).toEqual({ show: "ko", save: null });
  });

  it("a new account or a guest keeps the language shown here, the operator's default included, and saves it", () => {
    // nothing chosen on this device: the app shows the brand's Russian, and the account must speak it too
    expect(signInLanguage("en", false, "ru")).toEqual({ show: "ru", save: "ru" });
    expect(signInLanguage("ja", false, "ja")).toEqual({ show: "ja", save: null });
  });

  it("a returning account whose saved language the app does not speak keeps the one shown", () => {
    expect(signInLanguage(null, true, "en")).toEqual({ show: "en", save: "en" });
  });
});
