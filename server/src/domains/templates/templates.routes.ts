import { z } from "zod";
import { VIDEO_MODES } from "../../contract/generation.ts";
import type { ApiRouter } from "../../http/api.ts";
import type { TemplatesService } from "./templates.service.ts";
import { getTemplatesListAnswer, getVideoTempAnswer } from "./templates.schema.ts";

const templatesQuery = z.object({ suit_for: z.string().max(40).optional(), category: z.string().max(40).optional() });

/** SPEC.md §7 Index calls. */
export function templatesRoutes(api: ApiRouter, templates: TemplatesService) {
  const tags = ["index"];
  api.get(
    "/api/Index/getTemplatesList",
    {
      summary: "Enabled templates, optionally for one input kind (`suit_for`: image, video, text) and category",
      tags,
      auth: "public",
      query: templatesQuery,
      response: getTemplatesListAnswer,
    },
    async ({ query }) => ({
      list: await templates.list({ suitFor: query.suit_for, category: query.category }),
    }),
  );
  api.get(
    "/api/Index/getVideoTemp",
    { summary: "Templates that make videos, by category (Portrait, Lifestyle, Creative)", tags, auth: "public", response: getVideoTempAnswer },
    async () => {
      const list = await templates.list({ modes: VIDEO_MODES });
      const categories = [...new Set(list.map((t) => t.category))];
      return { list, categories: categories.map((name) => ({ name, list: list.filter((t) => t.category === name) })) };
    },
  );
}
