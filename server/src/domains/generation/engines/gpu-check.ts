import type { ModelFolder } from "../../../contract/engines.ts";
import { hasCharacterNodes } from "./lora-links.ts";
import { checkWorkflow, type MissingFile, type ObjectInfo, type Workflow, type WorkflowCheck } from "./workflows.ts";

/**
 * Where a model file comes from, by its name: the manifest entry of any shipped workflow whose default it is. A file
 * named in COMFYUI_MODELS (`flux1_dev=flux1-schnell.safetensors`) is not the slot's default, so the slot's own URL
 * would fetch another file (issue 45): it gets the entry the manifest has for it, or none (the operator's choice).
 */
export function manifestOf(workflows: Workflow[], file: string): Pick<MissingFile, "url" | "size" | "sha256"> {
  for (const wf of workflows) for (const m of Object.values(wf.binding.models)) if (m.default === file) return { url: m.url, size: m.size, sha256: m.sha256 };
  return { url: null, size: null, sha256: null };
}

const TIMEOUT_MS = 15_000;

/** One workflow on one server: runnable, or what it lacks; its GPU memory need beside the server's largest GPU. */
export interface GpuWorkflowReport extends WorkflowCheck {
  name: string;
  title: string;
  gpuMemoryGB: number;
  /** False when the server's largest GPU has less memory than the workflow needs; unset when it reports none. */
  fitsMemory?: boolean;
  /** What to do about missing nodes, for this server's ComfyUI version. */
  nodesAdvice?: NodesAdvice;
}

/** One file a server lacks, listed once however many workflows load it, with the workflows that wait for it. */
export interface GpuDownload {
  file: string;
  folder: ModelFolder;
  url: string | null;
  size: number | null;
  sha256: string | null;
  workflows: string[];
}

/** What an operator must fetch for one ComfyUI server (issue 34): `npm run gpu:check` prints it, the console shows it. */
export interface GpuServerReport {
  url: string;
  reachable: boolean;
  error?: string;
  comfyuiVersion?: string;
  gpus: { name: string; memoryGB: number }[];
  /** Reverie's LoRA node is installed (decision 330): the server can run a job with a person's character model. */
  characterModels?: boolean;
  workflows: GpuWorkflowReport[];
  /** Every missing file once, with the bytes to fetch in all (files of unrecorded size counted apart). */
  downloads: GpuDownload[];
  downloadBytes: number;
  downloadsUnsized: number;
}

/** The ComfyUI release whose stock nodes the shipped workflows use (the recorded catalogue, comfyui.md §15). */
const COMFYUI_MIN_VERSION = "0.3.64";

/**
 * Stock nodes that a new enough ComfyUI still lacks when a Python package of its own is missing: the module holding
 * them fails to import and ComfyUI starts without it (its log says "IMPORT FAILED"). Seen with `torchaudio` (issue 45).
 */
const NODE_PACKAGES: Record<string, string> = {
  LoadAudio: "torchaudio",
  SaveAudio: "torchaudio",
  AudioEncoderLoader: "torchaudio",
  AudioEncoderEncode: "torchaudio",
  UpscaleModelLoader: "spandrel",
  ImageUpscaleWithModel: "spandrel",
  LoadVideo: "av",
  SaveVideo: "av",
  CreateVideo: "av",
  GetVideoComponents: "av",
};

const versionParts = (v: string) =>
  v
    .split(/[.+-]/)
    .slice(0, 3)
    .map((n) => Number.parseInt(n, 10) || 0);
const atLeast = (v: string, min: string) => {
  const [a, b] = [versionParts(v), versionParts(min)];
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
};

/**
 * Why nodes are missing and what brings them back: an older ComfyUI than the workflows need is updated (`update`: the
 * version to reach); on a new enough one a stock node is missing because a Python package failed to import, so the
 * package is named (`packages`), and nodes of no known package are the ones its start-up log explains (`unloaded`).
 */
export interface NodesAdvice {
  update?: string;
  packages: string[];
  unloaded: string[];
}

export function nodesAdvice(nodes: string[], version: string | undefined): NodesAdvice {
  if (!version || !atLeast(version, COMFYUI_MIN_VERSION)) return { update: COMFYUI_MIN_VERSION, packages: [], unloaded: [] };
  return { packages: [...new Set(nodes.map((n) => NODE_PACKAGES[n]).filter(Boolean))], unloaded: nodes.filter((n) => !NODE_PACKAGES[n]) };
}

/** The advice as the terminal says it. */
function adviceText(a: NodesAdvice, version: string | undefined): string {
  if (a.update) return `update ComfyUI to ${a.update} or later`;
  return [
    ...a.packages.map((p) => `install the Python package ${p} in ComfyUI's environment (pip install ${p}) and restart ComfyUI`),
    ...(a.unloaded.length ? [`ComfyUI ${version} did not load ${a.unloaded.join(", ")}: its start-up log names the module that failed ("IMPORT FAILED")`] : []),
  ].join("; ");
}

/** Each missing file once, with the workflows waiting for it. */
function downloadsOf(reports: GpuWorkflowReport[]): GpuDownload[] {
  const byFile = new Map<string, GpuDownload>();
  for (const w of reports)
    for (const f of w.missingFiles ?? []) {
      const known = byFile.get(f.file);
      if (known) known.workflows.push(w.name);
      else byFile.set(f.file, { file: f.file, folder: f.folder, url: f.url, size: f.size, sha256: f.sha256, workflows: [w.name] });
    }
  return [...byFile.values()];
}

interface SystemStats {
  system?: { comfyui_version?: string };
  devices?: { name?: string; type?: string; vram_total?: number }[];
}

const gb = (bytes: number) => Math.round((bytes / 1024 ** 3) * 10) / 10;

/** Reads the server's /system_stats and /object_info and checks every workflow against them, with the manifest's downloads. */
export async function checkGpuServer(url: string, workflows: Workflow[], models: Record<string, string>): Promise<GpuServerReport> {
  const base = url.replace(/\/$/, "");
  const get = async <T>(p: string): Promise<T> => {
    const res = await fetch(`${base}${p}`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok) throw new Error(`GET ${p} answered ${res.status}`);
    return (await res.json()) as T;
  };
  try {
    const [stats, info] = await Promise.all([get<SystemStats>("/system_stats"), get<ObjectInfo>("/object_info")]);
    const gpus = (stats.devices ?? []).filter((d) => d.type !== "cpu").map((d) => ({ name: d.name ?? "?", memoryGB: gb(d.vram_total ?? 0) }));
    const largest = Math.max(0, ...gpus.map((g) => g.memoryGB));
    const version = stats.system?.comfyui_version;
    const reports: GpuWorkflowReport[] = workflows.map((wf) => {
      const check = checkWorkflow(wf, info, models);
      return {
        name: wf.name,
        title: wf.binding.title,
        gpuMemoryGB: wf.binding.gpuMemoryGB,
        ...(gpus.length ? { fitsMemory: largest >= wf.binding.gpuMemoryGB } : {}),
        ...check,
        ...(check.missingNodes ? { nodesAdvice: nodesAdvice(check.missingNodes, version) } : {}),
        ...(check.missingFiles ? { missingFiles: check.missingFiles.map((f) => (f.url ? f : { ...f, ...manifestOf(workflows, f.file) })) } : {}),
      };
    });
    const downloads = downloadsOf(reports);
    return {
      url: base,
      reachable: true,
      comfyuiVersion: version,
      gpus,
      characterModels: hasCharacterNodes(info),
      workflows: reports,
      downloads,
      downloadBytes: downloads.reduce((sum, d) => sum + (d.size ?? 0), 0),
      downloadsUnsized: downloads.filter((d) => d.size === null).length,
    };
  } catch (err) {
    const cause = (err as Error & { cause?: Error }).cause?.message;
    return {
      url: base,
      reachable: false,
      error: [(err as Error).message, cause].filter(Boolean).join(": "),
      gpus: [],
      workflows: [],
      downloads: [],
      downloadBytes: 0,
      downloadsUnsized: 0,
    };
  }
}

const size = (bytes: number | null) => (bytes === null ? "size not recorded" : `${gb(bytes)} GB`);

/** The report as the terminal shows it: per workflow, runnable or what to install and where to get it. */
export function formatGpuReport(r: GpuServerReport): string {
  if (!r.reachable) return `${r.url}: unreachable (${r.error})`;
  const lines = [
    `${r.url}: ComfyUI ${r.comfyuiVersion ?? "?"}, ${r.gpus.map((g) => `${g.name} (${g.memoryGB} GB)`).join(", ") || "no GPU reported"}`,
    r.characterModels
      ? "  character models: ready (Reverie's LoRA node is installed)"
      : "  character models: NOT READY — install gpu/comfyui-reverie into ComfyUI's custom_nodes/ and restart it (README, GPU servers)",
  ];
  for (const w of r.workflows) {
    const memory = w.fitsMemory === false ? ` — needs ${w.gpuMemoryGB} GB of GPU memory, more than this server's GPU has` : "";
    lines.push(`  ${w.offered ? "runnable  " : "NOT READY "} ${w.name} (${w.title}, ${w.gpuMemoryGB} GB GPU memory)${memory}`);
    if (w.missingNodes?.length)
      lines.push(`      missing nodes: ${w.missingNodes.join(", ")} — ${w.nodesAdvice && adviceText(w.nodesAdvice, r.comfyuiVersion)}`);
    for (const f of w.missingFiles ?? []) lines.push(`      missing file: models/${f.folder}/${f.file}`);
  }
  if (r.downloads.length) {
    const unsized = r.downloadsUnsized ? ` and ${r.downloadsUnsized} of unrecorded size` : "";
    lines.push(`  to download, each once (${gb(r.downloadBytes)} GB${unsized}):`);
    for (const d of r.downloads) {
      lines.push(`    models/${d.folder}/${d.file} (${size(d.size)}) for ${d.workflows.join(", ")}`);
      lines.push(`        ${d.url ? `from ${d.url}` : "from where you chose it: the manifest does not know this file (COMFYUI_MODELS)"}`);
      if (d.sha256) lines.push(`        sha256 ${d.sha256}`);
    }
  }
  return lines.join("\n");
}
