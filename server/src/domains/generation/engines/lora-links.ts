import crypto from "node:crypto";
import type { Config } from "../../../config.ts";
import { mediaUrlSecret } from "../../../storage/storage.ts";
import { UnrunnableError, type EngineJob, type LoraLinks } from "./engine.ts";
import type { Binding } from "./workflow-binding.ts";

/**
 * How a person's character model reaches a GPU server (decision 330): the workflow names it by the SHA-256 of its
 * weights and a short-lived link signed for that file and that server; Reverie's ComfyUI node (gpu/comfyui-reverie)
 * fetches it from there into its cache once, checks the hash, and loads it. Erasure asks each server to evict it.
 */

/** The route a GPU server fetches the weights from (training domain). */
export const GPU_LORA_PATH = "/api/gpu/loras";
/** Reverie's node route that deletes cached weights on a ComfyUI server. */
const EVICT_PATH = "/reverie/loras/evict";
/** Reverie's loader for each stock LoRA loader a workflow holds: the same inputs, but sha256 and url for lora_name. */
export const REVERIE_LOADERS: Record<string, string> = { LoraLoader: "ReverieLoraLoader", LoraLoaderModelOnly: "ReverieLoraLoaderModelOnly" };
/** A server whose /object_info lists these can run a character model. */
export const CHARACTER_NODES = Object.values(REVERIE_LOADERS);
/** Whether a server's /object_info has Reverie's LoRA loaders: it can run a person's character model. */
export const hasCharacterNodes = (info: Record<string, unknown>) => CHARACTER_NODES.every((c) => c in info);

const EVICT_TIMEOUT_MS = 5_000;

export type { LoraLinks };

/** Links signed with the media URL key, apart from media links by their own prefix: one can never stand for the other. */
export function loraLinks(secret: string, publicUrl: string, ttlSeconds: number): LoraLinks {
  const sign = (sha256: string, server: string, expires: number) =>
    crypto.createHmac("sha256", secret).update(`gpu-lora\n${sha256}\n${server}\n${expires}`).digest("base64url");
  return {
    link(sha256, server) {
      const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
      const q = new URLSearchParams({ server, expires: String(expires), sig: sign(sha256, server, expires) });
      return `${publicUrl}${GPU_LORA_PATH}/${sha256}?${q}`;
    },
    verify(sha256, server, expires, sig, now = Date.now()) {
      if (!Number.isInteger(expires) || expires * 1000 < now) return false;
      const expected = Buffer.from(sign(sha256, server, expires));
      const given = Buffer.from(sig);
      return expected.length === given.length && crypto.timingSafeEqual(expected, given);
    },
  };
}

/**
 * Asks each ComfyUI server to delete these weights from its cache now; answers the servers that confirmed. One that
 * does not answer keeps its copy until the node's age limit deletes it (REVERIE_LORA_MAX_AGE_HOURS): it can no longer
 * fetch the file again, and Reverie names it in no job.
 */
export async function evictEverywhere(servers: string[], sha256s: string[]): Promise<string[]> {
  if (!sha256s.length) return [];
  const answers = await Promise.all(
    [...new Set(servers.map((u) => u.replace(/\/$/, "")))].map(async (url) => {
      const res = await fetch(`${url}${EVICT_PATH}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ sha256: sha256s }),
        signal: AbortSignal.timeout(EVICT_TIMEOUT_MS),
      }).catch(() => undefined);
      return res?.ok ? url : undefined;
    }),
  );
  return answers.filter((u): u is string => !!u);
}

/** The links of this deployment: signed with its media URL key, valid GPU_LORA_LINK_SECONDS, under PUBLIC_URL. */
export const loraLinksFor = (config: Config) => loraLinks(mediaUrlSecret(config), config.publicUrl, config.GPU_LORA_LINK_SECONDS);

/**
 * The LoRA slots: Reverie's loader in each stock one's place when a character model is given (the file by its hash and
 * a link to fetch it by, never a bare file name the server does not list, decision 330), else the loaders bypassed.
 */
export function bindLoras(
  prompt: Record<string, { class_type: string; inputs: Record<string, unknown> }>,
  b: Binding,
  lora: EngineJob["lora"],
  loraUrl: string | undefined,
) {
  for (const slot of b.lora) {
    if (lora) {
      if (!loraUrl) throw new UnrunnableError("no link to fetch the character model by");
      // a task queued before decision 330 carries no hash: failed (and refunded) before any prompt, not sent unnamed
      if (!lora.sha256) throw new UnrunnableError("the character model has no hash: submit again");
      const loader = prompt[slot.node];
      const clip = slot.name === "lora_name" && "strength_clip" in loader.inputs;
      loader.class_type = REVERIE_LOADERS[loader.class_type];
      delete loader.inputs[slot.name];
      Object.assign(loader.inputs, { sha256: lora.sha256, url: loraUrl });
      for (const input of [slot.strength, ...(clip ? ["strength_clip"] : [])]) loader.inputs[input] = lora.strength;
      continue;
    }
    // no LoRA: whoever read the loader's output i reads the loader's input bypass[i] instead
    const loader = prompt[slot.node];
    delete prompt[slot.node];
    for (const n of Object.values(prompt)) {
      for (const [k, v] of Object.entries(n.inputs)) {
        if (Array.isArray(v) && v[0] === slot.node && typeof v[1] === "number") n.inputs[k] = loader.inputs[slot.bypass[v[1]]];
      }
    }
  }
}
