import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import { sqlPool, type Db } from "../../db/client.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { ReportBody } from "../moderation/moderation.schema.ts";
import type { UploadsService } from "../uploads/uploads.service.ts";
import { createChatBackends } from "./backends/registry.ts";
import { createAcceptance } from "./chat.accept.ts";
import { createChatAdmin, moderatedChat } from "./chat.admin.ts";
import { createBackendCalls } from "./chat.calls.ts";
import { createCharactersService, type AvatarImages } from "./chat.characters.ts";
import { createConversations } from "./chat.conversations.ts";
import type { CharacterMediaPort } from "./chat.media.ts";
import { createChatMediaParts } from "./chat.offers.ts";
import { createLive, followRun } from "./chat.live.ts";
import { createSending } from "./chat.send.ts";
import { createSuspensions } from "./chat.suspension.ts";
import { createReplyWriter } from "./chat.writer.ts";
import { createChatPolicy } from "./policy.ts";
import { countTokens } from "./prompt.ts";
import type { ChatMetrics } from "../../metrics/metrics.ts";

export { messageView, type LiveEvent, type MessageView, type ReplyEvent, type StartedReply } from "./chat.live.ts";
export { CHAT_CHANNEL } from "./chat.queries.ts";

const SWEEP_MS = 60_000;

interface Deps {
  db: Db;
  config: Config;
  log: Logger;
  credits: CreditsService;
  /** Files a report as the system (moderation.fileReport with no reporter). */
  fileReport: (input: ReportBody) => Promise<unknown>;
  storage: MediaStorage;
  uploads: UploadsService;
  /** Lifting a suspension is a staff action, written to the audit log in its own transaction. */
  audit: AuditService;
  /** Avatars are painted through the generation domain (services.ts wires it). */
  images: AvatarImages;
  databaseUrl: string | undefined;
  /** Replies streaming and back-end failures, for the operations figures. */
  metrics: ChatMetrics;
  /** Characters' pictures and clips are rendered by the generation domain (services.ts wires it: chat-generation.ts). */
  media: CharacterMediaPort;
  /** The training domain: a character may be tied to its owner's own usable model (decision 366). */
  models: { publishable(userId: number, modelId: number): Promise<unknown> };
}

/**
 * Conversations with AI characters (docs/decisions/100-104). A reply is a row created with the person's message and
 * charged in the same statement (chat.accept); the back end's text streams to the browser as it arrives, is saved
 * every SAVE_MS (published every FLUSH_MS while someone follows it from another instance, chat.saver) and once more
 * when the reply ends (a conditional update on status 'streaming', so it is stored exactly once however the reading
 * browser behaves, chat.writer). Replies of one conversation are written one after the other, in the order the
 * messages were accepted (chat.turn).
 */
export function createChatService(deps: Deps) {
  const { db, config, log, credits } = deps;
  /** Every statement a reply makes runs straight through pg, not Prisma's client (docs/decisions/226). */
  const pool = sqlPool(db);
  const calls = createBackendCalls({ db, pool, log, failed: deps.metrics.backendFailed });
  const backends = createChatBackends(config, calls.record);
  const policy = createChatPolicy(config, log);
  const suspensions = createSuspensions({ db, config, log, policy, fileReport: deps.fileReport, audit: deps.audit });
  const { media, offers } = createChatMediaParts({ db, policy, suspensions, port: deps.media });
  const live = createLive({ db, pool, log, databaseUrl: deps.databaseUrl, shown: async (userId, reply) => (await media.withMedia(userId, [reply]))[0] });
  const accept = createAcceptance({ pool, config, credits, backends });
  const writer = createReplyWriter({ db, pool, log, credits, backends, policy, live, suspensions, metrics: deps.metrics, offers });
  const sending = createSending({ db, pool, live, accept, suspensions, writer });
  const characters = createCharactersService({
    db,
    storage: deps.storage,
    uploads: deps.uploads,
    backends,
    policy,
    recordHit: suspensions.recordHit,
    assertChatAllowed: suspensions.assertChatAllowed,
    images: deps.images,
    models: deps.models,
    quota: config.QUOTA_CHARACTERS,
  });
  const conversations = createConversations({ db, config, backends, characters, suspensions, price: accept.price, media });

  const sweeper = setInterval(() => void writer.sweepStale().catch((err: unknown) => log.warn({ err }, "chat sweep failed")), SWEEP_MS);
  sweeper.unref();

  return {
    characters,
    backends,
    /** The policy's check of a person's text (rules, then the moderation endpoint), for text sent outside chat (a tip's message). */
    checkText: policy.checkText,
    runs: live.runs,
    moderated: moderatedChat(media.cancelForCharacter),
    ...conversations,
    ...sending,
    requestMedia: media.requestMedia,
    mediaQuote: media.mediaQuote,
    acceptOffer: offers.acceptOffer,
    /** Follows a reply, or a media message's rendering (issue 50), as the reply stream's events; 404 when not the caller's. */
    async follower(userId: number, replyId: number) {
      const follow = await sending.follower(userId, replyId);
      return (await media.mediaFollower(userId, replyId)) ?? follow;
    },
    followRun,
    /** Per back end over the last `hours`: requests, errors, tokens and latency, for the console. */
    backendStatus: (hours?: number) => calls.status(backends, hours),
    admin: createChatAdmin(db, suspensions),
    /** Tokens a text costs (the prompt's tokenizer), exposed for tests and the bench. */
    countTokens,
    sweepStale: writer.sweepStale,

    async close() {
      clearInterval(sweeper);
      await live.close();
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
