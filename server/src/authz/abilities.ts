import { AbilityBuilder, createMongoAbility, type MongoAbility, type RawRuleOf } from "@casl/ability";
import { packRules } from "@casl/ability/extra";
import { SAVE_ACCOUNT_MESSAGE } from "../contract/users.ts";
import type { Principal } from "./principal.ts";

export type Action = "manage" | "create" | "read" | "update" | "delete" | "ban" | "grant" | "adjust" | "takedown" | "refund" | "review";

/** Every kind of thing a permission is about. Object conditions use the database field names. */
export type Subject =
  | "all"
  | "User"
  | "Order"
  | "Upload"
  | "GenerationTask"
  /** a like of a shared creation in the home gallery (docs/decisions/299): every account's own, a guest's too */
  | "GalleryLike"
  | "CharacterModel"
  | "TrainingConsent"
  | "UploadScreening"
  | "BlockedHash"
  | "Character"
  | "Conversation"
  | "ChatPolicyHit"
  | "ChatSuspension"
  | "ChatBackend"
  | "CreatorPage"
  | "Subscription"
  /** following a creator page (docs/decisions/309): a saved account's own; whom one follows is read by that account only */
  | "Follow"
  /** a creator's payout request (issue 16): the creator asks, admins and support decide */
  | "CreatorPayout"
  /** a custom request; staff touch it only to resolve a dispute */
  | "CustomRequest"
  /** a fan's tip to a creator (docs/decisions/304): sent and read by the fan, read by the creator, reversed by staff */
  | "Tip"
  /** a message between a fan and a creator (docs/decisions/310): the thread's two sides only; moderators take one down */
  | "Message"
  | "Report"
  | "Ban"
  | "Decision"
  | "Appeal"
  | "Evidence"
  | "Template"
  | "Channel"
  /** conversion API tokens of a channel: only admins (manage all) touch them, marketers never (docs/decisions/191) */
  | "ChannelSecret"
  | "Product"
  | "PaymentEvent"
  | "LedgerEntry"
  | "AuditLog"
  | "Staff"
  | "SiteSetting"
  | "OutboxEmail"
  | "Dashboard"
  /** the operations figures (/admin/api/operations): admins, and support, who hear first when payments or renders fail */
  | "Operations"
  | "Payment"
  /** a TON wallet linked with ton_proof (wallets domain) */
  | "Wallet"
  /** a conversation with support (docs/decisions/281): the person's own; support and admins answer */
  | "SupportThread"
  /** a version of the legal pages (docs/decisions/282): published by admins, read by anyone through /api/legal/current */
  | "LegalVersion"
  /** a person's GDPR request (privacy domain): create = export my data, delete = delete my account (decisions 261, 262) */
  | "DataRequest"
  /** the daily gift (docs/decisions/302): read = today's state, create = take it; a saved account's own */
  | "CheckIn"
  /** an invitation and its gift (docs/decisions/302): the inviter reads its own link; staff read and reverse (update) */
  | "Referral"
  /** a line of the bell (docs/decisions/312): read and marked read by its own account only */
  | "Notification"
  /** an account's email digest choice (docs/decisions/312): a saved account's own */
  | "NotificationSetting";

export type AppAbility = MongoAbility<[Action, Subject | Record<string, unknown>]>;

/**
 * The one definition of who may do what. The server checks it on every request;
 * clients receive the packed rules and `authBtnList` only to hide what would be refused.
 */
export function defineAbilityFor(principal: Principal): AppAbility {
  const { can, cannot, build } = new AbilityBuilder<AppAbility>(createMongoAbility);

  if (principal.kind === "user") {
    if (principal.banned) return build();
    const own = { userId: principal.userId };
    can(["read", "update"], "User", { id: principal.userId });
    can("read", "LedgerEntry", own);
    can("create", "Order");
    can("read", "Order", own);
    can("create", "Payment");
    can(["create", "read", "delete"], "Wallet", own);
    // every account, a guest's too, may take its data out and delete itself (GDPR Art. 15, 17, 20)
    can(["create", "read", "delete"], "DataRequest", own);
    can(["create", "read", "delete"], "Upload", own);
    can(["create", "read", "update", "delete"], "GenerationTask", own);
    can(["create", "delete"], "GalleryLike", own);
    // update = cancel a training; delete = withdraw consent (the model becomes unusable and its files are deleted)
    can(["create", "read", "update", "delete"], "CharacterModel", own);
    can("read", "Character", { isPublic: true });
    can(["create", "read", "update", "delete"], "Character", own);
    can(["create", "read"], "Conversation", own);
    can("read", "CreatorPage");
    can(["create", "delete"], "Subscription", own);
    can("read", "Follow", own);
    if (principal.role !== "visitor") can("create", "Follow", own);
    can(["create", "read"], "Tip", { fanUserId: principal.userId });
    // which threads are the caller's is the messages service's to decide (a side of the thread), on every request
    can(["create", "read"], "Message");
    can("create", "Report");
    can("read", "Decision", own);
    can("create", "Appeal");
    can(["create", "read"], "SupportThread", own);
    can("read", "CheckIn", own);
    can(["read", "update"], "Notification", own);
    can("read", "NotificationSetting", own);
    // a guest account costs nothing to start: gifts and invitations are a saved account's (docs/decisions/302)
    if (principal.role !== "visitor") {
      can("create", "CheckIn", own);
      can("update", "NotificationSetting", own);
      can("read", "Referral", { inviterId: principal.userId });
    }
    // a registered account makes its page (with or without a trained model) and becomes a creator (SPEC.md §6)
    if (principal.role !== "visitor") can("create", "CreatorPage", own);
    if (principal.role === "creator") can("update", "CreatorPage", own);
    // earnings and payouts are the creator's own; deciding them is staff's (support or admin), never the creator's
    if (principal.role === "creator") can(["create", "read"], "CreatorPayout");
    // the refusal's reason is what the guest is told: save the account first (issue 30)
    if (principal.role === "visitor") cannot("create", ["CharacterModel", "CreatorPage", "CheckIn", "Tip", "Follow"]).because(SAVE_ACCOUNT_MESSAGE);
    if (principal.role === "visitor") cannot(["create", "read"], "Message").because(SAVE_ACCOUNT_MESSAGE);
    if (principal.role === "visitor") cannot("read", "Referral").because(SAVE_ACCOUNT_MESSAGE);
    if (principal.role === "visitor") cannot("update", "NotificationSetting").because(SAVE_ACCOUNT_MESSAGE);
  }

  if (principal.kind === "anonymous") {
    can("read", "CreatorPage");
    can("read", "Template");
    can("create", "Report");
    // a banned person has no login left: the appeal key of their statement of reasons is their proof
    can("create", "Appeal");
  }

  if (principal.kind === "staff") {
    const roles = new Set(principal.roles);
    can("read", "Dashboard");
    if (roles.has("admin")) can("manage", "all");
    if (roles.has("support")) {
      can("read", ["User", "Order", "PaymentEvent", "LedgerEntry", "GenerationTask", "OutboxEmail"]);
      can("grant", "Payment");
      can("adjust", "LedgerEntry");
      can("refund", "Order");
      can(["read", "update"], "SupportThread");
      can("read", "Operations");
      // money owed to creators: the payout queue and disputed deliveries (refunds), like order refunds
      can(["read", "update"], ["CreatorPayout", "CustomRequest", "Tip"]);
      // a person's GDPR requests made on their behalf from the console, audited (decisions 261, 262)
      can(["create", "read", "delete"], "DataRequest");
      // gifts are money: support reverses a fraudulent referral, as it refunds orders (docs/decisions/302)
      can(["read", "update"], "Referral");
    }
    if (roles.has("marketer")) {
      can("manage", ["Channel", "Template", "SiteSetting"]);
      // the catalogue: packs, plans and sales (issue 35 item 1); never deleted, orders refer to them
      can(["read", "create", "update"], "Product");
      can("read", "Order");
    }
    if (roles.has("moderator")) {
      can("read", ["User", "GenerationTask", "Upload", "Character", "CreatorPage", "Conversation", "ChatPolicyHit", "Message"]);
      // lifting a chat suspension is a safety decision, like lifting a ban: moderators (and admins), not support
      can(["read", "update"], "ChatSuspension");
      can("manage", ["Report", "Ban", "Appeal"]);
      can("read", "Decision");
      can("ban", "User");
      can("takedown", ["GenerationTask", "Upload", "Character", "CreatorPage", "Conversation", "CharacterModel", "Message"]);
      // the likeness-consent record (selfie, face checks) is for moderators only, never public
      can("read", ["CharacterModel", "TrainingConsent"]);
      can("review", "TrainingConsent");
      // upload screening (issue 19): the held-upload queue with apparent ages
      can(["read", "review"], "UploadScreening");
      can(["read", "create"], "BlockedHash");
      // ban evasion through invitations is theirs to see (docs/decisions/302)
      can("read", "Referral");
    }
  }

  return build();
}

/**
 * How many principals' abilities are kept built: a built ability holds about 11 KB of CASL indexes, so this is
 * about 12 MB. A user's next request after eviction builds it again.
 */
const CACHED_ABILITIES = 1_000;
const abilities = new Map<string, AppAbility>();

/** Everything defineAbilityFor reads from a principal: two principals with the same key get the same rules. */
function abilityKey(principal: Principal): string {
  if (principal.kind === "user") return `user:${principal.userId}:${principal.role}:${principal.banned ? 1 : 0}`;
  if (principal.kind === "staff") return `staff:${[...principal.roles].sort().join(",")}`;
  return "anonymous";
}

/**
 * defineAbilityFor, built once per distinct principal and shared by its requests. Building costs about 15 µs,
 * a measurable share of every authenticated call (docs/decisions/007); the rules depend on nothing but the key, so a
 * kept ability is never stale. Abilities are only read after they are built.
 */
export function abilityFor(principal: Principal): AppAbility {
  const key = abilityKey(principal);
  let ability = abilities.get(key);
  if (ability) {
    // most recently used last, so eviction below drops the least recently used
    abilities.delete(key);
  } else {
    ability = defineAbilityFor(principal);
    if (abilities.size >= CACHED_ABILITIES) abilities.delete(abilities.keys().next().value!);
  }
  abilities.set(key, ability);
  return ability;
}

const buttonLists = new WeakMap<AppAbility, string[]>();
const packedRuleSets = new WeakMap<AppAbility, unknown>();

/** The permissions a client may show buttons for, as "action:Subject" strings (SPEC.md §6 authBtnList). */
export function authBtnList(ability: AppAbility): string[] {
  let kept = buttonLists.get(ability);
  if (!kept) buttonLists.set(ability, (kept = buttonList(ability)));
  return kept;
}

/**
 * Every "action:Subject" a granting rule names and the ability still allows for that subject type, which is the
 * server's own check (`ability.can(action, Subject)` in the router). A later "cannot" overrides an earlier "can"
 * (a guest's `create:Tip`), so a granting rule alone is no proof that the server lets it through (issue 47 item 7).
 */
function buttonList(ability: AppAbility): string[] {
  const list = new Set<string>();
  for (const rule of ability.rules) {
    if (rule.inverted) continue;
    const actions = Array.isArray(rule.action) ? rule.action : [rule.action];
    const subjects = Array.isArray(rule.subject) ? rule.subject : [rule.subject];
    for (const a of actions) for (const s of subjects) if (ability.can(a, s as Subject)) list.add(`${a}:${String(s)}`);
  }
  return [...list].sort();
}

export function packedRules(ability: AppAbility): unknown {
  let kept = packedRuleSets.get(ability);
  if (!kept) packedRuleSets.set(ability, (kept = packRules(ability.rules as RawRuleOf<AppAbility>[])));
  return kept;
}
