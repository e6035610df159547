#!/usr/bin/env bash
# `npm test`: the same set-up as `npm start`, then the whole suite — unit, integration (own database and
# Redis key prefix, removed afterwards) and Playwright end-to-end in Debian's Chromium.
. "$(dirname "$0")/env.sh"
npx tsx scripts/migrate.ts

if [ ! -x /usr/bin/chromium ]; then
  tclab_apt_install chromium || tclab_die "Chromium is missing: apt-get install chromium"
fi

mkdir -p test-results
status=0
npx tsc --noEmit || { echo "[tclab] typecheck failed" >&2; status=1; }
npm run --silent lint || { echo "[tclab] lint failed (npm run lint: ESLint, the room rules, Prettier)" >&2; status=1; }
npx vitest run --reporter=default --reporter=json --outputFile=test-results/vitest.json || status=1

echo "[tclab] building the app for end-to-end tests…" >&2
if npx next build >test-results/next-build.log 2>&1; then
  bash scripts/e2e.sh || status=1
else
  tail -40 test-results/next-build.log >&2
  status=1
fi
node scripts/test-summary.mjs test-results/vitest.json test-results/playwright.json || status=1
exit $status
