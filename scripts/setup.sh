#!/usr/bin/env bash
# Sets up a fresh Debian machine for this repository: Debian's Chromium for the browser tests and
# redis-server for the Redis store's tests, pnpm (pinned by package.json's packageManager, through
# corepack) and the workspace's dependencies, which include the pinned Node 24 that every script runs
# on. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's Chromium runs the browser tests; Debian's redis-server the @engage-voice/store-redis tests.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -x /usr/bin/redis-server ] || missing+=(redis-server)
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
