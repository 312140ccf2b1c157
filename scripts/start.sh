#!/usr/bin/env bash
# `npm start [-- --port N --db PATH --import <files or folders> --no-harvest]`: install, build, serve.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
pnpm --filter @quire/web build >&2
exec pnpm --silent quire serve "$@"
