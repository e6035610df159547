#!/usr/bin/env bash
# Sourced by start.sh / test.sh: run setup in this shell so DATABASE_URL and REDIS_URL carry over.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NEXT_TELEMETRY_DISABLED=1
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f node_modules/.tclab-lock ] || [ "$(cat node_modules/.tclab-lock)" != "$lock_hash" ]; then
  if [ ! -d node_modules ]; then
    # the first time on a machine: say what is coming (measured on a 2-core machine: docs/development.md)
    echo "[tclab] first start on this checkout: dependencies (about a minute), then PostgreSQL, Redis and, for the tests, Chromium when missing (apt-get, several minutes), then the app's build (a few minutes); later starts take seconds" >&2
  fi
  echo "[tclab] installing dependencies (npm ci, about a minute)…" >&2
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.tclab-lock
fi
node cli/bundle.mjs # the CLI's bundle, built when a source is newer than it (cli/bundle.mjs)
. scripts/services.sh
tclab_services
