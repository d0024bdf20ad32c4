import { subject } from "@casl/ability";
import { describe, expect, it } from "vitest";
import { StaffRole, UserRole } from "../db/generated/enums.ts";
import { type Action, abilityFor, authBtnList, defineAbilityFor, packedRules, type Subject } from "./abilities.ts";
import { anonymous, type Principal, type StaffPrincipal, type UserPrincipal } from "./principal.ts";

const user = (over: Partial<UserPrincipal> = {}): UserPrincipal => ({ kind: "user", sessionId: 1, userId: 7, role: "user", banned: false, ...over });
const order = (userId: number) => subject("Order", { userId } as Record<string, unknown>);
const staff = (roles: StaffPrincipal["roles"]): StaffPrincipal => ({ kind: "staff", sessionId: 2, staffId: 3, username: "s", roles });

describe("abilityFor", () => {
  it("gives the same rules as defineAbilityFor, built once per principal", () => {
    const a = abilityFor(user());
    expect(abilityFor(user({ sessionId: 99 }))).toBe(a);
    expect(a.rules).toEqual(defineAbilityFor(user()).rules);
    expect(a.can("read", order(7))).toBe(true);
    expect(a.can("read", order(8))).toBe(false);
  });

  it("builds fresh rules when anything the rules depend on changes", () => {
    const guest = abilityFor(user({ role: "visitor" }));
    expect(guest.can("create", "CharacterModel")).toBe(false);
    expect(abilityFor(user({ role: "user" })).can("create", "CharacterModel")).toBe(true);
    expect(abilityFor(user({ banned: true })).can("read", "User")).toBe(false);
    expect(abilityFor(user({ userId: 8 })).can("read", order(8))).toBe(true);
    expect(abilityFor(staff(["support"])).can("grant", "Payment")).toBe(true);
    expect(abilityFor(staff(["marketer"])).can("grant", "Payment")).toBe(false);
  });

  it("treats the same staff roles in another order as the same principal", () => {
    expect(abilityFor(staff(["moderator", "support"]))).toBe(abilityFor(staff(["support", "moderator"])));
  });

  it("keeps at most 1,000 abilities, dropping the least recently used", () => {
    const first = abilityFor(user({ userId: 1_000_001 }));
    const recent = abilityFor(user({ userId: 1_000_002 }));
    for (let id = 2_000_000; id < 2_000_999; id++) {
      abilityFor(user({ userId: id }));
      if (id % 100 === 0) abilityFor(user({ userId: 1_000_002 }));
    }
    expect(abilityFor(user({ userId: 1_000_002 }))).toBe(recent);
    expect(abilityFor(user({ userId: 1_000_001 }))).not.toBe(first);
  });

  it("keeps authBtnList and packed rules with the ability they describe", () => {
    const a = abilityFor(user({ userId: 42 }));
    expect(authBtnList(a)).toBe(authBtnList(a));
    expect(authBtnList(a)).toContain("create:Order");
    expect(JSON.stringify(packedRules(a))).toContain("42");
    expect(JSON.stringify(packedRules(abilityFor(user({ userId: 43 }))))).not.toContain("42");
  });
});

describe("authBtnList", () => {
  const principals: [string, Principal][] = [
    ...Object.values(UserRole).flatMap((role): [string, Principal][] => [
      [role, user({ role })],
      [`banned ${role}`, user({ role, banned: true })],
    ]),
    ["anonymous", anonymous],
    ...Object.values(StaffRole).map((role): [string, Principal] => [`staff ${role}`, staff([role])]),
    ["staff support+moderator", staff(["support", "moderator"])],
  ];

  it.each(principals)("%s: every entry is allowed by the check the router makes", (_name, principal) => {
    const ability = defineAbilityFor(principal);
    for (const entry of authBtnList(ability)) {
      const [action, subjectType] = entry.split(":") as [Action, Subject];
      expect(ability.can(action, subjectType), entry).toBe(true);
    }
  });

  it("offers a guest none of what a guest is refused, and a saved account all of it", () => {
    const refusedToGuests = [
      "create:CharacterModel",
      "create:Tip",
      "create:Message",
      "read:Message",
      "create:CreatorPage",
      "create:CheckIn",
      "create:Follow",
      "read:Referral",
      "update:NotificationSetting",
    ];
    const guest = authBtnList(defineAbilityFor(user({ role: "visitor" })));
    for (const entry of refusedToGuests) expect(guest, entry).not.toContain(entry);
    expect(guest).toEqual(expect.arrayContaining(["create:GenerationTask", "create:Order", "read:CreatorPage", "create:DataRequest"]));
    expect(authBtnList(defineAbilityFor(user({ role: "user" })))).toEqual(expect.arrayContaining(refusedToGuests));
  });

  it("offers a banned account nothing", () => {
    expect(authBtnList(defineAbilityFor(user({ banned: true })))).toEqual([]);
  });
});
