import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { photo } from "../fixtures/media.ts";
import { freePort } from "../net-utils.ts";
import { interrupt, spawnReverie, waitForHealth, type ReverieProcess } from "../process-utils.ts";

/**
 * A fresh machine has no ffmpeg on PATH (issue 11): `npm start` must still render, with the static builds that
 * `npm install` brought (decision 060). PATH here is every system directory's programs except ffmpeg and ffprobe.
 */
let dir: string;
let p: ReverieProcess | undefined;

async function pathWithoutFfmpeg(bin: string): Promise<string> {
  await fs.mkdir(bin);
  for (const from of ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]) {
    const names = await fs.readdir(from).catch(() => [] as string[]);
    for (const name of names) {
      if (name.startsWith("ffmpeg") || name.startsWith("ffprobe")) continue;
      await fs.symlink(path.join(from, name), path.join(bin, name)).catch(() => undefined);
    }
  }
  return bin;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-noffmpeg-"));
});
afterAll(async () => {
  if (p && p.child.exitCode === null && p.child.signalCode === null) await interrupt(p);
  await fs.rm(dir, { recursive: true, force: true });
});

describe("a machine without ffmpeg on PATH", () => {
  it("renders a video right after start, with the ffmpeg that npm install brought", async () => {
    const bin = await pathWithoutFfmpeg(path.join(dir, "bin"));
    p = spawnReverie({
      PATH: bin,
      DATA_DIR: path.join(dir, "data"),
      EMBEDDED_PG_PORT: String(await freePort()),
      RUN_WORKER: "true",
      FREE_GENERATIONS: "1",
      QUEUE_POLL_SECONDS: "0.5",
    });
    await waitForHealth(p, 60_000);
    const login = await (await fetch(`${p.url}/api/login/visitor`, { method: "POST" })).json();
    const token: string = login.data.token;

    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await photo(640, 480))], { type: "image/jpeg" }), "me.jpg");
    form.append("consent", "1");
    const upload = await (await fetch(`${p.url}/api/ImageUpload/upload`, { method: "POST", headers: { token }, body: form })).json();
    expect(upload.code, JSON.stringify(upload)).toBe(200);

    const submit = await (
      await fetch(`${p.url}/api/Generation/picVideoSubmit`, {
        method: "POST",
        headers: { token, "content-type": "application/json" },
        body: JSON.stringify({ image_id: upload.data.id, resolution: "480P", duration: 4 }),
      })
    ).json();
    expect(submit.code, JSON.stringify(submit)).toBe(200);

    const end = Date.now() + 60_000;
    let task: { status: number | string; state?: string; video_url?: string } | undefined;
    while (Date.now() < end) {
      const res = await (await fetch(`${p.url}/api/Generation/picVideoSubmitDetails?id=${submit.data.id}`, { headers: { token } })).json();
      task = res.data;
      if (task && ["succeeded", "failed"].includes(String(task.state))) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(task?.state, `${JSON.stringify(task)}\n${p.output()}`).toBe("succeeded");
  }, 120_000);
});
