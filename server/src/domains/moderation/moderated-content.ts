import type { Db, Tx } from "../../db/client.ts";
import type { ContentState, ReportTarget, UploadKind } from "../../db/generated/enums.ts";

/** What a report needs to know about the reported thing: whose it is, its state, and whether everyone can see it. */
export interface Reported {
  userId: number | null;
  state: ContentState;
  /** Shared with everyone: a creation in the gallery, a shared character, a creator page (still so while suspended by a report, not once removed). */
  isPublic: boolean;
  /** Private content with two sides (a message): whoever took part may report it, not only its owner. */
  parties?: number[];
}

/** How a reported thing is looked up and its visibility changed; one per kind of reportable content. */
export interface ModeratedContent {
  find(c: Tx | Db, id: number): Promise<Reported | null>;
  /** Sets the state; with `from`, only content currently in that state changes. True when it changed. */
  setState(c: Tx, id: number, state: ContentState, from?: ContentState): Promise<boolean>;
  /** The stored file a moderator previews (and evidence keeps), when the content has one. */
  media?(c: Tx | Db, id: number): Promise<ReportedMedia | null>;
  /** The content whose file is stored under this key (a media link pasted into the public notice form). */
  byMediaKey?(c: Tx | Db, key: string): Promise<number | null>;
}

export interface ReportedMedia {
  key: string;
  kind: UploadKind;
  mime?: string;
  /** A still picture of it (a video's poster, an upload's thumbnail), so the console never shows a black box. */
  posterKey?: string | null;
}

/** Tasks, uploads, characters, conversations, creator pages and messages as their owning domains let moderation see and change them. */
export type ContentOwners = Record<ReportTarget, ModeratedContent>;

/** The audit log's name for each kind of content. */
export const RESOURCE: Record<ReportTarget, string> = {
  task: "GenerationTask",
  upload: "Upload",
  character: "Character",
  conversation: "Conversation",
  creator_page: "CreatorPage",
  message: "Message",
};

/** A creator page by its home link (`https://<site>/<homeLink>` in the public notice form). */
export const creatorPageByLink = async (c: Tx | Db, homeLink: string) =>
  (await c.creatorPage.findFirst({ where: { homeLink: { equals: homeLink, mode: "insensitive" } }, select: { id: true } }))?.id ?? null;
