/**
 * A strict parser of Prometheus' text exposition format (version 0.0.4), for tests: anything the format does not allow
 * throws, naming the line. (parse-prometheus-text-format, the package on npm, drops a labelled histogram's labels.)
 */

export interface PromSample {
  /** The sample's own name: a histogram's `_bucket`, `_sum` and `_count` lines keep their suffix. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PromFamily {
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  help: string;
  samples: PromSample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)(\s+-?\d+)?$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);
const SUFFIXES: Record<string, string[]> = { histogram: ["_bucket", "_sum", "_count"], summary: ["", "_sum", "_count"] };

function parseValue(v: string, line: string): number {
  if (v === "+Inf") return Number.POSITIVE_INFINITY;
  if (v === "-Inf") return Number.NEGATIVE_INFINITY;
  if (v === "NaN") return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) throw new Error(`bad value in: ${line}`);
  return Number(v);
}

/** `{a="x",b="y\"z"}` into its labels; escapes are `\\`, `\"` and `\n`. */
function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text.slice(1, -1);
  while (rest.length) {
    const m = /^([^=]+)="((?:[^"\\]|\\[\\"n])*)"(,|$)/.exec(rest);
    if (!m || !LABEL.test(m[1])) throw new Error(`bad labels in: ${line}`);
    if (m[1] in labels) throw new Error(`label ${m[1]} twice in: ${line}`);
    labels[m[1]] = m[2].replace(/\\(["\\n])/g, (_s, c: string) => (c === "n" ? "\n" : c));
    rest = rest.slice(m[0].length);
  }
  return labels;
}

/** The family a sample belongs to: its own name, or a histogram's or summary's name without the suffix. */
function familyOf(families: Map<string, PromFamily>, name: string, line: string): PromFamily {
  for (const [family, f] of families) {
    const suffixes = SUFFIXES[f.type] ?? [""];
    if (suffixes.some((s) => family + s === name)) return f;
  }
  throw new Error(`sample without a TYPE line before it: ${line}`);
}

export function parsePrometheusText(text: string): Map<string, PromFamily> {
  const families = new Map<string, PromFamily>();
  const seen = new Set<string>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta;
      if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      const f = families.get(name) ?? { type: "untyped" as const, help: "", samples: [] };
      if (kind === "TYPE") {
        if (families.get(name)?.samples.length || !TYPES.has(rest)) throw new Error(`bad or late TYPE: ${line}`);
        f.type = rest as PromFamily["type"];
      } else f.help = rest;
      families.set(name, f);
      continue;
    }
    if (line.startsWith("#")) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample: ${line}`);
    const labels = m[2] ? parseLabels(m[2], line) : {};
    const family = familyOf(families, m[1], line);
    if (m[1].endsWith("_bucket") && family.type === "histogram" && !("le" in labels)) throw new Error(`bucket without le: ${line}`);
    const key = `${m[1]}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`the same series twice: ${line}`);
    seen.add(key);
    family.samples.push({ name: m[1], labels, value: parseValue(m[3], line) });
  }
  return families;
}
