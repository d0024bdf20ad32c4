import type { Db } from "../../db/client.ts";
import type { Character, Prisma } from "../../db/generated/client.ts";
import { quotaMessage } from "../../contract/limits.ts";
import { DRAFT_TIER } from "../../contract/chat.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { EngineKind } from "../../contract/engines.ts";
import type { UploadView } from "../uploads/uploads.service.ts";
import type { UploadsService } from "../uploads/uploads.service.ts";
import type { ChatBackends } from "./backends/registry.ts";
import { NoReplyError, ReplyCutError } from "./backends/registry.ts";
import { CARD_LIMITS, draftShape, type AvatarBody, type CharacterBody, type CharacterListQuery } from "./chat.schema.ts";
import { lockChatQuota } from "./chat.queries.ts";
import type { ChatPolicy } from "./policy.ts";

/** The starter characters step aside once people have shared this many public characters of their own (docs/decisions/269). */
export const STARTERS_UNTIL = 8;
const PEOPLES_PUBLIC = { isPublic: true, state: "active" as const, userId: { not: null } };

export interface PolicyRecorder {
  /** Records a refused attempt (and acts on repeated ones); see chat.suspension. */
  (hit: { userId: number; source: "character"; rule: string; excerpt: string; characterId?: number }): Promise<void>;
}

/**
 * The generation domain's text-to-image path, as avatars use it (wired in services.ts): which AI engine can paint now,
 * a charged text-to-image task on it (refunded once by the generation domain when it fails), and keeping its picture.
 */
export interface AvatarImages {
  aiEngine(): Promise<EngineKind | null>;
  paint(
    userId: number,
    o: { prompt: string; negativePrompt: string; idempotencyKey?: string },
    engine: EngineKind,
  ): Promise<{ id: number; cost: number; status: string }>;
  keep(userId: number, taskId: number): Promise<UploadView>;
}

/** Kept out of every avatar: characters are adults, and avatars are shown in the public catalogue. */
const AVATAR_NEGATIVE = "child, minor, teenager, young-looking, nudity, nsfw, text, watermark, signature, deformed";

/** The picture an avatar is painted from: the card's look, framed as a portrait. */
export function avatarPrompt(b: AvatarBody): string {
  const who = b.age ? `a ${b.age}-year-old adult` : "an adult";
  const parts = [`Portrait of ${b.name}, ${who}`, b.description, b.personality.slice(0, 300), b.tags.length ? b.tags.join(", ") : ""].filter(Boolean);
  return `${parts.join(". ")}. Head and shoulders, facing the viewer, soft light, detailed character art.`.slice(0, 1000);
}

/** Everything a card says, as the policy reads it. */
export function cardText(c: {
  name: string;
  description: string;
  personality: string;
  scenario: string;
  greeting: string;
  example_lines?: string[];
  exampleLines?: string[];
  tags: string[];
}): string {
  return [c.name, c.description, c.personality, c.scenario, c.greeting, ...(c.example_lines ?? c.exampleLines ?? []), c.tags.join(" ")].join("\n");
}

export function createCharactersService(o: {
  db: Db;
  storage: MediaStorage;
  uploads: UploadsService;
  backends: ChatBackends;
  policy: ChatPolicy;
  recordHit: PolicyRecorder;
  assertChatAllowed: (userId: number) => Promise<void>;
  images: AvatarImages;
  /** The training domain's finished, usable model of the caller's; null when it is none of those. */
  models: { publishable(userId: number, modelId: number): Promise<unknown> };
  /** How many characters one account may hold (QUOTA_CHARACTERS). */
  quota: number;
}) {
  const { db, storage } = o;

  async function view(c: Character, userId: number | null) {
    return {
      id: c.id,
      name: c.name,
      description: c.description,
      personality: c.personality,
      scenario: c.scenario,
      greeting: c.greeting,
      example_lines: c.exampleLines,
      tags: c.tags,
      age: c.age,
      tier: c.tier,
      avatar_url: c.avatarKey ? await storage.signedUrl(c.avatarKey) : null,
      // the creator's own reference uploads: signed for the owner only, never in others' lists
      reference_urls: userId !== null && c.userId === userId ? await Promise.all(c.referenceKeys.map((k) => storage.signedUrl(k))) : [],
      model_id: userId !== null && c.userId === userId ? c.modelId : null,
      is_public: c.isPublic ? 1 : 0,
      state: c.state,
      conversation_count: c.conversationCount,
      mine: userId !== null && c.userId === userId,
      created_at: c.createdAt.toISOString(),
    };
  }

  /** A new character, within the account's quota: the count and the insert are one step under the quota's lock. */
  function create(userId: number, data: Omit<Prisma.CharacterUncheckedCreateInput, "userId">): Promise<Character> {
    return db.$transaction(async (tx) => {
      await lockChatQuota.rows(tx, { kind: "characters", userId });
      if ((await tx.character.count({ where: { userId, state: { not: "removed" } } })) >= o.quota)
        throw new HttpError(409, quotaMessage("characters", o.quota));
      return tx.character.create({ data: { ...data, userId } });
    });
  }

  /** A character the caller may talk to: active, and public or their own; anything else is 404. */
  async function readable(userId: number, id: number): Promise<Character> {
    const c = await db.character.findFirst({ where: { id, state: "active", OR: [{ isPublic: true }, { userId }] } });
    if (!c) throw HttpError.notFound();
    return c;
  }

  return {
    view,
    readable,

    /**
     * creatCharacter: create, or edit one of the caller's (`id`). The card is checked by the policy before anything is
     * saved. A guest's characters stay private until the account is registered (docs/decisions/251): one guest made
     * 150 public ones and filled the catalogue's newest page.
     */
    async save(userId: number, body: CharacterBody, guest: boolean) {
      await o.assertChatAllowed(userId);
      if (body.id) {
        const own = await db.character.findFirst({ where: { id: body.id, userId, state: { not: "removed" } }, select: { id: true } });
        if (!own) throw HttpError.notFound();
      }
      const rule = await o.policy.checkCharacter(cardText(body), body.age);
      if (rule) {
        await o.recordHit({ userId, source: "character", rule, excerpt: cardText(body).slice(0, 500), characterId: body.id });
        throw HttpError.badRequest(MSG.characterMinor);
      }
      const avatarKey = body.avatar_image_id ? (await o.uploads.own(userId, body.avatar_image_id, "image")).storageKey : undefined;
      const referenceKeys =
        body.reference_image_ids && (await Promise.all(body.reference_image_ids.map(async (id) => (await o.uploads.own(userId, id, "image")).storageKey)));
      // only the caller's own usable model can be tied (decision 366); its weights are not read to tie it
      if (body.model_id && !(await o.models.publishable(userId, body.model_id))) throw HttpError.notFound();
      const data = {
        name: body.name,
        description: body.description,
        personality: body.personality,
        scenario: body.scenario,
        greeting: body.greeting,
        exampleLines: body.example_lines,
        tags: [...new Set(body.tags)],
        age: body.age ?? null,
        isPublic: body.is_public && !guest,
        ...(avatarKey ? { avatarKey } : {}),
        ...(referenceKeys ? { referenceKeys: [...new Set(referenceKeys)] } : {}),
        ...(body.model_id !== undefined ? { modelId: body.model_id } : {}),
      };
      const saved = body.id ? await db.character.update({ where: { id: body.id }, data }) : await create(userId, data);
      return view(saved, userId);
    },

    /** generateCharacterInfo: the model drafts a whole card from a one-line idea; nothing is saved, the person edits it first. */
    async draft(userId: number, idea: string) {
      await o.assertChatAllowed(userId);
      if (!o.backends.available(DRAFT_TIER)) throw new HttpError(503, MSG.chatUnavailable);
      const ideaRule = await o.policy.checkCharacter(idea, null);
      if (ideaRule) {
        await o.recordHit({ userId, source: "character", rule: ideaRule, excerpt: idea });
        throw HttpError.badRequest(MSG.characterMinor);
      }
      let answer: string;
      try {
        answer = await o.backends.complete(DRAFT_TIER, {
          maxTokens: 700,
          temperature: 0.9,
          messages: [
            {
              role: "system",
              content:
                "You write character cards for a role-play chat app for adults. Every character is an adult (18 or older). " +
                'Answer with one JSON object only, no other text: {"name": string, "age": number (18 or more), "description": string (one sentence), ' +
                '"personality": string, "scenario": string, "greeting": string (the character\'s first message), "example_lines": [3 short lines in the character\'s voice], "tags": [up to 5 lowercase words]}.',
            },
            { role: "user", content: `Idea: ${idea}` },
          ],
        });
      } catch (err) {
        if (err instanceof NoReplyError || err instanceof ReplyCutError) throw new HttpError(502, MSG.draftFailed);
        throw err;
      }
      const json = /\{[\s\S]*\}/.exec(answer)?.[0];
      let parsed: unknown;
      try {
        parsed = JSON.parse(json ?? "");
      } catch {
        throw new HttpError(502, MSG.draftFailed);
      }
      const d = draftShape.parse(parsed);
      const cut = (s: string, n: number) => s.trim().slice(0, n);
      const draft = {
        name: cut(d.name, CARD_LIMITS.name),
        description: cut(d.description, CARD_LIMITS.description),
        personality: cut(d.personality, CARD_LIMITS.personality),
        scenario: cut(d.scenario, CARD_LIMITS.scenario),
        greeting: cut(d.greeting, CARD_LIMITS.greeting),
        example_lines: d.example_lines
          .map((l) => cut(l, CARD_LIMITS.exampleLine))
          .filter(Boolean)
          .slice(0, CARD_LIMITS.exampleLines),
        tags: d.tags
          .map((t) => cut(t, CARD_LIMITS.tag).toLowerCase())
          .filter(Boolean)
          .slice(0, CARD_LIMITS.tags),
        age: d.age !== null && d.age >= 18 ? d.age : null,
      };
      if (!draft.name) throw new HttpError(502, MSG.draftFailed);
      const rule = await o.policy.checkCharacter(cardText(draft), d.age);
      if (rule) throw new HttpError(502, MSG.draftFailed);
      return draft;
    },

    /**
     * generateAvatar: a text-to-image task painting the card as it is in the editor, charged like any text-to-image.
     * Refused before anything is charged: a card the policy refuses (400, recorded), no AI image engine running (503,
     * the local draft renderer draws patterns and is never passed off as a painted avatar). The editor follows the task
     * through the generation API and keeps the picture with keepAvatar.
     */
    async paintAvatar(userId: number, body: AvatarBody) {
      await o.assertChatAllowed(userId);
      if (!body.description && !body.personality) throw HttpError.badRequest(MSG.avatarNeedsDescription);
      const card = cardText({ ...body, scenario: "", greeting: "" });
      const rule = await o.policy.checkCharacter(card, body.age);
      if (rule) {
        await o.recordHit({ userId, source: "character", rule, excerpt: card.slice(0, 500) });
        throw HttpError.badRequest(MSG.characterMinor);
      }
      const engine = await o.images.aiEngine();
      if (!engine) throw new HttpError(503, MSG.avatarNeedsImageModel);
      return o.images.paint(userId, { prompt: avatarPrompt(body), negativePrompt: AVATAR_NEGATIVE, idempotencyKey: body.idempotency_key }, engine);
    },

    /** keepAvatar: the picture of one of the caller's finished image tasks, copied into an image of theirs (avatar_image_id). */
    async keepAvatar(userId: number, taskId: number) {
      await o.assertChatAllowed(userId);
      return o.images.keep(userId, taskId);
    },

    /**
     * getCharacterList: public characters (popular or new, searched, by tag), or with `mine` the caller's own. The
     * starter characters (no owner, chat.seed.ts) are listed only until people share STARTERS_UNTIL of their own.
     */
    async list(userId: number | null, q: CharacterListQuery) {
      const shared = q.mine === "1" ? 0 : (await db.character.findMany({ where: PEOPLES_PUBLIC, select: { id: true }, take: STARTERS_UNTIL })).length;
      const where = {
        ...(q.mine === "1" ? { userId: userId ?? -1, state: { not: "removed" as const } } : { isPublic: true, state: "active" as const }),
        ...(shared >= STARTERS_UNTIL ? { userId: { not: null } } : {}),
        ...(q.q ? { OR: [{ name: { contains: q.q, mode: "insensitive" as const } }, { description: { contains: q.q, mode: "insensitive" as const } }] } : {}),
        ...(q.tag ? { tags: { has: q.tag.toLowerCase() } } : {}),
      };
      const orderBy = q.sort === "popular" ? [{ conversationCount: "desc" as const }, { id: "desc" as const }] : [{ id: "desc" as const }];
      const [total, rows] = await Promise.all([
        db.character.count({ where }),
        db.character.findMany({ where, orderBy, skip: (q.page - 1) * q.limit, take: q.limit }),
      ]);
      return { list: await Promise.all(rows.map((c) => view(c, userId))), total, page: q.page, limit: q.limit };
    },

    async details(userId: number, id: number) {
      return view(await readable(userId, id), userId);
    },
  };
}

export type CharactersService = ReturnType<typeof createCharactersService>;
