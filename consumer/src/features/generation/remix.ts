import type { CameraMove } from "../../../../server/src/contract/engines.ts";
import { IMAGE_MODES, type GenerationMode, type Resolution } from "../../../../server/src/contract/generation.ts";
import type { GalleryItemDetail } from "../gallery/gallery.api.ts";
import { ASPECTS } from "./generation.api.ts";
import { DEFAULT_SETTINGS, type Settings } from "./MoreSettings.tsx";

/**
 * What "use these settings" fills the studio with (issue 32 item 2): another person's template, prompt and controls,
 * never their photo, video, audio or model; the person adds their own. `id` goes with the submit as `remix_of`.
 */
export interface Remix {
  id: number;
  nickname: string;
  action: GenerationMode;
  templateId: number | null;
  prompt: string;
  settings: Settings;
  resolution?: Resolution;
  duration?: number;
  count?: number;
  /** image to video's camera move; a transition's second photo is the other person's and never comes along */
  camera?: CameraMove;
}

export function remixOf(item: GalleryItemDetail): Remix {
  const s = item.settings;
  return {
    id: item.id,
    nickname: item.nickname,
    action: item.action,
    templateId: item.template_id,
    prompt: s.prompt ?? "",
    settings: {
      // an aspect the studio does not offer (3:4, 4:3) is left to follow the person's photo
      aspect: ASPECTS.find((a) => a === s.aspect) ?? DEFAULT_SETTINGS.aspect,
      negative_prompt: s.negative_prompt ?? "",
      seed: s.seed === undefined ? "" : String(s.seed),
      strength: s.strength ?? DEFAULT_SETTINGS.strength,
    },
    resolution: s.resolution === "720P" || s.resolution === "480P" ? s.resolution : undefined,
    duration: s.duration,
    count: s.count,
    camera: s.camera,
  };
}

/** Where the studio opens for it: the images tab for an image mode, else the video mode (a role video is image to video). */
export function studioPlaceOf(action: GenerationMode): { tab: "images" | "videos"; mode: GenerationMode | null } {
  if ((IMAGE_MODES as readonly GenerationMode[]).includes(action)) return { tab: "images", mode: null };
  return { tab: "videos", mode: action === "role_video" || action === "image_to_video" ? null : action };
}
