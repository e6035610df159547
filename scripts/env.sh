#!/usr/bin/env bash
# Sourced by start.sh / test.sh: run setup in this shell so DATABASE_URL and REDIS_URL carry over.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NEXT_TELEMETRY_DISABLED=1
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f node_modules/.tclab-lock ] || [ "$(cat node_modules/.tclab-lock)" != "$lock_hash" ]; then
  echo "[tclab] installing dependencies (npm ci)…" >&2
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.tclab-lock
fi
node cli/bundle.mjs # the CLI's bundle, built when a source is newer than it (cli/bundle.mjs)
. scripts/services.sh
tclab_services
