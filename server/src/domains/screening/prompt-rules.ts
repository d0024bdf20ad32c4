import { SCREENING_MESSAGES, type PromptRefusal, type PromptRule } from "../../contract/screening.ts";
import { HttpError } from "../../http/errors.ts";

/**
 * The one rule set for sexual content involving minors (docs/decisions/103, 141): refused wherever it appears — a
 * chat message, a reply, a character card, and the prompt of every generation (text-to-image, text-to-video and the
 * rest), always before anything is charged. Age-play is refused too. The rule broken is the
 * refusal's reason code (contract/screening.ts PROMPT_RULES). Words are matched whole and case-insensitively. The
 * lists are deliberately strict: a false refusal costs a rephrase, a miss is unacceptable.
 */

/** Words and phrases that place someone under 18. */
const MINOR =
  /\b(?:minors?|underage|under-age|child(?:ren)?|kids?|kiddies|little (?:girl|boy)s?|toddlers?|infants?|bab(?:y|ies) (?:girl|boy)|preteens?|pre-teens?|tweens?|young teens?|schoolgirls?|schoolboys?|school ?kids?|pupils?|(?:elementary|primary|middle|junior high|high)[ -]school(?:ers?)?|(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh) grader?s?|loli(?:ta|con)?s?|shota(?:con)?s?|(?:aged? |age of )(?:[1-9]|1[0-7])\b|(?:[1-9]|1[0-7]|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen)[ -]?(?:years?[ -]old|yrs?[ -]old|y\/?o|year-olds?))\b/i;

/** Sexual words and phrases. */
const SEXUAL =
  /\b(?:sex(?:ual(?:ly)?|y)?|nude|naked|nsfw|erotic|porn\w*|horny|aroused|orgasm\w*|masturbat\w*|genitals?|penis|vagina|breasts?|boobs?|nipples?|cock|pussy|dick|fuck\w*|cum(?:ming)?|blowjob|handjob|intercourse|undress(?:ing|es|ed)?|strip(?:ping|s)? (?:off|naked)|make love|making love|kiss(?:ing)? (?:her|his) body|touch(?:ing)? (?:her|him) (?:down there|between)|seduc\w*|lewd|fetish\w*|bdsm|rape[ds]?|molest\w*|grop\w*)\b/i;

/** Age-play is refused on its own, sexual words or not. */
const AGE_PLAY =
  /\b(?:age[ -]?play|ageplay|abdl|little space|littlespace|ddlg|pretend(?:ing)? to be (?:a )?(?:child|kid|minor|little girl|little boy)|roleplay(?:ing)? as (?:a )?(?:child|kid|minor))\b/i;

/** Words that are sexual content involving minors by themselves. */
const CSAM_TERMS = /\b(?:loli(?:con)?|shota(?:con)?|pedo\w*|paedo\w*|jailbait|child porn\w*)\b/i;

/** The first rule a message or reply breaks, or null. */
export function ruleBrokenByText(text: string): PromptRule | null {
  if (CSAM_TERMS.test(text)) return "csam_term";
  if (AGE_PLAY.test(text)) return "age_play";
  if (MINOR.test(text) && SEXUAL.test(text)) return "minor_sexual";
  return null;
}

/** Longest phrase the patterns match, with room: a window this long around each new piece catches split phrases. */
const WINDOW = 120;

/**
 * The text rule applied piece by piece to a streaming reply, in constant time per piece: only the new piece and the
 * WINDOW characters before it are searched, and which pattern families were seen earlier is remembered. Refuses the
 * same texts as ruleBrokenByText on the whole text.
 */
export function streamChecker() {
  let text = "";
  let minor = false;
  let sexual = false;
  return (piece: string): PromptRule | null => {
    const window = text.slice(-WINDOW) + piece;
    text += piece;
    if (CSAM_TERMS.test(window)) return "csam_term";
    if (AGE_PLAY.test(window)) return "age_play";
    minor ||= MINOR.test(window);
    sexual ||= SEXUAL.test(window);
    return minor && sexual ? "minor_sexual" : null;
  };
}

/**
 * Descriptions of the character itself as under 18: a stated age below 18, school years, or being a child. Narrower
 * than MINOR, so that a card may mention children the character knows ("a teacher", "raised two kids").
 */
const MINOR_SELF =
  /\b(?:underage|under-age|a minor|(?:is|am|as|a|an|young|little) (?:child|kid|toddler|preteen|pre-teen|tween|schoolgirl|schoolboy|little girl|little boy)|schoolgirl|schoolboy|(?:elementary|primary|middle|junior high|high)[ -]school (?:student|girl|boy|pupil)|(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh)[ -]grader|loli(?:ta)?|shota|(?:aged? |age of |age: ?)(?:[1-9]|1[0-7])\b|(?:[1-9]|1[0-7]|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen)[ -]?(?:years?[ -]old|yrs?[ -]old|y\/?o|year-old))\b/i;

/** A character card may not describe a minor: every character is an adult. */
export function ruleBrokenByCharacter(text: string, age: number | null | undefined): PromptRule | null {
  if (age !== null && age !== undefined && age < 18) return "minor_character";
  if (MINOR_SELF.test(text)) return "minor_character";
  return ruleBrokenByText(text);
}

/**
 * A generation prompt (text-to-image, text-to-video, every mode with a prompt) that breaks the rule set is refused
 * with a 400, the message of contract/screening.ts and `data: { reason: "prompt_refused", rule }`. Called before
 * anything is charged. The negative prompt is not checked: it lists what must not appear.
 */
export function refuseBrokenPrompt(prompt: string | null | undefined): void {
  const rule = prompt ? ruleBrokenByText(prompt) : null;
  if (!rule) return;
  const data: PromptRefusal = { reason: "prompt_refused", rule };
  throw new HttpError(400, SCREENING_MESSAGES.promptRefused, data);
}
