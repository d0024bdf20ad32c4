import { KEPT_REPLY_STATUSES, type ChatMediaKind } from "../../contract/chat.ts";
import type { Db } from "../../db/client.ts";
import type { Character } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { cardText } from "./chat.characters.ts";
import type { Suspensions } from "./chat.suspension.ts";
import type { ChatPolicy } from "./policy.ts";

/** The lines of the conversation a picture's scene is taken from. */
const SCENE_LINES = 6;
/** Kept out of every character picture: characters are adults, and the picture is of the character alone. */
export const MEDIA_NEGATIVE = "child, minor, teenager, young-looking, school uniform, text, watermark, signature, deformed, extra limbs";

/** The picture's words: the character's look, the conversation's recent scene, then what the person asked for. */
export function mediaPrompt(c: Pick<Character, "name" | "description" | "age">, scene: string[], request: string, kind: ChatMediaKind): string {
  const who = c.age ? `${c.name}, a ${c.age}-year-old adult` : `${c.name}, an adult`;
  const shot = kind === "video" ? "A short clip of" : "A photo of";
  const parts = [`${shot} ${who}`, c.description, scene.length ? `Scene: ${scene.join(" ").slice(-500)}` : "", request ? `Request: ${request}` : ""];
  return `${parts.filter(Boolean).join(". ")}. Same face and look as the reference, natural light.`.slice(0, 1000);
}

/**
 * The screening of a character picture's scene before anything is charged (issue 50 item 4): the card, the recent kept
 * lines and the request read together as a character card is, so anything placing the character (or anyone in the
 * scene) under 18 refuses it.
 */
export function createSceneScreening(o: { db: Db; policy: ChatPolicy; suspensions: Suspensions }) {
  /** The recent kept lines, and the rule (if any) the card, those lines and the request break read together. */
  async function ruleOf(conversationId: number, c: Character, request: string) {
    const lines = await o.db.chatMessage.findMany({
      where: { conversationId, status: { in: [...KEPT_REPLY_STATUSES] }, content: { not: "" } },
      orderBy: { id: "desc" },
      take: SCENE_LINES,
      select: { content: true },
    });
    const scene = lines.reverse().map((l) => l.content);
    const text = [cardText(c), ...scene, request].join("\n");
    return { scene, text, rule: await o.policy.checkCharacter(text, c.age) };
  }

  return {
    ruleOf,

    /**
     * The recent kept lines, as the scene, for the person's own request: one breaking the chat policy is refused and
     * recorded like a message; a scene placing anyone under 18 is refused (400) and counted toward a suspension like a
     * character card refused for the same reason.
     */
    async screened(userId: number, conversationId: number, c: Character, request: string): Promise<string[]> {
      if (request) await o.suspensions.checkUserText(userId, conversationId, request);
      const { scene, text, rule } = await ruleOf(conversationId, c, request);
      if (rule) {
        await o.suspensions.recordHit({ userId, source: "character", rule, excerpt: text.slice(0, 500), conversationId, characterId: c.id });
        throw HttpError.badRequest(MSG.characterMinor);
      }
      return scene;
    },
  };
}

export type SceneScreening = ReturnType<typeof createSceneScreening>;
