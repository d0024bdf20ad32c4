import { HttpError, fetchUtils } from "react-admin";
import type { paths } from "../../server/src/contract/api.gen.d.ts";

export const TOKEN_KEY = "reverie.console.token";

export const apiUrl = `${window.location.origin}/admin/api`;

type Method = "get" | "post" | "put" | "delete";
type Answers<P extends keyof paths, M extends Method> = paths[P][M] extends { responses: { 200: { content: { "application/json": infer J } } } } ? J : never;
/**
 * What a console route answers, as the server declares it (types generated from its OpenAPI document, docs/decisions/229):
 * the plain JSON of a resource call, so a server change that a page does not fit fails the type check.
 */
export type AdminJson<P extends keyof paths, M extends Method = "get"> = Answers<P, M>;
/** The `data` of a console route answered in the `{code,msg,data}` envelope (`/admin/api/me`). */
export type AdminData<P extends keyof paths, M extends Method = "get"> = Answers<P, M> extends { data: infer D } ? D : never;

/**
 * Every console request: the staff token in the `token` header. The server's errors are `{code,msg,data}`;
 * react-admin shows `message`, so the server's `msg` becomes it.
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}) {
  const headers = new Headers(options.headers ?? { Accept: "application/json" });
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) headers.set("token", token);
  try {
    return await fetchUtils.fetchJson(url, { ...options, headers });
  } catch (e) {
    if (e instanceof HttpError) {
      const body = e.body as { msg?: string } | undefined;
      throw new HttpError(body?.msg ?? e.message, e.status, e.body);
    }
    throw e;
  }
}

/** GET /admin/api/<path>; answers the JSON reply. */
export async function getJson<T>(path: string): Promise<T> {
  const { json } = await httpClient(`${apiUrl}/${path}`);
  return json as T;
}

/** POST /admin/api/<path> with a JSON body; answers the JSON reply. */
export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const { json } = await httpClient(`${apiUrl}/${path}`, { method: "POST", body: JSON.stringify(body) });
  return json as T;
}

/** POST /admin/api/<path> with `file` (and any `fields`) as multipart form data (the browser sets the boundary); answers the JSON reply. */
export async function postFile<T>(path: string, file: File, fields: Record<string, string> = {}): Promise<T> {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append("file", file);
  const { json } = await httpClient(`${apiUrl}/${path}`, { method: "POST", body });
  return json as T;
}

/** GET /admin/api/<path> as a file (a spreadsheet template), with the staff token; the server's `msg` on an error. */
export async function getFile(path: string): Promise<Blob> {
  const token = localStorage.getItem(TOKEN_KEY);
  const res = await fetch(`${apiUrl}/${path}`, { headers: token ? { token } : {} });
  if (!res.ok) throw new HttpError(((await res.json().catch(() => ({}))) as { msg?: string }).msg ?? res.statusText, res.status);
  return res.blob();
}
