import type { ApiRouter } from "../../http/api.ts";
import { HttpError } from "../../http/errors.ts";
import { sendStored } from "../../storage/serve.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { GPU_LORA_PATH } from "../generation/engines/lora-links.ts";
import { gpuWeightsParams, gpuWeightsQuery } from "./training.schema.ts";
import type { TrainingService } from "./training.service.ts";

/**
 * The weights of a character model, for the GPU server a link was signed for (decision 330): Reverie's ComfyUI node
 * fetches them once into its cache. Anything but a valid, unexpired link to a usable model is a plain 404.
 */
export function trainingGpuRoutes(api: ApiRouter, training: TrainingService, storage: MediaStorage) {
  api.get(
    `${GPU_LORA_PATH}/:sha256`,
    {
      summary: "A character model's weights, for the GPU server a short-lived link was signed for",
      tags: ["training"],
      auth: "public",
      params: gpuWeightsParams,
      query: gpuWeightsQuery,
      response: { kind: "file", contentType: "application/octet-stream", description: "The .safetensors file" },
    },
    async ({ params, query, req, res }) => {
      const key = await training.gpuWeights({ sha256: params.sha256, ...query });
      if (!key) throw HttpError.notFound();
      await sendStored(req, res, storage, key, { "Cache-Control": "no-store" });
      return undefined;
    },
  );
}
