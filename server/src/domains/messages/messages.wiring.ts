import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { localMediaSigner } from "../../storage/local.storage.ts";
import { mediaUrlSecret } from "../../storage/storage.ts";
import type { ChatService } from "../chat/chat.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { CreatorsService } from "../creators/creators.service.ts";
import type { GenerationService } from "../generation/generation.service.ts";
import type { RecordNotification, RecordNotifications } from "../notifications/notifications.service.ts";
import { createMessageEvents } from "./messages.events.ts";
import { createMessagesService } from "./messages.service.ts";

interface Owners {
  credits: CreditsService;
  /** chat's text check: a message passes what chat and tips pass */
  chat: Pick<ChatService, "checkText">;
  /** creators' media pass (decision 217), so one pass opens a viewer's library and message files */
  creators: Pick<CreatorsService, "mediaPass" | "passViewer">;
  /** generation owns creations: the files of the library items messages carry */
  generation: Pick<GenerationService, "finishedMedia">;
  /** the bell: a new message and an unlock are told to the other side (docs/decisions/312) */
  notify: { record: RecordNotification; recordMany: RecordNotifications };
}

/** The messages domain as services.ts wires it, from the domains it stands on (docs/decisions/310). */
export function wireMessages(db: Db, config: Config, o: Owners) {
  return createMessagesService({
    db,
    credits: o.credits,
    checkText: o.chat.checkText,
    creations: o.generation.finishedMedia,
    signer: localMediaSigner(mediaUrlSecret(config)),
    ttlSeconds: config.MEDIA_URL_TTL_SECONDS,
    mediaPass: o.creators.mediaPass,
    passViewer: o.creators.passViewer,
    events: createMessageEvents(o.notify),
  });
}
