import crypto from "node:crypto";
import type { Config } from "../../../config.ts";
import { downloadCapped, TrainerError, trainerFetch, WEBHOOK_TOLERANCE_SECONDS, WebhookRejected, type Trainer, type TrainerUpdate } from "./trainer.ts";

/** Replicate's training object, the fields we read (https://replicate.com/docs/reference/http#trainings.get). */
interface ReplicateTraining {
  id: string;
  status: "starting" | "processing" | "succeeded" | "failed" | "canceled";
  output?: { version?: string; weights?: string } | null;
  error?: unknown;
  logs?: string | null;
}

/** The last "NN%|" progress bar a trainer printed to its logs (ostris/flux-dev-lora-trainer prints tqdm bars). */
function progressFromLogs(logs: string | null | undefined): number | undefined {
  if (!logs) return undefined;
  const bars = [...logs.slice(-4000).matchAll(/(\d{1,3})%\|/g)];
  const last = bars.at(-1);
  return last ? Math.min(99, Number(last[1])) : undefined;
}

function toUpdate(t: ReplicateTraining): TrainerUpdate {
  if (typeof t?.id !== "string" || typeof t?.status !== "string") throw new TrainerError("not a Replicate training object");
  switch (t.status) {
    case "succeeded":
      if (typeof t.output?.weights !== "string") return { jobId: t.id, state: "failed", error: "the trainer returned no weights" };
      return { jobId: t.id, state: "succeeded", progress: 100, weightsUrl: t.output.weights };
    case "failed":
      return { jobId: t.id, state: "failed", error: typeof t.error === "string" ? t.error.slice(0, 500) : "the trainer failed" };
    case "canceled":
      return { jobId: t.id, state: "cancelled" };
    default:
      return { jobId: t.id, state: "running", progress: progressFromLogs(t.logs) };
  }
}

/**
 * Replicate's trainings API (POST /v1/models/{owner}/{name}/versions/{id}/trainings) with a Flux LoRA trainer such
 * as ostris/flux-dev-lora-trainer: the dataset is a zip URL (`input_images`), the result a new version of
 * REPLICATE_DESTINATION whose `weights` URL holds the LoRA. Webhooks are signed the Standard Webhooks way:
 * HMAC-SHA256 over "id.timestamp.body" with the account's whsec_ secret (docs/decisions/090).
 */
export function createReplicateTrainer(config: Config): Trainer {
  const base = config.REPLICATE_API_URL.replace(/\/+$/, "");
  const [modelRef, version] = (config.REPLICATE_TRAINER ?? "").split(":");
  const auth = { Authorization: `Bearer ${config.REPLICATE_API_TOKEN}`, "Content-Type": "application/json" };
  const key = Buffer.from((config.REPLICATE_WEBHOOK_SECRET ?? "whsec_").slice("whsec_".length), "base64");

  return {
    name: "replicate",
    resolution: 1024,
    baseModel: "black-forest-labs/FLUX.1-dev",

    async submit(job) {
      const input: Record<string, unknown> = { input_images: job.datasetUrl, trigger_word: job.triggerWord, autocaption: false };
      if (job.steps) input.steps = job.steps;
      const t = (await trainerFetch(`${base}/v1/models/${modelRef}/versions/${version}/trainings`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ destination: config.REPLICATE_DESTINATION, input, webhook: job.webhookUrl, webhook_events_filter: ["start", "completed"] }),
      })) as ReplicateTraining;
      if (typeof t?.id !== "string") throw new TrainerError("Replicate answered no training id");
      return { jobId: t.id };
    },

    async status(jobId) {
      return toUpdate((await trainerFetch(`${base}/v1/trainings/${encodeURIComponent(jobId)}`, { headers: auth })) as ReplicateTraining);
    },

    async cancel(jobId) {
      await trainerFetch(`${base}/v1/trainings/${encodeURIComponent(jobId)}/cancel`, { method: "POST", headers: auth });
    },

    async verifyWebhook(rawBody, header) {
      const id = header("webhook-id");
      const timestamp = header("webhook-timestamp");
      const signatures = header("webhook-signature");
      if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) throw new WebhookRejected("missing webhook headers");
      if (Math.abs(Date.now() / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) throw new WebhookRejected("webhook timestamp outside the tolerance");
      const expected = crypto.createHmac("sha256", key).update(`${id}.${timestamp}.`).update(rawBody).digest();
      const ok = signatures.split(" ").some((entry) => {
        const [v, sig] = entry.split(",", 2);
        if (v !== "v1" || !sig) return false;
        const given = Buffer.from(sig, "base64");
        return given.length === expected.length && crypto.timingSafeEqual(given, expected);
      });
      if (!ok) throw new WebhookRejected("webhook signature does not verify");
      let body: ReplicateTraining;
      try {
        body = JSON.parse(rawBody.toString("utf8"));
      } catch {
        throw new WebhookRejected("webhook body is not JSON");
      }
      return toUpdate(body);
    },

    // replicate.delivery URLs are signed by Replicate; no credentials go along
    download: (url, maxBytes) => downloadCapped(url, maxBytes),
  };
}
