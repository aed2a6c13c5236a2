#!/usr/bin/env bash
# The PostgreSQL suite of test-fixtures a second time, through PgBouncer in transaction mode with
# prepared_statements=false, as a deployment behind a transaction pooler runs it. `pnpm test` runs it after the
# main pass (this package's `test` script); `pnpm --filter @colapi/test-fixtures test:pooled` runs it alone.
#
# It builds a topology of its own (tools/pg-topology/topology.sh: primary, standby, PgBouncer) on free ports in
# a directory of its own, so that it neither uses nor stops one that a developer or another suite is running,
# and stops it on every exit: success, failure, Ctrl+C or SIGTERM.
#
# Left out: the suites that build their topology themselves (test/topology), and those that run on a database
# server of their own, never behind the pooler (faults/restart, faults/down-at-start). The fuzzers run 300 cases
# per format instead of 1,000 and the concurrent writers 10 s instead of 30: the main pass runs them in full,
# and this pass only has to show what the pooler changes.
#
# Needs root (the clusters run as the postgres user) and Debian's pgbouncer. Without them it is skipped with
# a warning on a developer's machine, and fails under CI=true (or REQUIRE_DATABASES=1).
set -euo pipefail
cd "$(dirname "$0")/.."
TOPOLOGY=$(cd ../tools/pg-topology && pwd)/topology.sh

wanted=",$(echo "${DATABASES:-postgres}" | tr -d ' '),"
if [[ $wanted != *,postgres,* ]]; then exit 0; fi

unavailable() {
  # As for an unreachable database (the tests' harness): CI=true or REQUIRE_DATABASES=1 make it a failure.
  if [ "${CI:-}" = true ] || [ "${REQUIRE_DATABASES:-}" = 1 ]; then
    echo "PostgreSQL through PgBouncer: $1; this pass is required here" >&2
    exit 1
  fi
  echo "  ! PostgreSQL through PgBouncer: $1; skipping this pass" >&2
  exit 0
}
[ "$(id -u)" = 0 ] || unavailable "not root (the topology runs PostgreSQL as the postgres user)"
command -v pgbouncer >/dev/null 2>&1 || unavailable "pgbouncer is not installed (apt-get install pgbouncer; .ci/run does)"

# Three consecutive free ports, from a start that differs between processes.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
base=
for i in $(seq 0 49); do
  candidate=$((16000 + (($$ + i * 7) % 400) * 10))
  if ! listening "$candidate" && ! listening $((candidate + 1)) && ! listening $((candidate + 2)); then
    base=$candidate
    break
  fi
done
[ -n "$base" ] || unavailable "no free ports for the topology"
export PG_PRIMARY_PORT=$base PG_REPLICA_PORT=$((base + 1)) PG_BOUNCER_PORT=$((base + 2))
PG_TOPOLOGY_DIR=$(mktemp -d /tmp/colapi-pooled-pass.XXXXXX)
export PG_TOPOLOGY_DIR

child=
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  # mocha runs in a process group of its own: stop it and whatever it started.
  if [ -n "$child" ]; then
    kill -TERM -- "-$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
  fi
  if ! bash "$TOPOLOGY" down; then
    echo "PostgreSQL through PgBouncer: could not stop the topology in $PG_TOPOLOGY_DIR" >&2
    status=1
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

started=$SECONDS
if ! bash "$TOPOLOGY" up; then
  echo "PostgreSQL through PgBouncer: the topology did not start (logs in $PG_TOPOLOGY_DIR are removed on exit)" >&2
  exit 1
fi
eval "$(bash "$TOPOLOGY" env)"
export PG_URL="$PG_BOUNCER_URL?prepared_statements=false" DATABASES=postgres
export FUZZ_SERVER_CASES=${FUZZ_SERVER_CASES:-300} CONCURRENCY_SECONDS=${CONCURRENCY_SECONDS:-10}
echo "PostgreSQL through PgBouncer in transaction mode: $PG_URL"

setsid node_modules/.bin/mocha --exclude 'test/topology/**' --exclude test/faults/restart.test.ts --exclude test/faults/down-at-start.test.ts &
child=$!
wait "$child"
child=
echo "PostgreSQL through PgBouncer: $((SECONDS - started)) s"
