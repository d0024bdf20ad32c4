import type { ApiRouter } from "../http/api.ts";
import { AdminResource } from "./resource.ts";
import type { PixelsService } from "../domains/pixels/pixels.service.ts";
import {
  channelBody,
  channelFilter,
  channelRecord,
  channelSecretBody,
  channelSecretsAnswer,
  channelSortable,
  channelUpdateBody,
  pixelIdBody,
  pixelIdFilter,
  pixelIdRecord,
  pixelIdSortable,
  pixelIdUpdateBody,
} from "../domains/pixels/pixels.schema.ts";

/** Channels with their eight pixel switches, and the pixel ids per kind and event (both under the Channel permission). */
export function channelsResource(api: ApiRouter, pixels: PixelsService) {
  const r = new AdminResource(api, "channels", "Channel");
  r.list({ filter: channelFilter, sortable: channelSortable, row: channelRecord }, (p) => pixels.listChannels(p));
  r.get(channelRecord, (id) => pixels.getChannel(id));
  r.create(channelBody, channelRecord, (body, staff) => pixels.createChannel(staff.staffId, body));
  r.update(channelUpdateBody, channelRecord, (id, body, staff) => pixels.updateChannel(staff.staffId, id, body));
  r.remove(channelRecord, (id, staff) => pixels.removeChannel(staff.staffId, id));
  // conversion API tokens: their own permission (admins only), write-only (docs/decisions/191)
  r.view(
    "secrets",
    {
      summary: "Which conversion API tokens are set (and their last 4 characters), never the tokens",
      can: ["read", "ChannelSecret"],
      response: channelSecretsAnswer,
    },
    (id) => pixels.channelSecretStatus(id),
  );
  r.action(
    "secrets",
    {
      summary: "Set or clear one conversion API token (admins only; audited, never read back)",
      can: ["update", "ChannelSecret"],
      body: channelSecretBody,
      response: channelSecretsAnswer,
    },
    (id, body, staff) => pixels.setChannelSecret(staff.staffId, id, body),
  );

  const ids = new AdminResource(api, "pixel-ids", "Channel");
  ids.list({ filter: pixelIdFilter, sortable: pixelIdSortable, row: pixelIdRecord }, (p) => pixels.listPixelIds(p));
  ids.get(pixelIdRecord, (id) => pixels.getPixelId(id));
  ids.create(pixelIdBody, pixelIdRecord, (body, staff) => pixels.createPixelId(staff.staffId, body));
  ids.update(pixelIdUpdateBody, pixelIdRecord, (id, body, staff) => pixels.updatePixelId(staff.staffId, id, body));
  ids.remove(pixelIdRecord, (id, staff) => pixels.removePixelId(staff.staffId, id));
}
