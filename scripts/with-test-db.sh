#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster (pgvector + pg_trgm),
# started here and removed afterwards. The command sees TEST_DATABASE_URL (the
# cluster's maintenance database; tests create a database per test file) and
# DATABASE_URL (a database of its own, for scripts that need just one).
# With TEST_DATABASE_URL already set, the command runs against that instead.
# TEST_DB_OPTIONS adds server options (benchmarks: "-c shared_preload_libraries=pg_stat_statements").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ -n "${TEST_DATABASE_URL:-}" ]; then exec "$@"; fi

PG_BIN=$(bash "$here/ensure-postgres.sh")
run_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# The cluster lives in memory (/dev/shm) where there is room: with fsync off
# anyway, a disk only adds write-back stalls that make test timings and
# benchmark figures noisy. Elsewhere it goes to /tmp.
base=/tmp
if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR==2 {print $4}')" -gt 4194304 ]; then base=/dev/shm; fi
dir=$(mktemp -d "$base/platform-pg.XXXXXX")
chmod 755 "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')

cleanup() {
  # TEST_PG_CPU_LOG=<file>: the cluster's CPU seconds (the postmaster's and its ended backends') appended to <file>.
  if [ -n "${TEST_PG_CPU_LOG:-}" ] && [ -f "$dir/data/postmaster.pid" ]; then
    awk '{ sub(/.*\) /, ""); print ($12 + $13 + $14 + $15) / 100 }' "/proc/$(head -1 "$dir/data/postmaster.pid")/stat" >>"$TEST_PG_CPU_LOG" || true
  fi
  run_pg "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

run_pg "$PG_BIN/initdb" -D "$dir/data" -U postgres -A trust --no-sync -E UTF8 >/dev/null
# client_connection_check_interval: a statement whose client is gone (a
# process a test killed on purpose) stops within half a second instead of
# running to its end on the cores the other tests share.
run_pg "$PG_BIN/pg_ctl" -D "$dir/data" -w -l "$dir/server.log" \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400 -c client_connection_check_interval=500ms ${TEST_DB_OPTIONS:-}" \
  start >/dev/null

export PG_BIN
# TEST_DB_SOCKET=1 (npm test): tests reach the cluster through its Unix socket,
# whose writes cost both sides less CPU than loopback TCP's.
# TEST_DATABASE_TCP_URL is always the TCP form (tests that stand a database in for a remote one).
export TEST_DATABASE_TCP_URL="postgres://postgres@127.0.0.1:$port/postgres"
if [ "${TEST_DB_SOCKET:-}" = 1 ]; then
  export TEST_DATABASE_URL="postgres:///postgres?host=$dir&port=$port&user=postgres"
else
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
fi
"$PG_BIN/psql" -q "$TEST_DATABASE_URL" -c "CREATE DATABASE platform" >/dev/null
export DATABASE_URL="postgres://postgres@127.0.0.1:$port/platform"
# The same database through the cluster's Unix socket (benchmarks compare the two transports).
export DATABASE_SOCKET_URL="postgres://postgres@/platform?host=$dir&port=$port"
"$@"
