#!/usr/bin/env bash
# End-to-end: the built app twice, each with a worker, a database and a queue prefix of its own, Playwright
# in Debian's Chromium; everything removed afterwards.
#   single-user  (E2E_PORT):   loopback and no account — the app as `npm start` serves it on a laptop; the
#                              link it prints (also in .tclab/single-user-link-PORT) goes to Playwright as
#                              E2E_SINGLE_USER_LINK (e2e/single-user.setup.ts opens it)
#   accounts     (E2E_PORT+1): four accounts (one per role) made with `tclab user add`; everyone signs in
set -euo pipefail
cd "$(dirname "$0")/.."
suffix="$$_$RANDOM"
base="${DATABASE_URL%/*}"
export TCLAB_LOG_LEVEL=warn
# the default listening address, as `npm start` on a fresh machine has it (e2e/security.spec.ts checks it)
unset HOST
single_db="$base/tclab_e2e_$suffix"
accounts_db="$base/tclab_e2e_acc_$suffix"
single_port=${E2E_PORT:-3100}
accounts_port=$((single_port + 1))
link_file=".tclab/single-user-link-$single_port"
pids=()

# start_app NAME DATABASE_URL PREFIX PORT: migrate, seed, start a worker and the web app
start_app() {
  local name=$1
  DATABASE_URL=$2 TCLAB_QUEUE_PREFIX=$3 PORT=$4 bash -c '
    npx tsx scripts/migrate.ts && npx tsx prisma/seed.ts' >"test-results/e2e-$name-setup.log" 2>&1 || { cat "test-results/e2e-$name-setup.log" >&2; exit 1; }
}
serve_app() {
  local name=$1
  DATABASE_URL=$2 TCLAB_QUEUE_PREFIX=$3 npx tsx workers/trials.ts >"test-results/e2e-$name-worker.log" 2>&1 &
  pids+=($!)
  DATABASE_URL=$2 TCLAB_QUEUE_PREFIX=$3 PORT=$4 bash scripts/serve.sh >"test-results/e2e-$name-web.log" 2>&1 &
  pids+=($!)
}

mkdir -p test-results
set -m
cleanup() {
  for p in "${pids[@]}"; do kill -TERM -- -"$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -f "$link_file"
  npx tsx scripts/drop-test-state.ts "$single_db" "tclab-e2e-$suffix" || true
  npx tsx scripts/drop-test-state.ts "$accounts_db" "tclab-e2e-acc-$suffix" || true
}
trap cleanup EXIT

start_app single "$single_db" "tclab-e2e-$suffix" "$single_port"
start_app accounts "$accounts_db" "tclab-e2e-acc-$suffix" "$accounts_port"
# the accounts (passwords as e2e/accounts/users.ts has them), through the CLI scripts use
for role in admin researcher reviewer viewer; do
  printf 'e2e-%s-password-2026' "$role" | DATABASE_URL="$accounts_db" node cli/tclab.mjs user add "$role@e2e.example" --role "$role" >/dev/null
done
rm -f "$link_file" # a previous start's link: the server writes this start's
# spend guards (e2e/spend-guard.spec.ts): a low confirmation threshold, and a paid provider whose requests go
# nowhere (port 9: refused). The reference study's 152 requests are on the simulated model: not counted.
# batch mode (e2e/spend-guard.spec.ts): the openai provider goes to a loopback server that spec starts on port + 2
TCLAB_CONFIRM_REQUESTS=50 OPENAI_COMPATIBLE_BASE_URL=http://127.0.0.1:9/v1 \
  OPENAI_API_KEY=sk-e2e-batch-0000 OPENAI_BASE_URL="http://127.0.0.1:$((single_port + 2))/v1" TCLAB_BATCH_POLL_MS=300 \
  serve_app single "$single_db" "tclab-e2e-$suffix" "$single_port"
# sign-in attempts per minute: the specs sign in several accounts from one address (the limit itself: lib/auth/auth.itest.ts)
# the one stdio MCP server a researcher may start (e2e/accounts/mcp-import.spec.ts; docs/mcp-import.md)
TCLAB_MCP_SERVERS="[{\"name\":\"everything\",\"command\":\"$(command -v node)\",\"args\":[\"$PWD/node_modules/@modelcontextprotocol/server-everything/dist/index.js\"]}]" \
  TCLAB_SIGNIN_MAX=100 serve_app accounts "$accounts_db" "tclab-e2e-acc-$suffix" "$accounts_port"

for port in "$single_port" "$accounts_port"; do
  for _ in $(seq 1 120); do curl -fsS "http://127.0.0.1:$port/api/health" >/dev/null 2>&1 && break; sleep 0.5; done
done
for _ in $(seq 1 20); do [ -s "$link_file" ] && break; sleep 0.5; done
[ -s "$link_file" ] || { echo "e2e: the single-user server wrote no link to $link_file" >&2; tail -20 test-results/e2e-single-web.log >&2; exit 1; }
DATABASE_URL="$single_db" E2E_SINGLE_USER_LINK="$(cat "$link_file")" E2E_BASE_URL="http://127.0.0.1:$single_port" E2E_ACCOUNTS_URL="http://127.0.0.1:$accounts_port" E2E_ACCOUNTS_DATABASE_URL="$accounts_db" npx playwright test "$@"
