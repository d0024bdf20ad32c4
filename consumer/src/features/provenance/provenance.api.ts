import { api, type ApiData } from "../../lib/api-client.ts";

export type ProvenanceAnswer = ApiData<"/api/provenance/check", "post">;

/** Checks a file (multipart) or a link to one of our outputs; no account needed. Errors are shown by the page itself. */
export function checkProvenance(what: { file: File } | { link: string }): Promise<ProvenanceAnswer> {
  if ("link" in what) return api.post("/api/provenance/check", { link: what.link }, { quiet: true });
  const form = new FormData();
  form.append("file", what.file);
  return api.upload("/api/provenance/check", form, { quiet: true });
}
