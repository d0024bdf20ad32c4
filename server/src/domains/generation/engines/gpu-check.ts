import { CHARACTER_NODES } from "./lora-links.ts";
import { checkWorkflow, type ObjectInfo, type Workflow, type WorkflowCheck } from "./workflows.ts";

const TIMEOUT_MS = 15_000;

/** One workflow on one server: runnable, or what it lacks; its GPU memory need beside the server's largest GPU. */
export interface GpuWorkflowReport extends WorkflowCheck {
  name: string;
  title: string;
  gpuMemoryGB: number;
  /** False when the server's largest GPU has less memory than the workflow needs; unset when it reports none. */
  fitsMemory?: boolean;
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
    return {
      url: base,
      reachable: true,
      comfyuiVersion: stats.system?.comfyui_version,
      gpus,
      characterModels: CHARACTER_NODES.every((c) => c in info),
      workflows: workflows.map((wf) => ({
        name: wf.name,
        title: wf.binding.title,
        gpuMemoryGB: wf.binding.gpuMemoryGB,
        ...(gpus.length ? { fitsMemory: largest >= wf.binding.gpuMemoryGB } : {}),
        ...checkWorkflow(wf, info, models),
      })),
    };
  } catch (err) {
    const cause = (err as Error & { cause?: Error }).cause?.message;
    return { url: base, reachable: false, error: [(err as Error).message, cause].filter(Boolean).join(": "), gpus: [], workflows: [] };
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
    if (w.missingNodes?.length) lines.push(`      missing nodes: ${w.missingNodes.join(", ")} — update ComfyUI to 0.3.64 or later`);
    for (const f of w.missingFiles ?? []) {
      lines.push(`      missing file: models/${f.folder}/${f.file} (${size(f.size)})`);
      lines.push(`          from ${f.url}`);
      if (f.sha256) lines.push(`          sha256 ${f.sha256}`);
    }
  }
  return lines.join("\n");
}
