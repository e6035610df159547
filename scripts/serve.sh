#!/usr/bin/env bash
# The web app: `next start` on loopback unless HOST says otherwise (README: exposing the app). The one place
# that picks the listening address: npm start, npm run serve and the end-to-end tests all come here.
exec npx next start -H "${HOST:-127.0.0.1}" -p "${PORT:-3000}"
