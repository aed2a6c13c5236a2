#!/usr/bin/env bash
# `pnpm test:compat`: the pass .ci/run makes on the second supported Node.js (22), after the whole suite on
# 24. On whatever node is first on PATH it runs:
# - the demo's suite on every database (its first start on a new SQLite file included);
# - every other package's suite on SQLite (DATABASES=sqlite);
# - the conformance check (../shared/conformance/check-target.sh) on SQLite, PostgreSQL and MariaDB, both
#   formats on SQLite.
# better-sqlite3 13 is an N-API module, loaded by every Node.js from 22 on without a rebuild.
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "== compatibility pass on Node.js $(node --version)"
node --import tsx -e "
  import('./packages/node-support/src/index.ts').then(({ nodeVerdict }) => {
    const v = nodeVerdict(process.versions.node);
    if (v.kind !== 'supported') { console.error(v.message); process.exit(1); }
  });"
pnpm exec turbo run test --filter=@colapi/demo --concurrency=1
DATABASES=sqlite pnpm exec turbo run test '--filter=!@colapi/demo' --concurrency=1
check=../shared/conformance/check-target.sh
pg=${PG_URL:-postgres://root@127.0.0.1:5432/test}
my=${MYSQL_URL:-mysql://root@127.0.0.1:3306/test}
for args in "" "sqlite:${TMPDIR:-/tmp}/conformance-compat-b.sqlite legacy" "$pg" "$my"; do
  # shellcheck disable=SC2086 # the URL and the format, as two words
  bash "$check" $args
done
