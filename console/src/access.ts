import { createMongoAbility, type MongoAbility } from "@casl/ability";
import { unpackRules, type PackRule } from "@casl/ability/extra";

export type ConsoleAbility = MongoAbility;

/** Console resource -> the server's CASL subject (server/src/authz/abilities.ts). */
export const SUBJECT: Record<string, string> = {
  dashboard: "Dashboard",
  operations: "Operations",
  users: "User",
  ledger: "LedgerEntry",
  orders: "Order",
  memberships: "Order",
  products: "Product",
  "payment-events": "PaymentEvent",
  templates: "Template",
  engines: "Template",
  channels: "Channel",
  "pixel-ids": "Channel",
  // imports: whoever may add the list's rows by hand (docs/decisions/285)
  "pixel-id-imports": "Channel",
  "credit-grant-imports": "LedgerEntry",
  "product-imports": "Product",
  reports: "Report",
  bans: "Ban",
  appeals: "Appeal",
  evidence: "Evidence",
  // a page of figures about reports, decisions and appeals, for whoever may read reports
  transparency: "Report",
  characters: "Character",
  "creator-pages": "CreatorPage",
  // a page's memberships and library: for whoever may read the page (docs/decisions/215)
  "creator-memberships": "CreatorPage",
  "creator-library-items": "CreatorPage",
  payouts: "CreatorPayout",
  // requests in dispute: staff read custom requests only through their disputes
  disputes: "CustomRequest",
  tips: "Tip",
  conversations: "Conversation",
  "chat-policy-hits": "ChatPolicyHit",
  "chat-suspensions": "ChatSuspension",
  // threads holding a reported message (docs/decisions/310): moderators read them whole
  "reported-threads": "Message",
  "chat-backends": "ChatBackend",
  // the list shows consent decisions and opens the consent record: moderators only
  "character-models": "TrainingConsent",
  "upload-screenings": "UploadScreening",
  "blocked-hashes": "BlockedHash",
  "generation-tasks": "GenerationTask",
  banners: "SiteSetting",
  "prompt-suggestions": "SiteSetting",
  "site-settings": "SiteSetting",
  "audit-log": "AuditLog",
  staff: "Staff",
  outbox: "OutboxEmail",
  "support-threads": "SupportThread",
  "legal-versions": "LegalVersion",
  // invitations and the gifts' figures: whoever may read referrals (support, moderators, admins; docs/decisions/302)
  referrals: "Referral",
  "reward-days": "Referral",
  "check-ins": "Referral",
};

/** react-admin's page actions -> CASL actions; named staff actions (ban, grant, adjust, takedown) pass through. */
const ACTION: Record<string, string> = { list: "read", show: "read", export: "read", create: "create", clone: "create", edit: "update", delete: "delete" };

export function abilityFromRules(packed: unknown): ConsoleAbility {
  return createMongoAbility(unpackRules(packed as PackRule<never>[]) as never);
}

/** The same question the server asks: may this staff member do `action` on `resource` (a console resource or a CASL subject)? */
export function allowed(ability: ConsoleAbility, action: string, resource: string): boolean {
  return ability.can(ACTION[action] ?? action, SUBJECT[resource] ?? resource);
}
