// Plain JavaScript: worker threads do not load TypeScript through tsx. Uploads for hardening.bench.ts's health check,
// sent from this thread so that building and streaming the multipart bodies (megabytes each) does not run on the
// event loop of the server under test (docs/decisions/200).
import { parentPort, workerData } from "node:worker_threads";

const { url, token, files } = workerData;
let uploading = true;
let uploaded = 0;
const failures = [];
parentPort.on("message", (m) => {
  if (m === "stop") uploading = false;
});
async function loop(f) {
  const blob = new Blob([f.bytes]);
  while (uploading) {
    const form = new FormData();
    form.append("file", blob, f.name);
    form.append("consent", "1");
    const res = await fetch(`${url}/api/ImageUpload/upload`, { method: "POST", headers: { token }, body: form });
    if (res.status === 200) uploaded++;
    else failures.push(`${f.name}: ${res.status} ${(await res.text()).slice(0, 120)}`);
    await res.body?.cancel().catch(() => {});
  }
}
await Promise.all(files.map(loop));
parentPort.postMessage({ uploaded, failures });
