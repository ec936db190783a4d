#!/usr/bin/env bash
# Sets up a fresh Debian machine for this repository: Debian's Chromium for the browser tests,
# redis-server for the Redis store's tests, python3-requests and a JDK when missing (the Python and
# Java samples run in the docs tests), pnpm (pinned by package.json's packageManager, through
# corepack) and the workspace's dependencies, which include the pinned Node 24 that every script runs
# on. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's Chromium runs the browser tests; Debian's redis-server the @engage-voice/store-redis tests;
# python3 with requests and a JDK (java 11 or newer) run the reference's Python and Java samples.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -x /usr/bin/redis-server ] || missing+=(redis-server)
python3 -c 'import requests' >/dev/null 2>&1 || /usr/bin/python3 -c 'import requests' >/dev/null 2>&1 ||
  missing+=(python3-requests)
command -v java >/dev/null 2>&1 || missing+=(default-jdk-headless)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: Debian packages the tests need are missing (${missing[*]}): sudo apt-get install ${missing[*]}" >&2
  fi
fi

want=$(node -p 'require("./package.json").packageManager.split("+")[0].split("@")[1]')
if [ "$(pnpm --version 2>/dev/null || true)" != "$want" ]; then
  export COREPACK_ENABLE_DOWNLOAD_PROMPT=0
  corepack enable || npm install --global "pnpm@$want"
fi
echo "setup: pnpm $(pnpm --version), $(node --version) (scripts run on the workspace's pinned Node)"

pnpm install --frozen-lockfile
