// The face model's thread (docs/decisions/092). Plain JavaScript so the same file runs under tsx, vitest and the
// bundled server without a TypeScript loader inside the worker. It loads @vladmandic/human once, on its WASM
// backend with the weights shipped inside the npm package, and answers detect requests one at a time.
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";

const require = createRequire(import.meta.url);
// both packages' exports hide package.json; their main files sit in dist/
const humanDir = path.join(path.dirname(require.resolve("@vladmandic/human")), "..") + path.sep;
const wasmDir = path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm")) + path.sep;

// Node's fetch has no file: scheme; tfjs loads weights and the .wasm through fetch, so this thread reads them from disk.
const networkFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith("file:")) return networkFetch(input, init);
  const body = await fs.readFile(new URL(url));
  const type = url.endsWith(".json") ? "application/json" : url.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
  return new Response(body, { status: 200, headers: { "content-type": type } });
};

const { Human } = require(`${humanDir}dist/human.node-wasm.js`);
const human = new Human({
  backend: "wasm",
  wasmPath: pathToFileURL(wasmDir).href,
  modelBasePath: pathToFileURL(`${humanDir}models/`).href,
  debug: false,
  cacheSensitivity: 0,
  face: {
    enabled: true,
    detector: { rotation: true, maxDetected: workerData?.maxFaces ?? 5, minConfidence: 0.5, return: false },
    mesh: { enabled: true },
    iris: { enabled: false },
    description: { enabled: true },
    emotion: { enabled: false },
    // the consent selfie's replay checks (decision 170): both ship in Human's models folder; enabled here so they load once
    antispoof: { enabled: true, skipFrames: 0, skipTime: 0 },
    liveness: { enabled: true, skipFrames: 0, skipTime: 0 },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
  filter: { enabled: false },
});

const ready = human.load().then(() => human.tf.ready());

parentPort.on("message", async (msg) => {
  try {
    await ready;
    const { width, height, rgb } = msg;
    const tensor = human.tf.tensor4d(new Uint8Array(rgb), [1, height, width, 3], "int32");
    try {
      // the replay models load once with the rest but run only where asked (the consent selfie): photos skip them
      const result = await human.detect(tensor, { face: { antispoof: { enabled: Boolean(msg.liveness) }, liveness: { enabled: Boolean(msg.liveness) } } });
      const faces = result.face.map((f) => ({
        box: { x: f.box[0], y: f.box[1], width: f.box[2], height: f.box[3] },
        score: f.score,
        age: typeof f.age === "number" ? f.age : null,
        yaw: f.rotation?.angle?.yaw ?? null,
        real: typeof f.real === "number" ? f.real : null,
        live: typeof f.live === "number" ? f.live : null,
        descriptor: Array.from(f.embedding ?? []),
      }));
      parentPort.postMessage({ id: msg.id, faces });
    } finally {
      tensor.dispose();
    }
  } catch (err) {
    parentPort.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
  }
});
