import type { ApiRouter } from "../../http/api.ts";
import { bindingBody, homeLinkInfoQuery, pageFields, publishBody } from "./creators.schema.ts";
import type { CreatorsService } from "./creators.service.ts";

export function creatorsRoutes(api: ApiRouter, creators: CreatorsService) {
  const tags = ["creators"];
  api.get(
    "/api/Subscribe/getHomeLinkInfo",
    { summary: "A creator page by its home link: cover, name, bio, social links, real subscriber count, whether the caller subscribes, its library", tags, auth: "public", query: homeLinkInfoQuery },
    ({ principal, query }) => creators.homeLinkInfo(query.home_link, principal.kind === "user" ? principal.userId : null),
  );
  api.post("/api/Subscribe/binding", { summary: "Subscribe (`subscribe` 1) to a creator page or unsubscribe (0); idempotent", tags, auth: "user", can: ["create", "Subscription"], body: bindingBody }, ({ principal, body }) =>
    creators.bind(principal.userId, body.home_link, body.subscribe === 1),
  );
  api.get("/api/Subscribe/myPage", { summary: "The caller's own creator page, or null", tags, auth: "user", can: ["read", "User"] }, async ({ principal }) => ({ page: await creators.mine(principal.userId) }));
  api.post("/api/Subscribe/publishPage", { summary: "Publish the caller's page for one of their finished character models (its home link)", tags, auth: "user", can: ["create", "CreatorPage"], body: publishBody }, ({ principal, body }) =>
    creators.publish(principal.userId, body.role_id, body),
  );
  api.post("/api/Subscribe/updatePage", { summary: "Edit the caller's page: bio and social links", tags, auth: "user", can: ["update", "CreatorPage"], body: pageFields }, ({ principal, body }) =>
    creators.update(principal.userId, body),
  );
}
