import type { BaseModel, TrainerName } from "../../../contract/training.ts";
import { WeightsError } from "../weights.ts";

/** What Reverie hands a trainer: a zipped dataset it can fetch, the trigger word, where to report back. */
export interface TrainerJob {
  /** Signed, expiring URL of the dataset zip (face-centred crops, captions, manifest). */
  datasetUrl: string;
  triggerWord: string;
  webhookUrl: string;
  /** Steps to train; the trainer's documented default when unset. */
  steps?: number;
}

/** A trainer's word on one job, from a verified webhook or a status poll. */
export interface TrainerUpdate {
  jobId: string;
  state: "running" | "succeeded" | "failed" | "cancelled";
  /** 0-100 when the trainer tells; otherwise estimated from elapsed time. */
  progress?: number;
  error?: string;
  /** Where the weights are when succeeded (a .safetensors file, or a tar holding one). */
  weightsUrl?: string;
}

/**
 * The seam between the training domain and a trainer service. One file per trainer; each speaks that host's own
 * documented HTTP API and webhook signature scheme (docs/decisions/090).
 */
export interface Trainer {
  readonly name: TrainerName;
  /** Square crop side the trainer expects. */
  readonly resolution: number;
  /** The base model the LoRA is trained for (stored with the weights): its family picks the workflows that run it (decision 395). */
  readonly baseModel: BaseModel;
  submit(job: TrainerJob): Promise<{ jobId: string }>;
  status(jobId: string): Promise<TrainerUpdate>;
  cancel(jobId: string): Promise<void>;
  /** Checks the signature over the exact bytes received; throws WebhookRejected when it does not verify. */
  verifyWebhook(rawBody: Buffer, header: (name: string) => string | undefined): Promise<TrainerUpdate>;
  /** Downloads the weights a succeeded update names, with the trainer's credentials where its file host needs them. */
  download(url: string, maxBytes: number): Promise<Buffer>;
}

export class TrainerError extends Error {}
export class WebhookRejected extends Error {}

/** Webhook timestamps further than this from our clock are refused: a captured delivery cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** A JSON call to a trainer API; a non-2xx answer becomes a TrainerError carrying the status (never the body's secrets). */
export async function trainerFetch(url: string, init: RequestInit & { timeoutMs?: number }): Promise<unknown> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 30_000) }).catch((err: Error) => {
    throw new TrainerError(`trainer unreachable: ${err.message}`);
  });
  const text = await res.text();
  if (!res.ok) throw new TrainerError(`trainer answered ${res.status}: ${text.slice(0, 200)}`);
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new TrainerError("trainer answered something other than JSON");
  }
}

/**
 * Downloads a file with a size cap, reading the body as it arrives so an oversized file is refused early (a
 * WeightsError: the result is bad); an unreachable host is a TrainerError (try again later).
 */
export async function downloadCapped(url: string, maxBytes: number, headers: Record<string, string> = {}): Promise<Buffer> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(10 * 60_000) }).catch((err: Error) => {
    throw new TrainerError(`weights unreachable: ${err.message}`);
  });
  if (!res.ok || !res.body) throw new TrainerError(`weights download answered ${res.status}`);
  const declared = Number(res.headers.get("content-length") ?? 0);
  if (declared > maxBytes) throw new WeightsError("the weights file is too large");
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > maxBytes) throw new WeightsError("the weights file is too large");
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
