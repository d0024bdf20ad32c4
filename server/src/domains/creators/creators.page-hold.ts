import type { Tx } from "../../db/client.ts";
import { CREATOR_MESSAGES as M } from "../../contract/creators.ts";
import { HttpError } from "../../http/errors.ts";
import { holdPage } from "./creators.queries.ts";

/**
 * Inside a sale's transaction (a join, a request): the page held against its creator's ban, then checked up again in
 * a statement of its own (a fresh snapshot, after any ban that held the row has committed). A sale thus either sees
 * the ban and is refused like a page that is down, or commits first and the ban then ends and refunds it.
 */
export async function holdLivePage(tx: Tx, pageId: number): Promise<void> {
  await holdPage.rows(tx, { pageId });
  const up = await tx.creatorPage.count({ where: { id: pageId, state: "active", user: { bannedAt: null } } });
  if (!up) throw HttpError.notFound(M.domainNotFound);
}
