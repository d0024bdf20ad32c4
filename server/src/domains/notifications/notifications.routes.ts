import type { ApiRouter } from "../../http/api.ts";
import type { NotificationDigests } from "./notifications.digest.ts";
import {
  digestSettingAnswer,
  digestSettingBody,
  markAllReadBody,
  markReadBody,
  notificationsAnswer,
  notificationsQuery,
  unreadAnswer,
  unsubscribeBody,
} from "./notifications.schema.ts";
import type { NotificationsService } from "./notifications.service.ts";

/** The bell and its email digest (issue 32 item 7, docs/decisions/312): each account's own, never another's. */
export function notificationsRoutes(api: ApiRouter, notifications: NotificationsService, digests: NotificationDigests) {
  const tags = ["notifications"];

  api.get(
    "/api/notifications",
    {
      summary: "A page of the caller's notifications, latest first (each line joins the events on one thing while unread), and the unread count",
      tags,
      auth: "user",
      can: ["read", "Notification"],
      query: notificationsQuery,
      response: notificationsAnswer,
    },
    ({ principal, query }) => notifications.list(principal.userId, query),
  );

  api.get(
    "/api/notifications/unread",
    {
      summary: "How many of the caller's notifications are unread (the bell's badge)",
      tags,
      auth: "user",
      can: ["read", "Notification"],
      response: unreadAnswer,
    },
    ({ principal }) => notifications.unreadCount(principal.userId),
  );

  api.post(
    "/api/notifications/read",
    {
      summary: "Mark one of the caller's notifications read (404 for any other); answers the unread count",
      tags,
      auth: "user",
      can: ["update", "Notification"],
      body: markReadBody,
      response: unreadAnswer,
    },
    ({ principal, body }) => notifications.markRead(principal.userId, body.id),
  );

  api.post(
    "/api/notifications/readAll",
    { summary: "Mark all the caller's notifications read", tags, auth: "user", can: ["update", "Notification"], body: markAllReadBody, response: unreadAnswer },
    ({ principal }) => notifications.markAllRead(principal.userId),
  );

  api.get(
    "/api/notifications/settings",
    {
      summary: "Whether the caller gets a daily email digest of unread notifications",
      tags,
      auth: "user",
      can: ["read", "NotificationSetting"],
      response: digestSettingAnswer,
    },
    ({ principal }) => digests.settings(principal.userId),
  );

  api.post(
    "/api/notifications/settings",
    {
      summary: "Turn the daily email digest on or off (a saved account's; off until turned on)",
      tags,
      auth: "user",
      can: ["update", "NotificationSetting"],
      body: digestSettingBody,
      response: digestSettingAnswer,
    },
    ({ principal, body }) => digests.setDigest(principal.userId, body.email_digest),
  );

  api.post(
    "/api/notifications/unsubscribe",
    {
      summary: "Stop the email digest with the signed token of its link, without signing in (400 for a token that is not one)",
      tags,
      auth: "public",
      body: unsubscribeBody,
      response: digestSettingAnswer,
    },
    ({ body }) => digests.unsubscribe(body.token),
  );
}
