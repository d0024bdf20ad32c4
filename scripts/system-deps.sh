#!/usr/bin/env bash
# Debian packages the test suite drives: ffmpeg (media rendering and probing), Chromium and CJK fonts (browser tests).
# Installs only what is missing; a machine without root or apt just reports it.
set -u
missing=()
command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1 || missing+=(ffmpeg)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# CJK glyphs for the consumer app's Japanese and Korean screens in browser tests and their screenshots
{ command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=ja 2>/dev/null)" ]; } || missing+=(fonts-noto-cjk)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} (Debian packages)…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "Missing system packages: ${missing[*]} — install them with your package manager." >&2
  exit 1
fi
