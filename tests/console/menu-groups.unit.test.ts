import { describe, expect, it } from "vitest";
import { SUBJECT } from "../../console/src/access.ts";
import { groupResources, MENU_GROUP_OF, MENU_GROUPS } from "../../console/src/menu/groups.ts";

/** Console resources with no menu entry: the dashboard is the menu's own first item; the rest open only from a page. */
const NOT_IN_MENU = ["dashboard", "ledger", "payment-events", "pixel-ids"];

describe("the console menu's group table (docs/decisions/293)", () => {
  it("places every console resource with a menu entry in a group, and names no resource the console lacks", () => {
    const listed = Object.keys(SUBJECT).filter((r) => !NOT_IN_MENU.includes(r));
    expect(Object.keys(MENU_GROUP_OF).sort()).toEqual(listed.sort());
  });

  it("groups in their order, entries in the given order, empty groups left out, an unplaced resource under System", () => {
    expect(groupResources(["reports", "orders", "users", "products", "something-new"])).toEqual([
      { group: "users", resources: ["users"] },
      { group: "shop", resources: ["orders", "products"] },
      { group: "safety", resources: ["reports"] },
      { group: "system", resources: ["something-new"] },
    ]);
    expect(MENU_GROUPS).toHaveLength(7);
  });
});
