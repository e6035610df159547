#!/usr/bin/env bash
# The production build as `npm start` runs it: its output streams to the terminal as it comes, each line
# prefixed "[build] ", and is written whole to .next-build.log inside this checkout (gitignored), so two
# checkouts never share one log. On failure: exit 1 and the log's path. The command defaults to `npx next
# build`; tests give a short one after `--`.
log=.next-build.log
if [ "${1:-}" = "--" ]; then shift; else set -- npx next build; fi
echo "[tclab] building the app (next build: 2–4 minutes on 2 cores; again only when a source changes); its log: $log" >&2
set -o pipefail
if ! "$@" 2>&1 | tee "$log" | sed -u 's/^/[build] /' >&2; then
  echo "[tclab] the build failed; its whole log: $(pwd)/$log" >&2
  exit 1
fi
echo "[tclab] built" >&2
