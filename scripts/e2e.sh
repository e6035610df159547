#!/usr/bin/env bash
# End-to-end: a database and queue prefix of their own, the built app and a worker, Playwright in
# Debian's Chromium; everything removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
suffix="$$_$RANDOM"
base="${DATABASE_URL%/*}"
export DATABASE_URL="$base/tclab_e2e_$suffix"
export TCLAB_QUEUE_PREFIX="tclab-e2e-$suffix"
export PORT=${E2E_PORT:-3100}
export TCLAB_LOG_LEVEL=warn
npx tsx scripts/migrate.ts
npx tsx prisma/seed.ts
set -m
npx tsx workers/trials.ts >test-results/e2e-worker.log 2>&1 & worker=$!
npx next start -p "$PORT" >test-results/e2e-web.log 2>&1 & web=$!
cleanup() {
  kill -TERM -- -"$worker" -"$web" 2>/dev/null || true
  wait 2>/dev/null || true
  npx tsx scripts/drop-test-state.ts "$DATABASE_URL" "$TCLAB_QUEUE_PREFIX" || true
}
trap cleanup EXIT
for _ in $(seq 1 120); do curl -fsS "http://127.0.0.1:$PORT/api/health" >/dev/null 2>&1 && break; sleep 0.5; done
E2E_BASE_URL="http://127.0.0.1:$PORT" npx playwright test
