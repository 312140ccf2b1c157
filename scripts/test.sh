#!/usr/bin/env bash
# `npm test`: installs what the tests need, then runs typecheck, lint, unit + integration tests (vitest),
# the web build and the browser tests (Playwright in Debian's chromium). Every stage runs even when an
# earlier one fails, and the last line is the plain `N passed, N failed` summary that CI reads.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh --browser --services || { echo "quire: installing the test dependencies failed"; echo "0 passed, 1 failed"; exit 1; }

mkdir -p .tmp
rm -f .tmp/stages.txt .tmp/vitest.json .tmp/playwright.json

stage() {
  local name=$1
  shift
  echo
  echo "== $name: $*"
  if "$@"; then echo "$name ok" >>.tmp/stages.txt; else echo "$name FAILED" >>.tmp/stages.txt; fi
}

# A throwaway PostgreSQL and Redis for the suites that need them (unless QUIRE_TEST_DATABASE_URL /
# QUIRE_TEST_REDIS_URL name some), stopped however the run ends.
source scripts/test-services.sh
trap test_services_stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
test_services_start

stage typecheck pnpm --silent typecheck
stage lint pnpm --silent lint
stage unit+integration pnpm exec vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json
stage build pnpm --silent build
# Playwright resolves a relative report path against the config folder, so pass an absolute one.
PLAYWRIGHT_JSON_OUTPUT_NAME="$PWD/.tmp/playwright.json" stage browser pnpm exec playwright test -c tests/playwright.config.ts --reporter=list,json

node scripts/summarise-tests.mjs
