import type { Logger } from "pino";
import type { Config } from "../../../config.ts";
import { WORKFLOW_TIERS, type CostClass, type EngineKind, type WorkflowTier } from "../../../contract/engines.ts";
import type { GenerationMode } from "../../../contract/generation.ts";
import { HttpError } from "../../../http/errors.ts";
import { MSG } from "../../../http/messages.ts";
import type { EngineStatus, GenerationEngine } from "./engine.ts";
import { resolveMediaTool } from "../../../storage/media-binaries.ts";
import { createLocalEngine } from "./local.engine.ts";
import { createGpuEngines } from "./gpu-engines.ts";
import { checkGpuServer } from "./gpu-check.ts";
import { shareGpuChecks } from "./gpu-rechecks.ts";
import { misfit, pinFault, takesLora, type Brought } from "./workflow-choice.ts";
import { loadWorkflows, type Workflow } from "./workflows.ts";
import { MODE_NEEDS, type Need } from "./workflow-binding.ts";
import {
  localControls,
  REQUEST_EXTRAS,
  runOrPinned,
  sourceOf,
  templateExtras,
  workflowControls,
  workflowFor,
  type RequestExtra,
  type WorkflowRequest,
} from "./controls.ts";

/** The workflows a GPU engine can run now: the same list the submit's refusal reads, so price, controls and refusal agree. */
const offeredBy =
  ({ workflows: runnable }: EngineStatus) =>
  (wf: Workflow) =>
    !runnable || runnable.includes(wf.name);

/** What the registry answers of the workflows themselves: which there are, their prices and what each server lacks. */
function workflowChecks(
  config: Config,
  workflows: Workflow[],
  status: (name: EngineKind) => Promise<EngineStatus>,
  announce: (urls: string[]) => Promise<void> | undefined,
) {
  return {
    /**
     * The workflow files the GPU engines run that a template may pin (the console offers them per template); an upscale
     * runs only as a follow-up of a finished result, never as a template's (decision 307).
     */
    workflows: workflows
      .filter((w) => !w.binding.followUp)
      .map((w) => ({ name: w.name, title: w.binding.title, modes: w.binding.modes, tier: w.binding.tier })),
    /** Why a template of this mode cannot pin this workflow, whatever the servers offer; null where it can (decision 320). */
    pinFault: (mode: GenerationMode, workflow: string | null | undefined) => pinFault(workflows, mode, workflow),
    /**
     * Each ComfyUI server checked now against the model manifest (the console's Engines page; `npm run gpu:check`
     * prints the same); the pool of this process and of every other one then offers what it found (decision 375).
     */
    async gpuCheck() {
      const reports = await Promise.all(config.COMFYUI_URLS.map((url) => checkGpuServer(url, workflows, config.COMFYUI_MODELS)));
      await announce(reports.map((r) => r.url));
      return reports;
    },
    /**
     * The cost class of the workflow a GPU engine will run for a request, which prices it (decision 239): the template's
     * (also before the request fits it, decision 315), else the one it picks by priority among those it can run now;
     * undefined for the local engine, and when none makes the mode (the submit is then refused with 503 before any
     * charge, whatever the price).
     */
    costClassFor: async (name: EngineKind, o: WorkflowRequest): Promise<CostClass | undefined> =>
      name === "local" ? undefined : runOrPinned(workflows, o, offeredBy(await status(name)))?.binding.costClass,
    /**
     * The workflow a GPU engine would run for a follow-up now (decision 307): its name and cost class, where a healthy
     * server offers it; null where none does, and always for the local engine.
     */
    offeredWorkflow: async (name: EngineKind, o: WorkflowRequest): Promise<{ name: string; costClass: CostClass } | null> => {
      const s = await status(name);
      if (name === "local" || !s.available) return null;
      const offered = offeredBy(s);
      const wf = workflowFor(workflows, o, offered);
      return wf && offered(wf) ? { name: wf.name, costClass: wf.binding.costClass } : null;
    },
    /**
     * The tiers a GPU engine has a workflow of for a request (issue 45), best first: a person chooses where there are
     * two. None on the local engine, and none for a template pinned to one workflow (the pin is its tier).
     */
    tiersFor: (name: EngineKind, o: WorkflowRequest): WorkflowTier[] =>
      name === "local" || o.workflow ? [] : WORKFLOW_TIERS.filter((tier) => workflowFor(workflows, { ...o, tier }, () => true)),
    /** The studio controls the engine will honour for a request (decision 273): the app shows only these. */
    controlsFor: async (name: EngineKind, o: WorkflowRequest) =>
      name === "local" ? localControls(o.mode) : workflowControls(workflows, o, offeredBy(await status(name))),
  };
}

/**
 * Every configured engine: local always; comfyui with COMFYUI_URLS; serverless with SERVERLESS_URL. The local check
 * runs ffmpeg, so its status is kept `localTtlMs`; the GPU engines answer from their own health rounds.
 */
export function createEngines(config: Config, log: Logger, localTtlMs = 60_000, databaseUrl = config.DATABASE_URL) {
  const engines = new Map<EngineKind, GenerationEngine>();
  engines.set(
    "local",
    createLocalEngine({ toolPath: (tool) => resolveMediaTool(tool, config), gpuConfigured: config.COMFYUI_URLS.length > 0 || !!config.SERVERLESS_URL }),
  );
  const workflows = loadWorkflows();
  const { comfy, serverless } = createGpuEngines(config, workflows, log);
  if (comfy) engines.set("comfyui", comfy);
  if (serverless) engines.set("serverless", serverless);

  const cache = new Map<EngineKind, { at: number; value: Promise<EngineStatus> }>();
  // an operator's check, here or in another process, is what the pool offers from then on (decision 375)
  const operatorChecks = comfy
    ? shareGpuChecks(databaseUrl, log, async (urls) => {
        await comfy.recheck(urls);
        cache.delete("comfyui");
      })
    : undefined;
  const workflowInfo = workflowChecks(config, workflows, status, (urls) => operatorChecks?.announce(urls));
  /** What each engine's last check said, so a change is logged once rather than on every check. */
  const known = new Map<EngineKind, boolean>();

  function noteStatus(s: EngineStatus) {
    if (known.get(s.engine) === s.available) return;
    known.set(s.engine, s.available);
    if (!s.available)
      log.error({ engine: s.engine, fix: s.fix }, `${s.engine} engine cannot run: ${s.message} Fix: ${s.fix ?? "see the console's engine status"}`);
    else log.info({ engine: s.engine }, `${s.engine} engine is available`);
  }

  async function status(name: EngineKind): Promise<EngineStatus> {
    const engine = engines.get(name);
    if (!engine) {
      return {
        engine: name,
        label: name,
        available: false,
        ai: name !== "local",
        modes: [],
        message: `The ${name} engine is not configured.`,
        fix: name === "comfyui" ? "Set COMFYUI_URLS." : "Set SERVERLESS_URL.",
      };
    }
    let c = cache.get(name);
    if (!c || Date.now() - c.at > (name === "local" ? localTtlMs : 1000)) {
      c = { at: Date.now(), value: engine.status().then((s) => (noteStatus(s), s)) };
      cache.set(name, c);
    }
    return c.value;
  }

  const defaultName: EngineKind = config.GENERATION_ENGINE;

  return {
    ...workflowInfo,
    defaultName,
    get(name: EngineKind): GenerationEngine | undefined {
      return engines.get(name);
    },
    /** The engine by name, for the worker; a task of an engine this process lacks cannot run here. */
    require(name: string): GenerationEngine {
      const e = engines.get(name as EngineKind);
      if (!e) throw new Error(`engine ${name} is not configured in this process`);
      return e;
    },
    list(): GenerationEngine[] {
      return [...engines.values()];
    },
    status,
    /**
     * The default engine's status as the public API shows it: what works and what not, without the operator's fix,
     * server addresses or errors (those may name paths and hosts; the console shows them).
     */
    publicStatus: async () => {
      const { engine, label, available, ai, message, modes } = await status(defaultName);
      return { engine, label, available, ai, message, modes };
    },
    statuses: () => Promise.all([...new Set<EngineKind>([...engines.keys(), defaultName])].map(status)),
    ...refusals(status, defaultName, workflows),
    /** Checks each configured engine at start; one that cannot run is logged once, with its fix. */
    async checkAll(): Promise<EngineStatus[]> {
      return Promise.all([...engines.keys()].map(status));
    },
    async close() {
      await Promise.all([...[...engines.values()].map((e) => e.close?.()), operatorChecks?.close()]);
    },
  };
}

/** What a person is told when what their request brings is made nowhere now. */
const UNAVAILABLE = { end_image: "transitionUnavailable", camera: "cameraUnavailable", motion: "motionUnavailable" } as const satisfies Record<
  RequestExtra,
  keyof typeof MSG
>;

/** What a person is told when the workflow a template pins needs what their request lacks, or cannot take what it brings (decision 315). */
const LACKS = {
  image: "choosePicture",
  video: "templateWrongKind",
  audio: "templateWrongKind",
  end_image: "templateNeedsEndImage",
  camera: "templateNeedsCamera",
  motion: "templateNeedsMotion",
} as const satisfies Record<Need, keyof typeof MSG>;
const TAKES_NO = { end_image: "templateTakesNoEndImage", camera: "templateTakesNoCamera", motion: "templateTakesNoMotion" } as const satisfies Record<
  RequestExtra,
  keyof typeof MSG
>;

/** Whether the engines can run a request now, for its exact workflow (decision 236). */
function refusals(status: (name: EngineKind) => Promise<EngineStatus>, defaultName: EngineKind, workflows: Workflow[]) {
  /**
   * Why the engine cannot run a job of `mode` (when known) with `workflow` (a template's pinned one; else the mode's
   * default, which the engine picks among those it can run) now; null when it can. A request bringing a last frame or
   * a camera move (`extras`) runs only where a workflow taking it is offered now (decision 303): never on the local engine.
   */
  async function refusal(
    name: EngineKind,
    mode?: GenerationMode,
    workflow?: string | null,
    extras: readonly RequestExtra[] = [],
    brings?: Brought,
    tier?: WorkflowTier,
  ): Promise<string | null> {
    const s = await status(name);
    if (!s.available) return s.message;
    // a GPU engine's audio overlay is lip-synced only (decision 305): say which kind cannot be made
    const cannot = mode === "audio_overlay" && s.ai ? MSG.lipSyncUnavailable : `The ${s.label} engine cannot make this kind of generation right now.`;
    // a pinned workflow makes its template's mode (decision 320): offered now, it runs
    if (workflow && s.workflows && !s.workflows.includes(workflow)) return cannot;
    if (!mode) return null;
    // what the request adds to its mode's own inputs runs only where a workflow using it does (decisions 303, 337)
    const adds = name !== "local" && (extras.length > 0 || (!!brings?.image && !MODE_NEEDS[mode].includes("image")));
    if (!(workflow && s.workflows) && !adds && !s.modes.includes(mode)) return cannot;
    if (name === "local") return extras.length ? MSG[UNAVAILABLE[extras[0]]] : null;
    if (brings?.lora && s.characterModels === false) return MSG.characterUnavailable; // no server loads a LoRA: not charged
    const fast = tier === "fast" && !workflow;
    if (workflow ? !extras.length : !adds && !brings?.lora && !fast) return null;
    // the workflow the submit would run, given all it brings: none dropping a photo or LoRA (decision 336), none of
    // another family than the LoRA's (decision 395), same tier
    const source = brings?.video ? "video" : (sourceOf(mode) ?? (brings?.image ? "image" : undefined));
    const request = { mode, workflow, source, extras, lora: brings?.lora, tier };
    const wf = workflowFor(workflows, request, offeredBy(s));
    if (wf && offeredBy(s)(wf)) return null;
    // no shipped workflow makes this with the character model's family, though one makes it without: no outage to wait out
    const anywhere = (r: typeof request) => workflowFor(workflows, r, () => true) !== undefined;
    if (brings?.lora && !anywhere(request) && anywhere({ ...request, lora: undefined })) return MSG.characterNotForThis;
    if (extras.length) return MSG[UNAVAILABLE[extras[0]]];
    if (fast) return MSG.fastUnavailable;
    return brings?.lora ? MSG.characterUnavailable : MSG.photoToImageUnavailable;
  }

  /** The workflow a template pins, where the engine runs workflows (the local engine runs none). */
  const pinnedOn = (name: EngineKind, workflow: string | null | undefined) =>
    name === "local" || !workflow ? undefined : workflows.find((w) => w.name === workflow);

  /**
   * Why the workflow a template pins cannot make this request, whatever the servers offer (decision 315); null where it
   * can, where none is pinned or it is unknown (refused as unrunnable), and on the local engine, which runs no workflow.
   */
  function misfitOf(name: EngineKind, mode: GenerationMode, workflow: string | null | undefined, brings: Brought): string | null {
    const wf = pinnedOn(name, workflow);
    // a pinned workflow without a LoRA slot would drop the person's character model (decision 336)
    if (wf && brings.lora && !wf.binding.lora.length) return MSG.templateTakesNoCharacter;
    // nor would a LoRA slot of another family than the character model's: it would load none of its keys (decision 395)
    if (wf && brings.lora && !takesLora(wf, brings.lora)) return MSG.templateTakesNotThisCharacter;
    const why = wf && misfit(wf, mode, brings);
    if (!why) return null;
    return MSG["mode" in why ? "templateWrongKind" : "lacks" in why ? LACKS[why.lacks] : TAKES_NO[why.takesNo]];
  }

  return {
    refusal,
    misfit: misfitOf,
    /** What the workflow a template pins needs besides its media (a transition's second photo): the studio asks for it as required. */
    requiredExtras: (name: EngineKind, workflow: string | null | undefined): RequestExtra[] =>
      REQUEST_EXTRAS.filter((x) => pinnedOn(name, workflow)?.binding.needs.includes(x)),
    /** Why a template (its engine, else the default; its mode, pinned workflow and camera move) cannot run now; null when it can. */
    refusalFor: (t: { engine: string | null; mode: GenerationMode; workflow: string | null; engineParams?: unknown }) =>
      refusal((t.engine as EngineKind | null) ?? defaultName, t.mode, t.workflow, templateExtras(t.engineParams)),
    /**
     * Refuses, before anything is charged, a submit the engine cannot take: 400 where what it `brings` does not fit
     * the template's pinned workflow (`misfit`), else 503 with the engine's own message (not configured, cannot run,
     * not offering this mode, or not the exact workflow the submit would run).
     */
    async assertCanRun(
      name: EngineKind,
      mode: GenerationMode,
      workflow?: string | null,
      extras?: readonly RequestExtra[],
      brings?: Brought,
      tier?: WorkflowTier,
    ): Promise<void> {
      const wrong = brings && misfitOf(name, mode, workflow, brings);
      if (wrong) throw HttpError.badRequest(wrong);
      const why = await refusal(name, mode, workflow, extras, brings, tier);
      if (why) throw new HttpError(503, why);
    },
  };
}

export type Engines = ReturnType<typeof createEngines>;
