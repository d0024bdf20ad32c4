import { comboOptions, type Graph, type ObjectInfo } from "./workflows.ts";

/**
 * What ComfyUI's own prompt validation (execution.py validate_inputs) would refuse in a bound prompt, checked against a
 * node catalogue (a server's /object_info, or the recorded stock one in tests): node classes, input names, value types,
 * min/max, option lists, and links joining matching output and input types. An empty list: the prompt passes.
 */
export function graphProblems(prompt: Graph, info: ObjectInfo): string[] {
  const problems: string[] = [];
  for (const [id, node] of Object.entries(prompt)) {
    const cls = info[node.class_type];
    const at = `node ${id} (${node.class_type})`;
    if (!cls) {
      problems.push(`${at}: no such node class`);
      continue;
    }
    const required = cls.input?.required ?? {};
    const optional = cls.input?.optional ?? {};
    for (const name of Object.keys(required)) if (!(name in node.inputs)) problems.push(`${at}: required input ${name} missing`);
    for (const [name, value] of Object.entries(node.inputs)) {
      const spec = required[name] ?? optional[name];
      const problem = spec === undefined ? "no such input" : Array.isArray(value) ? linkProblem(prompt, info, value, spec) : valueProblem(value, spec);
      if (problem) problems.push(`${at}.${name}: ${problem}`);
    }
  }
  return problems;
}

type Spec = [unknown, { min?: number; max?: number }?];

/** ComfyUI's rule: equal types, a "*" on either side, or comma-separated type lists that share one. */
function typesMatch(out: string, input: string): boolean {
  if (out === input || out === "*" || input === "*") return true;
  const outs = out.split(",");
  return input.split(",").some((t) => outs.includes(t));
}

function linkProblem(prompt: Graph, info: ObjectInfo, link: unknown[], spec: unknown): string | undefined {
  const [from, index] = link;
  const source = typeof from === "string" ? prompt[from] : undefined;
  if (!source || typeof index !== "number") return `links to ${JSON.stringify(link)}, which is no node output`;
  const produced = info[source.class_type]?.output?.[index];
  if (produced === undefined) return `links to output ${index} of node ${from} (${source.class_type}), which has no such output`;
  const wanted = (spec as Spec)[0];
  const wantedType = Array.isArray(wanted) ? "COMBO" : String(wanted);
  return typesMatch(String(produced), wantedType) ? undefined : `takes ${wantedType}, linked to ${produced} from node ${from}`;
}

function valueProblem(value: unknown, spec: unknown): string | undefined {
  const options = comboOptions(spec);
  if (options) return options.includes(String(value)) ? undefined : `${JSON.stringify(value)} is not one of its options`;
  const [type, o = {}] = spec as Spec;
  const isNumber = typeof value === "number" && Number.isFinite(value);
  if (type === "INT" && !(isNumber && Number.isInteger(value))) return `${JSON.stringify(value)} is not an INT`;
  if (type === "FLOAT" && !isNumber) return `${JSON.stringify(value)} is not a FLOAT`;
  if (type === "STRING" && typeof value !== "string") return `${JSON.stringify(value)} is not a STRING`;
  if (type === "BOOLEAN" && typeof value !== "boolean") return `${JSON.stringify(value)} is not a BOOLEAN`;
  if (!["INT", "FLOAT", "STRING", "BOOLEAN"].includes(String(type))) return `takes ${String(type)}, which only a link can give`;
  if (isNumber && o.min !== undefined && (value as number) < o.min) return `${value} is below its min ${o.min}`;
  if (isNumber && o.max !== undefined && (value as number) > o.max) return `${value} is above its max ${o.max}`;
  return undefined;
}
