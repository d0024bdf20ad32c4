import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PROJECT_DIR } from "../../server/src/paths.ts";

/**
 * The server's code in modules by use case (issue 28): none over ~300 lines, no function over ~60 of its own.
 * Declarations (request and response schemas, the settings, Prisma's generated client) are lists, not logic, and are
 * not counted; nor are tests.
 */
const MODULE_LINES = 300;
const FUNCTION_LINES = 60;
const NOT_LOGIC = /\.schema\.ts$|\.gen\.d\.ts$|\/generated\/|\.test\.tsx?$|\/config\.ts$/;
/** Long by nature, each with its reason. */
const LONG_BY_NATURE: Record<string, string> = {
  "server/src/services.ts createServices": "the wiring of every service, one line each",
  "server/src/authz/abilities.ts defineAbilityFor": "the permission table, one rule a line",
};
/**
 * A route table (`chatRoutes`, the console's `reportsResource`): one declaration per route, each route's handler a
 * function of its own that is counted.
 */
const ROUTE_TABLE = /(\.routes\.ts|\/admin\/\w+\.ts) \w+(Routes|Resource)$/;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !NOT_LOGIC.test(p) ? [p] : [];
  });
}

const files = sources(path.join(PROJECT_DIR, "server/src"));

/** Functions longer than the limit, counting a function's own lines only (functions inside it count on their own). */
function longFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node): number => {
    let nested = 0;
    node.forEachChild((child) => {
      nested += visit(child);
    });
    if (!ts.isFunctionLike(node) || !("body" in node) || !node.body) return nested;
    const lines = lineOf(node.end) - lineOf(node.getStart(source)) + 1;
    const where = `${path.relative(PROJECT_DIR, file)} ${node.name?.getText(source) ?? `(function at line ${lineOf(node.getStart(source)) + 1})`}`;
    if (lines - nested > FUNCTION_LINES && !LONG_BY_NATURE[where] && !ROUTE_TABLE.test(where)) found.push(`${where}: ${lines - nested} lines`);
    return lines;
  };
  visit(source);
  return found;
}

describe("small modules, short functions", () => {
  it("reads the whole tree", () => {
    expect(files.length).toBeGreaterThan(200);
  });

  it(`no module over ${MODULE_LINES} lines`, () => {
    const long = files.map((f) => [path.relative(PROJECT_DIR, f), fs.readFileSync(f, "utf8").split("\n").length] as const).filter(([, n]) => n > MODULE_LINES);
    expect(long.map(([f, n]) => `${f}: ${n} lines`)).toEqual([]);
  });

  it(`no function over ${FUNCTION_LINES} lines of its own`, () => {
    expect(files.flatMap((f) => longFunctions(f, fs.readFileSync(f, "utf8")))).toEqual([]);
  });
});
