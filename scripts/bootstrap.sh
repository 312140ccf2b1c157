#!/usr/bin/env bash
# Installs what Quire needs on a fresh machine: pnpm (the pinned version) and the workspace dependencies.
# With --browser / --services it also installs what the tests need from Debian (below). Safe to run
# again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.34.9

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "quire: installing pnpm $PNPM_VERSION" >&2
  npm install --global "pnpm@$PNPM_VERSION" >&2
fi

# --browser: Debian's chromium for the browser tests. --services: Debian's redis-server for the Redis
# suites (the PostgreSQL 15 server is part of the machine image); without it those suites are skipped with
# a message, so a failed install of it warns rather than stops. One apt-get update for whatever is missing.
NEED_BROWSER=""
NEED_REDIS=""
for arg in "$@"; do
  case "$arg" in
    --browser) command -v chromium >/dev/null 2>&1 || NEED_BROWSER=1 ;;
    --services) command -v redis-server >/dev/null 2>&1 || NEED_REDIS=1 ;;
  esac
done
if [ -n "$NEED_BROWSER$NEED_REDIS" ]; then
  if [ "$(id -u)" = "0" ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update >&2 || [ -z "$NEED_BROWSER" ]
  if [ -n "$NEED_BROWSER" ]; then
    echo "quire: installing Debian's chromium for the browser tests" >&2
    $SUDO apt-get install -y chromium >&2
  fi
  if [ -n "$NEED_REDIS" ]; then
    echo "quire: installing Debian's redis-server for the tests" >&2
    $SUDO apt-get install -y redis-server >&2 ||
      echo "quire: installing redis-server failed; the Redis suites will be skipped" >&2
  fi
fi

# The lockfile is authoritative; a warm pnpm store makes this take a second or two.
pnpm install --frozen-lockfile >&2
