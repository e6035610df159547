#!/usr/bin/env bash
# Make PostgreSQL and Redis reachable, in this order of preference:
#   1. what DATABASE_URL / REDIS_URL name, when it answers;
#   2. the locally installed servers, started if they are stopped;
#   3. as root on Debian, `apt-get install` them, then start them;
#   4. otherwise stop with a message that says what to install.
# Source this file: it exports DATABASE_URL and REDIS_URL for what runs next.

tclab_say() { printf '[tclab] %s\n' "$*" >&2; }
tclab_die() { printf '[tclab] error: %s\n' "$*" >&2; exit 1; }

# Probes run through node + the project's own clients, so no psql/redis-cli is required.
tclab_pg_ok() { node scripts/probe.mjs pg "$1" >/dev/null 2>&1; }
tclab_redis_ok() { node scripts/probe.mjs redis "$1" >/dev/null 2>&1; }

tclab_apt_install() {
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 1
  tclab_say "installing $* with apt-get (one time; several minutes on a slow mirror)…"
  if [ -z "${TCLAB_APT_UPDATED:-}" ]; then apt-get update -qq >/dev/null && export TCLAB_APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

tclab_start_postgres() {
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    tclab_apt_install postgresql || return 1
  fi
  local v
  for v in $(ls /etc/postgresql); do
    pg_ctlcluster --skip-systemctl-redirect "$v" main start >/dev/null 2>&1 || true
  done
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && return 0; sleep 0.5; done
  return 1
}

tclab_start_redis() {
  if ! command -v redis-server >/dev/null; then
    tclab_apt_install redis-server || return 1
  fi
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 1 30); do tclab_redis_ok "redis://127.0.0.1:6379" && return 0; sleep 0.3; done
  return 1
}

# A role with a password works both with trust auth and with Debian's default md5/scram over TCP.
tclab_ensure_pg_role() {
  [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1 || return 1
  runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 -c \
    "DO \$\$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname='tclab') THEN CREATE ROLE tclab LOGIN PASSWORD 'tclab' CREATEDB; END IF; END\$\$;" >/dev/null 2>&1
}

tclab_services() {
  local default_pg="postgresql://tclab:tclab@127.0.0.1:5432/tclab"
  if [ -n "${DATABASE_URL:-}" ] && tclab_pg_ok "$DATABASE_URL"; then
    :
  else
    if [ -n "${DATABASE_URL:-}" ]; then tclab_say "DATABASE_URL does not answer; trying a local PostgreSQL"; fi
    if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
      tclab_start_postgres || tclab_die "PostgreSQL is not running and could not be started. Install it (Debian: apt-get install postgresql) or set DATABASE_URL."
    fi
    tclab_pg_ok "$default_pg" || tclab_ensure_pg_role || true
    tclab_pg_ok "$default_pg" || tclab_die "PostgreSQL runs, but the role tclab/tclab cannot log in and could not be created (run as root, or set DATABASE_URL to a role with CREATEDB)."
    export DATABASE_URL="$default_pg"
  fi
  if [ -n "${REDIS_URL:-}" ] && tclab_redis_ok "$REDIS_URL"; then
    :
  else
    tclab_redis_ok "redis://127.0.0.1:6379" || tclab_start_redis || tclab_die "Redis is not running and could not be started. Install it (Debian: apt-get install redis-server) or set REDIS_URL."
    export REDIS_URL="redis://127.0.0.1:6379"
  fi
  tclab_say "PostgreSQL: $(printf '%s' "$DATABASE_URL" | sed -E 's#//([^:/@]+):[^@]*@#//\1:***@#')  Redis: $REDIS_URL"
}
