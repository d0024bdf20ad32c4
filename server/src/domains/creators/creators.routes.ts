import type { ApiRouter } from "../../http/api.ts";
import { signedMediaRoutes } from "../../storage/signed-media.routes.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import {
  bindingAnswer,
  bindingBody,
  createPageBody,
  deliverBody,
  pageAnswer,
  homeLinkInfoQuery,
  itemIdBody,
  joinMembershipAnswer,
  libraryAnswer,
  libraryMediaQuery,
  libraryQuery,
  membershipBody,
  myItemsAnswer,
  myItemsQuery,
  myPageAnswer,
  pageEdit,
  publishBody,
  publishItemAnswer,
  publishItemBody,
  publishPageAnswer,
  rateBody,
  requestAnswer,
  requestBody,
  requestIdBody,
  requestsAnswer,
  requestsQuery,
  unpublishItemAnswer,
} from "./creators.schema.ts";
import { LIBRARY_MEDIA_PATH } from "./creator-library.service.ts";
import type { CreatorsService } from "./creators.service.ts";
import { tipsRoutes } from "./creator-tips.routes.ts";
import { followsRoutes } from "./creator-follows.routes.ts";

/** The cookie of a viewer's media pass (decision 217), sent only to the members-only media route. */
const MEDIA_PASS_COOKIE = "reverie_media_pass";

export function creatorsRoutes(api: ApiRouter, creators: CreatorsService, storage: Pick<MediaStorage, "size" | "stream">) {
  const tags = ["creators"];
  api.get(
    "/api/Subscribe/getHomeLinkInfo",
    {
      summary: "A creator page by its home link: cover, name, bio, social links, real subscriber count, whether the caller subscribes, its library",
      tags,
      auth: "public",
      query: homeLinkInfoQuery,
      response: pageAnswer,
    },
    ({ principal, query }) => creators.homeLinkInfo(query.home_link, principal.kind === "user" ? principal.userId : null),
  );
  api.post(
    "/api/Subscribe/binding",
    {
      summary: "Follow (`subscribe` 1) a creator page or unfollow it (0); idempotent; a saved account's, not a guest's",
      tags,
      auth: "user",
      can: ["create", "Follow"],
      body: bindingBody,
      response: bindingAnswer,
    },
    ({ principal, body }) => creators.bind(principal.userId, body.home_link, body.subscribe === 1),
  );
  api.get(
    "/api/Subscribe/myPage",
    { summary: "The caller's own creator page, or null", tags, auth: "user", can: ["read", "User"], response: myPageAnswer },
    async ({ principal }) => ({ page: await creators.mine(principal.userId) }),
  );
  api.post(
    "/api/Subscribe/publishPage",
    {
      summary: "Publish the caller's page for one of their finished character models (its home link)",
      tags,
      auth: "user",
      can: ["create", "CreatorPage"],
      body: publishBody,
      response: publishPageAnswer,
    },
    ({ principal, body }) => creators.publish(principal.userId, body.role_id, body),
  );
  api.post(
    "/api/Subscribe/createPage",
    {
      summary: "Make the caller's page without training: home link, display name, cover, bio, social links; a finished model is optional",
      tags,
      auth: "user",
      can: ["create", "CreatorPage"],
      body: createPageBody,
      response: publishPageAnswer,
    },
    ({ principal, body }) => creators.create(principal.userId, body),
  );
  api.post(
    "/api/Subscribe/updatePage",
    {
      summary: "Edit the caller's page: display name, cover, the model shown (or none), bio, social links, request and membership prices",
      tags,
      auth: "user",
      can: ["update", "CreatorPage"],
      body: pageEdit,
      response: publishPageAnswer,
    },
    ({ principal, body }) => creators.update(principal.userId, body),
  );

  // premium custom requests (issue 16): the price is held from the fan until delivery, decline or expiry
  api.post(
    "/api/Subscribe/request",
    {
      summary: "A paid custom request to a creator; its price is held from the caller's balance",
      tags,
      auth: "user",
      can: ["create", "Subscription"],
      body: requestBody,
      response: requestAnswer,
    },
    ({ principal, body }) => creators.request(principal.userId, body.home_link, body.text, body.idempotency_key),
  );
  api.get(
    "/api/Subscribe/requests",
    {
      summary: "The caller's custom requests as a fan, or (`as=creator`) the requests to their page",
      tags,
      auth: "user",
      can: ["read", "User"],
      query: requestsQuery,
      response: requestsAnswer,
    },
    ({ principal, query }) => creators.requests(principal.userId, query.as),
  );
  api.post(
    "/api/Subscribe/acceptRequest",
    { summary: "The creator accepts a pending request", tags, auth: "user", can: ["update", "CreatorPage"], body: requestIdBody, response: requestAnswer },
    ({ principal, body }) => creators.accept(principal.userId, body.id),
  );
  api.post(
    "/api/Subscribe/declineRequest",
    {
      summary: "The creator declines a request; the fan gets the held credits back",
      tags,
      auth: "user",
      can: ["update", "CreatorPage"],
      body: requestIdBody,
      response: requestAnswer,
    },
    ({ principal, body }) => creators.decline(principal.userId, body.id),
  );
  api.post(
    "/api/Subscribe/deliverRequest",
    {
      summary: "The creator delivers one of their finished creations; the held credits go to the creator",
      tags,
      auth: "user",
      can: ["update", "CreatorPage"],
      body: deliverBody,
      response: requestAnswer,
    },
    ({ principal, body }) => creators.deliver(principal.userId, body.id, body.task_id),
  );
  api.post(
    "/api/Subscribe/rateRequest",
    {
      summary: "The fan rates a delivery (`satisfied` 1 or 0), once",
      tags,
      auth: "user",
      can: ["create", "Subscription"],
      body: rateBody,
      response: requestAnswer,
    },
    ({ principal, body }) => creators.rate(principal.userId, body.id, body.satisfied === 1),
  );

  // paid memberships and the content library (decision 204)
  api.post(
    "/api/Subscribe/joinMembership",
    {
      summary: "Join a page's paid membership: its price per period is charged from the caller's balance now and at each renewal",
      tags,
      auth: "user",
      can: ["create", "Subscription"],
      body: membershipBody,
      response: joinMembershipAnswer,
    },
    ({ principal, body }) => creators.joinMembership(principal.userId, body.home_link),
  );
  api.post(
    "/api/Subscribe/cancelMembership",
    {
      summary: "Cancel the caller's membership: no further renewal, access until the paid period ends",
      tags,
      auth: "user",
      can: ["delete", "Subscription"],
      body: membershipBody,
      response: joinMembershipAnswer,
    },
    ({ principal, body }) => creators.cancelMembership(principal.userId, body.home_link),
  );
  api.post(
    "/api/Subscribe/publishItem",
    {
      summary: "Publish one of the caller's finished creations to their page, public or members-only (or change that)",
      tags,
      auth: "user",
      can: ["update", "CreatorPage"],
      body: publishItemBody,
      response: publishItemAnswer,
    },
    ({ principal, body }) => creators.publishItem(principal.userId, body.task_id, body.visibility),
  );
  api.get(
    "/api/Subscribe/library",
    {
      summary: "A page of a creator page's library (newest first) as the caller sees it: members-only items locked unless a member",
      tags,
      auth: "public",
      query: libraryQuery,
      response: libraryAnswer,
    },
    ({ principal, query }) => creators.library(query.home_link, principal.kind === "user" ? principal.userId : null, query),
  );
  api.get(
    "/api/Subscribe/myItems",
    {
      summary: "How the caller's page shows these creations of theirs (public or members-only); those not on it are left out",
      tags,
      auth: "user",
      can: ["update", "CreatorPage"],
      query: myItemsQuery,
      response: myItemsAnswer,
    },
    ({ principal, query }) => creators.myItems(principal.userId, query.task_ids),
  );
  api.post(
    "/api/Subscribe/unpublishItem",
    { summary: "Take an item off the caller's page", tags, auth: "user", can: ["update", "CreatorPage"], body: itemIdBody, response: unpublishItemAnswer },
    ({ principal, body }) => creators.unpublishItem(principal.userId, body.id),
  );
  signedMediaRoutes(api, storage, {
    tags,
    passPath: "/api/Subscribe/mediaPass",
    passSummary: "Sets the caller's media pass, a cookie that lets a <video> element stream members-only files signed for the caller",
    passCan: ["read", "User"],
    cookie: MEDIA_PASS_COOKIE,
    mediaPath: LIBRARY_MEDIA_PATH,
    mediaSummary:
      "A members-only library file, for the signed-in viewer its URL was signed for while they are a member (404 otherwise); answers Range requests",
    query: libraryMediaQuery,
    pass: creators.mediaPass,
    passViewer: creators.passViewer,
    file: creators.libraryMedia,
  });
  tipsRoutes(api, creators);
  followsRoutes(api, creators);
}
