import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { config } from "../config.ts";

/**
 * Which ffmpeg and ffprobe Reverie runs (decision 060): the configured path, else the one on PATH (a Debian or
 * distribution build, usually newer), else the static build shipped inside an npm package, so that a fresh machine
 * renders right after `npm install` with nothing else installed.
 */
export type MediaTool = "ffmpeg" | "ffprobe";

const SHIPPED_IN: Record<MediaTool, string> = { ffmpeg: "@ffmpeg-installer/ffmpeg", ffprobe: "@ffprobe-installer/ffprobe" };
const require = createRequire(import.meta.url);

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export function findOnPath(name: string, searchPath: string): string | undefined {
  return searchPath
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, name))
    .find(isExecutableFile);
}

function shippedBinary(tool: MediaTool): string | undefined {
  try {
    const found = (require(SHIPPED_IN[tool]) as { path: string }).path;
    return isExecutableFile(found) ? found : undefined;
  } catch {
    // the package throws (a string) on a platform it has no build for
    return undefined;
  }
}

const resolved = new Map<MediaTool, string>();

/** The command to spawn for a media tool; the bare name when none is found, so the spawn error names it. */
export function mediaToolPath(tool: MediaTool): string {
  let found = resolved.get(tool);
  if (!found) {
    const c = config();
    found = (tool === "ffmpeg" ? c.FFMPEG_PATH : c.FFPROBE_PATH) ?? findOnPath(tool, c.PATH) ?? shippedBinary(tool) ?? tool;
    resolved.set(tool, found);
  }
  return found;
}
