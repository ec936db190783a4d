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
# Another apt may hold apt's locks, for minutes: unattended-upgrades on a fresh machine, a second
# terminal. apt-get install waits for dpkg's lock (DPkg::Lock::Timeout); apt-get update does not wait
# for the lock of its lists (apt 2.6 fails at once), so its refusal is retried here, for as long.
APT_LOCK_WAIT_S=600
apt_update() {
  local waited=0 out
  until out=$(apt-get update -qq 2>&1); do
    if [[ "$out" != *"Could not get lock"* ]] || [ "$waited" -ge "$APT_LOCK_WAIT_S" ]; then
      printf '%s\n' "$out" >&2
      return 1
    fi
    if [ "$waited" = 0 ]; then
      echo "setup: another apt holds its lock: waiting for it (up to $APT_LOCK_WAIT_S s)" >&2
    fi
    sleep 5
    waited=$((waited + 5))
  done
}
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt_update
    DEBIAN_FRONTEND=noninteractive apt-get install -o DPkg::Lock::Timeout="$APT_LOCK_WAIT_S" \
      -y -qq --no-install-recommends "${missing[@]}" >/dev/null
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
