import type { ApiRouter } from "../../http/api.ts";
import type { StaffService } from "./staff.service.ts";
import { meAnswer } from "./staff.schema.ts";

export function staffRoutes(api: ApiRouter, staff: StaffService) {
  const tags = ["console"];

  api.get(
    "/admin/api/me",
    {
      summary: "The signed-in staff member: username, roles, authBtnList and packed CASL rules",
      tags,
      auth: "staff",
      can: ["read", "Dashboard"],
      response: meAnswer,
    },
    ({ principal, ability }) => staff.me(principal.staffId, ability),
  );
}
