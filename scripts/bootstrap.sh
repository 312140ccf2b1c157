#!/usr/bin/env bash
# Installs what Quire needs on a fresh machine: pnpm (the pinned version) and the workspace dependencies.
# With --browser it also installs Debian's chromium for the browser tests. Safe to run again: each step
# is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.34.9

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "quire: installing pnpm $PNPM_VERSION" >&2
  npm install --global "pnpm@$PNPM_VERSION" >&2
fi

if [ "${1:-}" = "--browser" ] && ! command -v chromium >/dev/null 2>&1; then
  echo "quire: installing Debian's chromium for the browser tests" >&2
  if [ "$(id -u)" = "0" ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update >&2
  $SUDO apt-get install -y chromium >&2
fi

# The lockfile is authoritative; a warm pnpm store makes this take a second or two.
pnpm install --frozen-lockfile >&2
