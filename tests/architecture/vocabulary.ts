import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * Finds hand-typed copies of the contract's word lists (docs/decisions/050): every array literal or union of string
 * literals, outside server/src/contract, that names every word of a contract list, or three or more words all from one
 * list. Such a literal is a second definition of that vocabulary, or of a part of it, and must be imported instead.
 * (Two words of a list, such as `status in ["dismissed", "actioned"]`, are a rule about those words, not a copy.)
 */
export interface VocabularyCopy {
  file: string;
  line: number;
  words: string[];
  list: string;
}

/** Every list of strings the contract exports, by "file:NAME"; [column, label] tables count by their first column. */
export async function contractLists(contractDir: string): Promise<Map<string, Set<string>>> {
  const lists = new Map<string, Set<string>>();
  for (const file of fs.readdirSync(contractDir).filter((f) => f.endsWith(".ts"))) {
    const mod = (await import(path.join(contractDir, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (!Array.isArray(value) || value.length < 2) continue;
      const words = value.map((v) => (Array.isArray(v) ? v[0] : v));
      if (words.every((w) => typeof w === "string")) lists.set(`${file}:${name}`, new Set(words as string[]));
    }
  }
  return lists;
}

function sourceFiles(dir: string, skip: RegExp): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (skip.test(full)) continue;
    if (entry.isDirectory()) out.push(...sourceFiles(full, skip));
    else if (/\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** The string words of an array literal or a union type, or null when any member is something else. */
function literalWords(node: ts.Node): string[] | null {
  const members = ts.isArrayLiteralExpression(node) ? node.elements : ts.isUnionTypeNode(node) ? node.types : null;
  if (!members || members.length < 2) return null;
  const words: string[] = [];
  for (const m of members) {
    if (ts.isStringLiteral(m)) words.push(m.text);
    else if (ts.isLiteralTypeNode(m) && ts.isStringLiteral(m.literal)) words.push(m.literal.text);
    else return null;
  }
  return words;
}

export function findVocabularyCopies(root: string, dirs: string[], lists: Map<string, Set<string>>, skip: RegExp): VocabularyCopy[] {
  const copies: VocabularyCopy[] = [];
  for (const file of dirs.flatMap((d) => sourceFiles(path.join(root, d), skip))) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      const words = literalWords(node);
      if (words) {
        const hit = [...lists].find(([, list]) => words.every((w) => list.has(w)) && (words.length >= 3 || new Set(words).size === list.size));
        if (hit) copies.push({ file: path.relative(root, file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, words, list: hit[0] });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return copies;
}
