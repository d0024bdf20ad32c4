import crypto from "node:crypto";
import type { Config } from "../../../config.ts";
import { downloadCapped, TrainerError, trainerFetch, WEBHOOK_TOLERANCE_SECONDS, WebhookRejected, type Trainer, type TrainerUpdate } from "./trainer.ts";

/** fal's Flux LoRA trainers answer `diffusers_lora_file` (a .safetensors file) and `config_file`. */
interface FalTrainingResult {
  diffusers_lora_file?: { url?: string; file_size?: number };
}

/** fal's webhook delivery (https://docs.fal.ai/model-endpoints/webhooks). */
interface FalWebhook {
  request_id?: string;
  status?: "OK" | "ERROR";
  payload?: FalTrainingResult | null;
  /** set, with `payload: null`, when fal could not serialise the result */
  payload_error?: string;
  error?: string;
}

const JWKS_TTL_MS = 24 * 3600_000;

function resultUpdate(jobId: string, r: FalTrainingResult | null | undefined): TrainerUpdate {
  const url = r?.diffusers_lora_file?.url;
  if (typeof url !== "string") return { jobId, state: "failed", error: "the trainer returned no weights" };
  return { jobId, state: "succeeded", progress: 100, weightsUrl: url };
}

/**
 * fal's queue API (POST https://queue.fal.run/{app}?fal_webhook=..., status, result and cancel under
 * /{app}/requests/{id}) with a Flux LoRA trainer such as fal-ai/flux-lora-fast-training. Webhooks are signed with
 * ED25519: the signature (hex) covers "request_id\nuser_id\ntimestamp\nsha256(body) hex" and verifies against one
 * of the public keys fal publishes as a JWKS (docs/decisions/090).
 */
export function createFalTrainer(config: Config): Trainer {
  const base = `${config.FAL_QUEUE_URL.replace(/\/+$/, "")}/${config.FAL_TRAINER_APP}`;
  const auth = { Authorization: `Key ${config.FAL_KEY}`, "Content-Type": "application/json" };
  let jwks: { keys: crypto.KeyObject[]; at: number } | undefined;

  async function signingKeys(refresh: boolean): Promise<crypto.KeyObject[]> {
    if (!refresh && jwks && Date.now() - jwks.at < JWKS_TTL_MS) return jwks.keys;
    const doc = (await trainerFetch(config.FAL_JWKS_URL, { timeoutMs: 10_000 })) as { keys?: { kty?: string; crv?: string; x?: string }[] };
    const keys = (doc.keys ?? [])
      .filter((k) => k.kty === "OKP" && k.crv === "Ed25519" && typeof k.x === "string")
      .map((k) => crypto.createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: k.x! }, format: "jwk" }));
    jwks = { keys, at: Date.now() };
    return keys;
  }

  /** The request's state at fal, and its result once completed (the poll, and a webhook that came without one). */
  async function status(jobId: string): Promise<TrainerUpdate> {
    const id = encodeURIComponent(jobId);
    const s = (await trainerFetch(`${base}/requests/${id}/status`, { headers: auth })) as { status?: string };
    if (s.status === "IN_QUEUE" || s.status === "IN_PROGRESS") return { jobId, state: "running" };
    if (s.status !== "COMPLETED") throw new TrainerError(`fal answered an unknown status ${String(s.status).slice(0, 40)}`);
    try {
      return resultUpdate(jobId, (await trainerFetch(`${base}/requests/${id}`, { headers: auth })) as FalTrainingResult);
    } catch (err) {
      // a completed request whose result is an error answer failed at the trainer
      if (err instanceof TrainerError && /answered [45]\d\d/.test(err.message)) return { jobId, state: "failed", error: err.message.slice(0, 500) };
      throw err;
    }
  }

  return {
    name: "fal",
    resolution: 1024,
    baseModel: "black-forest-labs/FLUX.1-dev",

    async submit(job) {
      const input: Record<string, unknown> = { images_data_url: job.datasetUrl, trigger_word: job.triggerWord, create_masks: true, is_style: false };
      if (job.steps) input.steps = job.steps;
      const r = (await trainerFetch(`${base}?fal_webhook=${encodeURIComponent(job.webhookUrl)}`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify(input),
      })) as { request_id?: string };
      if (typeof r?.request_id !== "string") throw new TrainerError("fal answered no request id");
      return { jobId: r.request_id };
    },

    status,

    async cancel(jobId) {
      await trainerFetch(`${base}/requests/${encodeURIComponent(jobId)}/cancel`, { method: "PUT", headers: auth });
    },

    async verifyWebhook(rawBody, header) {
      const requestId = header("x-fal-webhook-request-id");
      const userId = header("x-fal-webhook-user-id");
      const timestamp = header("x-fal-webhook-timestamp");
      const signature = header("x-fal-webhook-signature");
      if (!requestId || !userId || !timestamp || !signature || !/^\d+$/.test(timestamp) || !/^[0-9a-f]+$/i.test(signature))
        throw new WebhookRejected("missing webhook headers");
      if (Math.abs(Date.now() / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) throw new WebhookRejected("webhook timestamp outside the tolerance");
      const message = Buffer.from([requestId, userId, timestamp, crypto.createHash("sha256").update(rawBody).digest("hex")].join("\n"));
      const sig = Buffer.from(signature, "hex");
      const verifies = (keys: crypto.KeyObject[]) => keys.some((k) => crypto.verify(null, message, k, sig));
      // a key rotated since the cache was filled: look once more before refusing
      if (!verifies(await signingKeys(false)) && !verifies(await signingKeys(true))) throw new WebhookRejected("webhook signature does not verify");
      let body: FalWebhook;
      try {
        body = JSON.parse(rawBody.toString("utf8"));
      } catch {
        throw new WebhookRejected("webhook body is not JSON");
      }
      if (body.request_id !== requestId) throw new WebhookRejected("webhook body names another request");
      // fal sends `payload: null` with a `payload_error` when it could not serialise the result: read it from the queue
      if (body.status === "OK") return body.payload ? resultUpdate(requestId, body.payload) : status(requestId);
      return { jobId: requestId, state: "failed", error: (typeof body.error === "string" ? body.error : "the trainer failed").slice(0, 500) };
    },

    download: (url, maxBytes) => downloadCapped(url, maxBytes),
  };
}
