#!/usr/bin/env bash
# The web app: `next start` on loopback unless HOST says otherwise (docs/access.md › Exposing the app). The one place
# that picks the listening address: npm start, npm run serve and the end-to-end tests all come here.
# Idle connections are kept 65 s (Node's default is 5 s): a client that reuses a pooled connection the server
# is just closing gets ECONNRESET (seen once in the Playwright suite under load), and proxies in front expect
# the server to outlast their own idle timeout (commonly 60 s).
# The first admin's password (TCLAB_ADMIN_PASSWORD) is used by a short-lived process and not passed on: the server
# never carries it in its environment (a process's start-up environment stays readable in /proc/<pid>/environ).
if [ -n "${TCLAB_ADMIN_PASSWORD:-}" ] && [ -n "${TCLAB_ADMIN_EMAIL:-}" ] && npx tsx "$(dirname "$0")/first-admin.ts"; then unset TCLAB_ADMIN_PASSWORD; fi
# the app reads PORT too: the single-user link it prints names the port (lib/auth/local-link.ts)
export PORT="${PORT:-3000}"
exec npx next start -H "${HOST:-127.0.0.1}" -p "$PORT" --keepAliveTimeout 65000
