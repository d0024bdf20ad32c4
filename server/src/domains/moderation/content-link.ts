import type { Db, Tx } from "../../db/client.ts";
import type { ReportTarget } from "../../db/generated/enums.ts";
import { homeLinkProblem } from "../../contract/home-link.ts";

/** Paths of the local media route and S3 object URLs both end in the storage key; keys never start with a slash. */
const MEDIA_PATH = "/api/media/file";

/**
 * Which content a link pasted into the public notice form names (docs/decisions/150): a media link (the address of a
 * video or picture, local or S3, its key read back), a gallery item (`/home?item=<task id>`), a shared character
 * (`/chat?character=<id>`) or a creator page (`/<home link>`). The host is not checked: Reverie answers under several
 * names (decision 066) and only the path says what the content is. Null when the link names nothing.
 */
export async function resolveContentLink(
  c: Tx | Db,
  raw: string,
  content: Record<ReportTarget, { byMediaKey?(c: Tx | Db, key: string): Promise<number | null> }>,
  creatorPageByLink: (c: Tx | Db, homeLink: string) => Promise<number | null>,
): Promise<{ type: ReportTarget; id: number } | null> {
  let url: URL;
  let path: string;
  try {
    url = new URL(raw.trim(), "https://reverie.invalid");
    // a pasted link may carry a broken escape (%E0%A4%A): it names nothing, like an unparsable one
    path = decodeURIComponent(url.pathname).replace(/\/+$/, "");
  } catch {
    return null;
  }
  const numeric = (v: string | null) => (v && /^\d{1,9}$/.test(v) ? Number(v) : null);
  if (path.toLowerCase() === "/home") {
    const id = numeric(url.searchParams.get("item"));
    return id === null ? null : { type: "task", id };
  }
  if (path.toLowerCase() === "/chat") {
    const id = numeric(url.searchParams.get("character"));
    return id === null ? null : { type: "character", id };
  }
  // a media file: the local route names its key in the query, an S3 URL in the path (after the bucket, or not)
  const segments = path.split("/").filter(Boolean);
  const keys = path === MEDIA_PATH ? [url.searchParams.get("key") ?? ""] : segments.length > 1 ? [segments.join("/"), segments.slice(1).join("/")] : [];
  for (const key of keys.filter(Boolean)) {
    for (const type of Object.keys(content) as ReportTarget[]) {
      const id = await content[type].byMediaKey?.(c, key);
      if (id != null) return { type, id };
    }
  }
  if (segments.length === 1 && homeLinkProblem(segments[0]) === null) {
    const id = await creatorPageByLink(c, segments[0]);
    return id === null ? null : { type: "creator_page", id };
  }
  return null;
}
