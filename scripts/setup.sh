#!/usr/bin/env bash
# `npm run setup`: the idempotent set-up step — dependencies, services, migrations. Serves nothing.
. "$(dirname "$0")/env.sh"
npx tsx scripts/migrate.ts
