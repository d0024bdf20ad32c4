import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PROJECT_DIR } from "../../server/src/paths.ts";

/**
 * The server's code in modules by use case (issue 28): none over ~300 lines, no function over ~60 of its own.
 * Declarations (request and response schemas, the settings, Prisma's generated client) are lists, not logic, and are
 * not counted; nor are tests. A schema file is split by use case past 400 lines, and the browser apps' modules
 * (components, hooks, API clients; translations are lists) keep to 300 lines like the server's (issue 48).
 */
const MODULE_LINES = 300;
const SCHEMA_LINES = 400;
const APPS = ["consumer/src", "console/src"];
const NOT_APP_LOGIC = /\/i18n\/|\.test\.tsx?$|\.d\.ts$/;
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
const linesOf = (f: string) => fs.readFileSync(f, "utf8").split("\n").length;
const tooLong = (list: string[], limit: number) => list.map((f) => [path.relative(PROJECT_DIR, f), linesOf(f)] as const).filter(([, n]) => n > limit);

function everyFile(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? everyFile(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
const schemas = everyFile(path.join(PROJECT_DIR, "server/src")).filter((f) => /\.schema\.ts$/.test(f));
const appModules = APPS.flatMap((d) => everyFile(path.join(PROJECT_DIR, d))).filter((f) => /\.tsx?$/.test(f) && !NOT_APP_LOGIC.test(f));

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
    expect(tooLong(files, MODULE_LINES).map(([f, n]) => `${f}: ${n} lines`)).toEqual([]);
  });

  it(`no schema file over ${SCHEMA_LINES} lines`, () => {
    expect(schemas.length).toBeGreaterThan(20);
    expect(tooLong(schemas, SCHEMA_LINES).map(([f, n]) => `${f}: ${n} lines`)).toEqual([]);
  });

  it(`no module of the consumer app or the console over ${MODULE_LINES} lines`, () => {
    expect(appModules.length).toBeGreaterThan(100);
    expect(tooLong(appModules, MODULE_LINES).map(([f, n]) => `${f}: ${n} lines`)).toEqual([]);
  });

  it(`no function over ${FUNCTION_LINES} lines of its own`, () => {
    expect(files.flatMap((f) => longFunctions(f, fs.readFileSync(f, "utf8")))).toEqual([]);
  });
});
