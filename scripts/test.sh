#!/usr/bin/env bash
# npm test: the type-check (beside the rest), the unit tests
# (*.unit.test.ts: no database, no server), then against a throwaway PostgreSQL cluster (pgvector + pg_trgm,
# installed by scripts/ensure-postgres.sh when missing): the schema dump check
# and every other test file, including the embedded-default smoke test.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase prints the seconds since the start, so a slow phase shows.
phase() { echo "== $1 (at ${SECONDS}s)"; }
# Node's compile cache for every process of the run (tests, the CLI and the
# servers they start): each loads several hundred modules, about half as fast uncached.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$PWD/node_modules/.cache/node-compile}"
phase "type-check (in the background; its result is printed at the end)"
# Incremental: a second run on the same checkout re-checks only what changed.
# Single-threaded: it overlaps the steps below, which do not depend on it and
# keep both cores busy (the run fails at the end if it failed, after the
# tests' own results).
tsc_log=$(mktemp)
npx tsc --noEmit -p tsconfig.json --singleThreaded --incremental --tsBuildInfoFile node_modules/.cache/tsc/tsbuildinfo >"$tsc_log" 2>&1 &
tsc_pid=$!
trap 'kill "$tsc_pid" 2>/dev/null || true; rm -f "$tsc_log"' EXIT
phase "tap build"
# tap rebuilds itself for the plugin list in .taprc (no @tapjs/typescript:
# Node runs the .ts files) only once its first run has already started the
# test processes with the old list; on a fresh install that first run would
# load @tapjs/typescript, which loads some packages' ES module builds as
# CommonJS (pptxgenjs). Building first costs a few seconds.
npx tap build
phase "unit tests (no database)"
npm run --silent test:unit
phase "workflow engine under Deno"
NO_COLOR=1 npx deno test --no-check --no-prompt test/workflows/engine/*.deno.ts
phase "widget and console build"
# Side by side: each is mostly one core's brotli compression of its files.
node scripts/build-widget.ts --quiet &
widget_build=$!
node scripts/build-console.ts --quiet
wait "$widget_build"
phase "browser for the widget tests"
bash scripts/ensure-chromium.sh
phase "tests"
# A second connection taken inside a transaction fails the test that does it
# (core/db/connection-guard.ts): on the embedded database it would hang.
# PLATFORM_CONNECTION_GUARD=trace npm test also prints where each one was taken.
export PLATFORM_CONNECTION_GUARD="${PLATFORM_CONNECTION_GUARD:-throw}"
# tap's process tracker records every module a test process loads (its lines,
# its source map), for coverage, which is off here: it is told to skip them all.
export _TAPJS_PROCESSINFO_EXCLUDE_='/./'
# No autovacuum in the throwaway cluster: its workers would visit each of the
# hundreds of short-lived test databases (no test depends on its statistics;
# the benchmarks, which run on the same script, keep it).
export TEST_DB_OPTIONS="-c autovacuum=off ${TEST_DB_OPTIONS:-}"
# Tests reach the cluster through its Unix socket (scripts/with-test-db.sh).
export TEST_DB_SOCKET=1
# Files named on the command line run as named, each in its own process;
# otherwise scripts/test-plan.ts shares processes between test files (tap's
# options, such as --jobs=3, pass through either way).
files_named=false
for arg in "$@"; do case "$arg" in -*) ;; *) files_named=true ;; esac; done
if [ "$files_named" = false ]; then
  mapfile -t planned < <(node scripts/test-plan.ts)
  set -- "$@" "${planned[@]}"
fi
tests=0
# The test databases' template is built beside the schema check, before the
# tests: otherwise the first test processes would each build one at once.
bash scripts/with-test-db.sh bash -c 'node scripts/build-test-template.ts & template=$!
  node scripts/dump-schema.ts --check && wait "$template" && npx tap "$@"' -- "$@" || tests=$?
phase "type-check result"
typecheck=0
wait "$tsc_pid" || typecheck=$?
cat "$tsc_log"
if [ "$typecheck" != 0 ]; then echo "npm test: the type-check failed" >&2; fi
phase "done"
[ "$tests" = 0 ] && [ "$typecheck" = 0 ]
