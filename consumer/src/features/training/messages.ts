import i18n from "i18next";
import { HOME_LINK_MESSAGES } from "../../../../server/src/contract/home-link.ts";
import { PHOTO_VERDICT_MESSAGES, TRAINING_MESSAGES } from "../../../../server/src/contract/training.ts";
import { translateMessage } from "../../i18n/index.ts";

/** Training's server messages (contract/training.ts, contract/home-link.ts), translated by their exact English text. */
const KEYS = new Map<string, string>([
  ...Object.entries(TRAINING_MESSAGES).map(([k, v]) => [v, `training.server.${k}`] as [string, string]),
  ...Object.entries(HOME_LINK_MESSAGES).map(([k, v]) => [v, `training.homeLink.${k}`] as [string, string]),
  ...Object.entries(PHOTO_VERDICT_MESSAGES).map(([k, v]) => [v, `training.verdict.${k}`] as [string, string]),
]);

export function trainingMessage(message: string): string {
  const key = KEYS.get(message);
  return key ? i18n.t(key) : translateMessage(message);
}
