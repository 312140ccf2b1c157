#!/usr/bin/env bash
# Throwaway PostgreSQL 15 and Redis for the tests (issue 13). Two ways to use it:
#   source scripts/test-services.sh; test_services_start; trap test_services_stop EXIT   (scripts/test.sh)
#   bash scripts/test-services.sh <command...>   runs one command with both up, then stops them
# Each service starts on a free port in its own temp folder and is exported as QUIRE_TEST_DATABASE_URL /
# QUIRE_TEST_REDIS_URL. A variable that is already set is used as it is and nothing is started for it.
# A service that cannot start is said so here and named in QUIRE_TEST_POSTGRES_SKIP / QUIRE_TEST_REDIS_SKIP,
# which the suites print when they skip: never a silent skip.

PG_BIN=${QUIRE_PG_BIN:-/usr/lib/postgresql/15/bin}
TEST_SERVICES_DIR=""
TEST_SERVICES_PG_DATA=""
TEST_SERVICES_REDIS_PORT=""

test_services_free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

test_services_start() {
  if [ -n "${QUIRE_TEST_DATABASE_URL:-}" ] && [ -n "${QUIRE_TEST_REDIS_URL:-}" ]; then
    echo "quire: test services given (QUIRE_TEST_DATABASE_URL, QUIRE_TEST_REDIS_URL): starting none"
    return 0
  fi
  TEST_SERVICES_DIR=$(mktemp -d "${TMPDIR:-/tmp}/quire-test-services.XXXXXX")
  # The postgres user must reach its data folder; mktemp makes it 0700 for root.
  chmod 0755 "$TEST_SERVICES_DIR"
  if [ -z "${QUIRE_TEST_DATABASE_URL:-}" ]; then test_services_start_postgres; fi
  if [ -z "${QUIRE_TEST_REDIS_URL:-}" ]; then test_services_start_redis; fi
}

test_services_start_postgres() {
  local as=() port dir="$TEST_SERVICES_DIR/pg"
  if [ ! -x "$PG_BIN/initdb" ] || [ ! -x "$PG_BIN/pg_ctl" ]; then
    test_services_skip_postgres "no PostgreSQL 15 server in $PG_BIN (Debian: apt-get install postgresql-15)"
    return 0
  fi
  # initdb refuses to run as root: as root it runs as the postgres user; any other user runs it as itself.
  if [ "$(id -u)" = "0" ]; then
    if ! id postgres >/dev/null 2>&1 || ! command -v runuser >/dev/null 2>&1; then
      test_services_skip_postgres "running as root without a postgres user or runuser to run initdb as"
      return 0
    fi
    as=(runuser -u postgres --)
  fi
  mkdir -p "$dir"
  if [ "${#as[@]}" -gt 0 ]; then chown postgres: "$dir"; fi
  port=$(test_services_free_port)
  # From the cluster's folder: the postgres user may not enter the caller's (a 0700 temp clone, say).
  if ! (cd "$dir" && "${as[@]}" "$PG_BIN/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1); then
    test_services_skip_postgres "initdb failed (as $(id -un)${as:+ via runuser -u postgres}): $(tail -n 3 "$dir/initdb.log" | tr '\n' ' ')"
    return 0
  fi
  # fsync off: a throwaway cluster need not survive an OS crash; commits still complete before the client
  # hears back, which is what the tests rely on.
  if ! (cd "$dir" && "${as[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null); then
    test_services_skip_postgres "pg_ctl start failed on port $port: $(tail -n 3 "$dir/server.log" | tr '\n' ' ')"
    return 0
  fi
  TEST_SERVICES_PG_DATA="$dir/data"
  export QUIRE_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "quire: throwaway PostgreSQL 15 at $QUIRE_TEST_DATABASE_URL (data in $dir)"
}

test_services_skip_postgres() {
  export QUIRE_TEST_POSTGRES_SKIP="$1"
  echo "quire: NOT starting PostgreSQL for the tests, its suites will be skipped: $1" >&2
}

test_services_start_redis() {
  local port dir="$TEST_SERVICES_DIR/redis"
  if ! command -v redis-server >/dev/null 2>&1; then
    export QUIRE_TEST_REDIS_SKIP="redis-server is not installed (scripts/bootstrap.sh --services installs it)"
    echo "quire: NOT starting Redis for the tests: $QUIRE_TEST_REDIS_SKIP" >&2
    return 0
  fi
  mkdir -p "$dir"
  port=$(test_services_free_port)
  if ! redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" >/dev/null; then
    export QUIRE_TEST_REDIS_SKIP="redis-server failed to start on port $port (see $dir/redis.log)"
    echo "quire: NOT starting Redis for the tests: $QUIRE_TEST_REDIS_SKIP" >&2
    return 0
  fi
  TEST_SERVICES_REDIS_PORT=$port
  # --daemonize returns before the server listens; wait (bounded) until it answers.
  local tries=0
  until redis-cli -p "$port" ping >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then
      export QUIRE_TEST_REDIS_SKIP="redis-server on port $port did not answer PING (see $dir/redis.log)"
      echo "quire: NOT using Redis for the tests: $QUIRE_TEST_REDIS_SKIP" >&2
      return 0
    fi
    sleep 0.05
  done
  export QUIRE_TEST_REDIS_URL="redis://127.0.0.1:$port"
  echo "quire: throwaway Redis at $QUIRE_TEST_REDIS_URL"
}

# Safe to call more than once (the EXIT trap follows an INT/TERM one).
test_services_stop() {
  if [ -n "$TEST_SERVICES_PG_DATA" ]; then
    local as=()
    if [ "$(id -u)" = "0" ]; then as=(runuser -u postgres --); fi
    (cd "$TEST_SERVICES_DIR" && "${as[@]}" "$PG_BIN/pg_ctl" -D "$TEST_SERVICES_PG_DATA" -m immediate -w stop >/dev/null 2>&1) ||
      echo "quire: stopping the throwaway PostgreSQL failed (data in $TEST_SERVICES_PG_DATA)" >&2
    TEST_SERVICES_PG_DATA=""
  fi
  if [ -n "$TEST_SERVICES_REDIS_PORT" ]; then
    redis-cli -p "$TEST_SERVICES_REDIS_PORT" shutdown nosave >/dev/null 2>&1 ||
      kill "$(cat "$TEST_SERVICES_DIR/redis/redis.pid" 2>/dev/null)" 2>/dev/null
    TEST_SERVICES_REDIS_PORT=""
  fi
  if [ -n "$TEST_SERVICES_DIR" ]; then
    rm -rf "$TEST_SERVICES_DIR"
    TEST_SERVICES_DIR=""
  fi
}

# Run directly: start, run the command, stop whatever happens (a failure, Ctrl-C, a kill). The command runs
# in the background and is waited for, because bash runs a trap only once a foreground child has exited.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  if [ "$#" -eq 0 ]; then
    echo "usage: bash scripts/test-services.sh <command...>" >&2
    exit 2
  fi
  trap test_services_stop EXIT
  test_services_start
  "$@" &
  child=$!
  trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 130' INT
  trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 143' TERM
  wait "$child"
  exit $?
fi
