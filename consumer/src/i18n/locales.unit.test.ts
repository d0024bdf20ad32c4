import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.dirname(new URL(import.meta.url).pathname);
const LANGS = ["en", "ja", "ko", "ru"] as const;
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Tree = { [k: string]: string | Tree };
const load = (lng: string) => JSON.parse(fs.readFileSync(path.join(dir, "locales", `${lng}.json`), "utf8")) as Tree;

function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "string") out.set(key, v);
    else for (const [kk, vv] of leaves(v, key)) out.set(kk, vv);
  }
  return out;
}

/** A key as the code uses it: plural forms collapse to their base key. */
const base = (key: string) => key.replace(PLURAL, "");
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

function sourceFiles(root: string): string[] {
  return fs.readdirSync(root, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(root, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

describe("consumer locale files", () => {
  const en = leaves(load("en"));
  const enBase = new Set([...en.keys()].map(base));

  for (const lng of LANGS.filter((l) => l !== "en")) {
    it(`${lng} has every key of en, no extra ones, the same placeholders and its own plural forms`, () => {
      const other = leaves(load(lng));
      const otherBase = new Set([...other.keys()].map(base));
      expect(
        [...enBase].filter((k) => !otherBase.has(k)),
        `missing in ${lng}`,
      ).toEqual([]);
      expect(
        [...otherBase].filter((k) => !enBase.has(k)),
        `extra in ${lng}`,
      ).toEqual([]);
      const categories = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
      for (const key of new Set([...en.keys()].filter((k) => PLURAL.test(k)).map(base))) {
        for (const c of categories) expect(other.has(`${key}_${c}`), `${lng}: ${key}_${c}`).toBe(true);
      }
      for (const [key, text] of other) {
        const enText = en.get(key) ?? en.get(`${base(key)}_other`) ?? "";
        const allowed = new Set([...placeholders(enText), "count"]);
        for (const p of placeholders(text)) expect(allowed.has(p), `${lng}: ${key} uses {{${p}}}`).toBe(true);
        expect(text.trim(), `${lng}: ${key} is empty`).not.toBe("");
      }
    });
  }

  it("every key the code looks up exists in en", () => {
    const used = new Set<string>();
    for (const file of sourceFiles(path.join(dir, ".."))) {
      for (const m of fs.readFileSync(file, "utf8").matchAll(/\bt\(\s*"([a-zA-Z][\w.]*)"/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((k) => !enBase.has(k))).toEqual([]);
  });

  it("components contain no literal UI text", () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(path.join(dir, "..")).filter((f) => f.endsWith(".tsx"))) {
      const src = fs.readFileSync(file, "utf8");
      // text between tags, and the attributes people read
      for (const m of src.matchAll(/(?<![=-])>\s*([A-Za-z][A-Za-z ,.'!?-]{2,})\s*</g)) offenders.push(`${path.basename(file)}: ${m[1]}`);
      for (const m of src.matchAll(/\b(label|placeholder|title|alt|aria-label|helperText)="([A-Za-z][^"]*)"/g))
        offenders.push(`${path.basename(file)}: ${m[1]}="${m[2]}"`);
      // a word written after a value in a template literal, such as a unit ("12.5 s"), is text people read as well
      for (const m of src.matchAll(/`\$\{[^`]*\} ([A-Za-z]+)`/g)) offenders.push(`${path.basename(file)}: \`... ${m[1]}\``);
    }
    expect(offenders).toEqual([]);
  });
});
