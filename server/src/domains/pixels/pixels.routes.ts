import type { ApiRouter } from "../../http/api.ts";
import type { PixelsService } from "./pixels.service.ts";
import { addAnswer, configAnswer, getpixeLStateAnswer, pixelEventBody, pixelListAnswer, pixelListQuery, pixelStateQuery } from "./pixels.schema.ts";

/** SPEC.md §7 Pixels. channel_id falls back to the `channel-id` header, then to the default channel. */
export function pixelsRoutes(api: ApiRouter, pixels: PixelsService) {
  const tags = ["pixels"];

  api.get(
    "/api/Pixelcollect/getpixeLState",
    { summary: "The channel's eight pixel switches, each 1 (on) or 0 (off)", tags, auth: "public", query: pixelStateQuery, response: getpixeLStateAnswer },
    ({ query, req }) => pixels.switchState(query.channel_id || req.get("channel-id") || undefined),
  );

  api.get(
    "/api/pixelcollect/pixelList",
    {
      summary: "Pixel ids (or domains) of one kind for the channel; empty while that kind is off",
      tags,
      auth: "public",
      query: pixelListQuery,
      response: pixelListAnswer,
    },
    ({ query, req }) => pixels.pixelList(query.type, query.channel_id || req.get("channel-id") || undefined, query.pixel_event || undefined),
  );

  api.post(
    "/api/pixelcollect/add",
    { summary: "Record a pixel event (event name plus any fields)", tags, auth: "public", body: pixelEventBody, response: addAnswer },
    ({ body, principal, req }) =>
      pixels.recordEvent(principal.kind === "user" ? principal.userId : null, req.get("channel-id") || undefined, body, {
        ip: req.ip,
        userAgent: req.get("user-agent"),
      }),
  );

  api.get(
    "/api/pixelcollect/config",
    {
      summary: "Where the app loads ad vendors' scripts from (script_base_url null = the vendors' official hosts)",
      tags,
      auth: "public",
      response: configAnswer,
    },
    () => pixels.clientConfig(),
  );
}
