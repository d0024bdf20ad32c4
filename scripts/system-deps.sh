#!/usr/bin/env bash
# Debian packages the test suite drives: ffmpeg (media rendering and probing), Chromium and CJK fonts (browser tests),
# PostgreSQL's server and nginx (`npm run test:scale`: a database server of its own and the README's reverse proxy).
# Installs only what is missing, so a second run is a few checks; a machine without root or apt just reports it.
set -u
missing=()
command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1 || missing+=(ffmpeg)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# CJK glyphs for the consumer app's Japanese and Korean screens in browser tests and their screenshots
{ command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=ja 2>/dev/null)" ]; } || missing+=(fonts-noto-cjk)
# Debian keeps the server's binaries out of PATH, one folder per major version
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
{ command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } || missing+=(nginx)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} (Debian packages)…"
  export DEBIAN_FRONTEND=noninteractive
  # the tests start their own PostgreSQL and nginx: the packages' services are not started on install (exit 101: "not allowed")
  policy=/usr/sbin/policy-rc.d
  own_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && own_policy=1
  fi
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  status=$?
  [ "$own_policy" = 1 ] && rm -f "$policy"
  exit $status
else
  echo "Missing system packages: ${missing[*]} — install them with your package manager." >&2
  exit 1
fi
