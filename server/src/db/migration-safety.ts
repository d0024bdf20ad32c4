/**
 * Whether a migration may run while instances of the previous build serve (decision 384). `additive`: it only adds
 * what the old build neither reads nor breaks (new tables, nullable or defaulted columns, indexes, looser rules, data
 * written into them), so a rolling upgrade is safe. `breaking`: the old build fails or misbehaves the moment it commits
 * (a dropped or renamed table or column, a changed type, a new NOT NULL or constraint the old build's writes may not
 * meet, removed data), so every old instance and worker stops first. Read by statement; what is not recognised as
 * additive is called breaking, with the statement named.
 */
export type MigrationKind = "additive" | "breaking";

export interface MigrationVerdict {
  kind: MigrationKind;
  /** for a breaking one: each statement that makes it so, shortened */
  reasons: string[];
}

/** Statements that only add. Checked after the breaking patterns, against one statement with its spaces collapsed. */
const ADDITIVE: RegExp[] = [
  /^CREATE (UNIQUE )?INDEX /,
  /^CREATE (TABLE|TYPE|SEQUENCE|EXTENSION|SCHEMA|VIEW|OR REPLACE VIEW|MATERIALIZED VIEW) /,
  /^CREATE (OR REPLACE )?(FUNCTION|PROCEDURE|TRIGGER) /,
  /^COMMENT ON /,
  /^(INSERT INTO|UPDATE) /,
  /^ALTER TYPE \S+ ADD VALUE /,
  /^DROP INDEX /,
  /^ALTER TABLE /,
];

/** Clauses of ALTER TABLE that break the running build, and why. */
const BREAKING_CLAUSES: [RegExp, string][] = [
  [/\bDROP (COLUMN|CONSTRAINT \S+ CASCADE)\b/, "drops a column"],
  [/\bRENAME\b/, "renames"],
  [/\bALTER (COLUMN )?\S+ (SET DATA )?TYPE\b/, "changes a column's type"],
  [/\bSET NOT NULL\b/, "makes a column required"],
  [/\bDROP DEFAULT\b/, "drops a default the old build's inserts may rely on"],
  [/\bADD CONSTRAINT\b(?!.*\bNOT VALID\b)/, "adds a constraint the old build's writes may not meet"],
  [/\bADD (COLUMN )?(IF NOT EXISTS )?\S+ [^,]*\bNOT NULL\b(?![^,]*\bDEFAULT\b)/, "adds a required column without a default"],
];

/** Statements of a migration file, comments and dollar-quoted bodies set aside, spaces collapsed, upper-cased. */
function statements(sql: string): string[] {
  const bodies = sql.replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, () => "$body$");
  const plain = bodies
    .replace(/--[^\n]*/g, "")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/'(?:[^']|'')*'/g, "''");
  return plain
    .split(";")
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .map((s) => s.toUpperCase());
}

const tableOf = (re: RegExp, s: string) => re.exec(s)?.[1]?.replaceAll('"', "");

export function classifyMigration(sql: string): MigrationVerdict {
  const reasons: string[] = [];
  // a table this file creates is new to the old build: whatever else the file does to it breaks nothing running
  const created = new Set<string>();
  for (const s of statements(sql)) {
    const table = tableOf(/^CREATE TABLE (?:IF NOT EXISTS )?(\S+)/, s);
    if (table) created.add(table);
    const short = s.length > 90 ? `${s.slice(0, 87)}...` : s;
    if (/^(DROP (TABLE|TYPE|VIEW|FUNCTION|SCHEMA|SEQUENCE)|TRUNCATE|DELETE FROM) /.test(s)) {
      reasons.push(`${short}: removes what the old build may use`);
    } else if (/^ALTER TABLE /.test(s)) {
      if (created.has(tableOf(/^ALTER TABLE (?:ONLY )?(?:IF EXISTS )?(\S+)/, s) ?? "")) continue;
      const hit = BREAKING_CLAUSES.find(([re]) => re.test(s));
      if (hit) reasons.push(`${short}: ${hit[1]}`);
    } else if (!ADDITIVE.some((re) => re.test(s))) {
      reasons.push(`${short}: not known to be additive`);
    }
  }
  return { kind: reasons.length ? "breaking" : "additive", reasons };
}
