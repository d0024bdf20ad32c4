/** The console menu's groups, in the order they are shown (docs/decisions/293). */
export const MENU_GROUPS = ["users", "shop", "content", "safety", "marketing", "engines", "system"] as const;
export type MenuGroup = (typeof MENU_GROUPS)[number];

/**
 * Each console resource's place in the menu: a new resource with a list needs one line here. Within a group, entries
 * keep the order of the <Resource> elements in App.tsx; a role sees a group only when it may list one of its entries.
 */
export const MENU_GROUP_OF: Record<string, MenuGroup> = {
  users: "users",
  "support-threads": "users",
  outbox: "users",
  orders: "shop",
  memberships: "shop",
  products: "shop",
  payouts: "shop",
  disputes: "shop",
  tips: "shop",
  "credit-grant-imports": "shop",
  "product-imports": "shop",
  referrals: "shop",
  "reward-days": "shop",
  "check-ins": "shop",
  characters: "content",
  "creator-pages": "content",
  "creator-memberships": "content",
  "creator-library-items": "content",
  "character-models": "content",
  conversations: "content",
  reports: "safety",
  bans: "safety",
  appeals: "safety",
  transparency: "safety",
  evidence: "safety",
  "chat-policy-hits": "safety",
  "chat-suspensions": "safety",
  "reported-threads": "safety",
  "upload-screenings": "safety",
  "blocked-hashes": "safety",
  templates: "marketing",
  channels: "marketing",
  "pixel-id-imports": "marketing",
  banners: "marketing",
  "prompt-suggestions": "marketing",
  engines: "engines",
  "chat-backends": "engines",
  "generation-tasks": "engines",
  operations: "system",
  "site-settings": "system",
  "legal-versions": "system",
  "audit-log": "system",
  staff: "system",
};

/** A listed resource nobody placed yet still shows, under System, rather than vanish from the menu. */
export const groupOf = (resource: string): MenuGroup => MENU_GROUP_OF[resource] ?? "system";

/** Listed resources by group, each group in App.tsx order; groups without entries are left out. */
export function groupResources(listed: string[]): { group: MenuGroup; resources: string[] }[] {
  return MENU_GROUPS.map((group) => ({ group, resources: listed.filter((r) => groupOf(r) === group) })).filter((g) => g.resources.length > 0);
}
