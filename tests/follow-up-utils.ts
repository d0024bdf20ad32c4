import fs from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import type { ComfyStack } from "./comfyui-stack.ts";
import { photo } from "./fixtures/media.ts";
import { waitForTask } from "./generation-utils.ts";

/** Follow-ups of a finished result through the API of a comfyui stack (decision 307): the source made, the result fetched. */
export function followUpClient({ s, media }: Pick<ComfyStack, "s" | "media">) {
  const post = (token: string, route: string, body: object) => s.http.post(`/api/Generation/${route}`).set("token", token).send(body);

  /** A finished clip (or picture) of the person's own, made through the API. */
  async function finished(token: string, kind: "clip" | "picture", seconds = 2): Promise<number> {
    const upload = await s.http
      .post("/api/ImageUpload/upload")
      .set("token", token)
      .attach("file", await photo(640, 360), "p.jpg")
      .field("consent", "1");
    const res =
      kind === "clip"
        ? await post(token, "picVideoSubmit", { image_id: upload.body.data.id, prompt: "waves roll in", duration: seconds }).expect(200)
        : await post(token, "textPicSubmit", { prompt: "a lighthouse" }).expect(200);
    expect((await waitForTask(s, res.body.data.id, 60_000)).status).toBe("succeeded");
    return res.body.data.id;
  }

  /** The stored result's file, fetched through its signed URL. */
  async function stored(token: string, id: number): Promise<{ file: string; view: Record<string, unknown> }> {
    const view = (await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${id}`).set("token", token).expect(200)).body.data;
    const url = (view.video_url ?? view.image_url) as string;
    const file = path.join(media.dir, `result-${id}${view.video_url ? ".mp4" : ".png"}`);
    await fs.writeFile(file, Buffer.from(await (await fetch(new URL(url, s.url))).arrayBuffer()));
    return { file, view };
  }

  return { post, finished, stored };
}
