#!/usr/bin/env bash
# `npm start`: set up, load the reference study, build (when sources changed) and serve the app on
# http://127.0.0.1:${PORT:-3000} (HOST to expose it) with a worker beside it. Ctrl-C stops both.
. "$(dirname "$0")/env.sh"
npx tsx scripts/migrate.ts
npx tsx prisma/seed.ts

if [ ! -f .next/BUILD_ID ] || [ -n "$(find app components lib public next.config.ts proxy.ts instrumentation.ts package-lock.json -newer .next/BUILD_ID -type f -print -quit 2>/dev/null)" ]; then
  bash scripts/build-app.sh || exit 1 # streams the build, logs to .next-build.log in this checkout
fi

PORT=${PORT:-3000}
export HOST=${HOST:-127.0.0.1} # loopback unless set; lib/env.ts has the same default
set -m
env -u TCLAB_ADMIN_PASSWORD npx tsx workers/trials.ts & worker=$! # the worker needs no admin password (scripts/serve.sh)
PORT=$PORT bash scripts/serve.sh & web=$!
stop() { kill -TERM -- -"$worker" -"$web" 2>/dev/null || true; wait 2>/dev/null || true; }
trap stop INT TERM EXIT
echo "[tclab] Tool Contract Lab on http://$HOST:$PORT (worker pid $worker); on loopback with no account, open the link with ?token= the server prints (docs/access.md). Ctrl-C stops both." >&2
wait -n "$worker" "$web"
