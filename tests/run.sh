#!/usr/bin/env bash
# Installs what the test suite needs on a fresh Debian machine with only Python 3, then runs it all:
#   bash tests/run.sh [pytest arguments]
# - a virtual environment in .venv with the project and its test extras;
# - Chromium from Debian for the browser tests (never a downloaded browser);
# - PostgreSQL: the server named by TABULA_TEST_POSTGRES_URL, else one answering on 127.0.0.1:5432,
#   else a throw-away cluster started here (installed from Debian if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
  echo "tests/run.sh: need root (or sudo) to run: $*" >&2; exit 1; fi; }
apt_updated=0
apt_install() {
  [ "$apt_updated" = 1 ] || { as_root apt-get update -qq; apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# 1. Python environment.
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip uv >/dev/null
VIRTUAL_ENV=.venv .venv/bin/uv pip install -q -e '.[test]'

# 2. Chromium for the browser tests.
if [ ! -x /usr/bin/chromium ]; then
  echo "tests/run.sh: installing Chromium from Debian" >&2
  apt_install chromium
fi

# Node.js for the benchmark driver's smoke test (tests/app/test_bench_smoke.py).
if ! command -v node >/dev/null; then
  echo "tests/run.sh: installing Node.js from Debian" >&2
  apt_install nodejs
fi

# Caddy, the compose file's reverse proxy: the deploy test validates the Caddyfile with it and runs its routes.
if ! command -v caddy >/dev/null; then
  echo "tests/run.sh: installing Caddy from Debian" >&2
  apt_install caddy
fi

# pg_dump and psql for the backup-and-restore test.
if ! command -v pg_dump >/dev/null && ! ls /usr/lib/postgresql/*/bin/pg_dump >/dev/null 2>&1; then
  echo "tests/run.sh: installing the PostgreSQL client from Debian" >&2
  apt_install postgresql-client
fi

# 3. PostgreSQL: the tests fail (never skip) without one, so make sure one answers.
pg_answers() {
  .venv/bin/python - "$1" <<'PY' >/dev/null 2>&1
import sys, psycopg
psycopg.connect(sys.argv[1], connect_timeout=3).close()
PY
}
if [ -z "${TABULA_TEST_POSTGRES_URL:-}" ]; then
  if pg_answers "postgresql://postgres@127.0.0.1:5432/postgres"; then
    export TABULA_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:5432/postgres"
  else
    echo "tests/run.sh: no PostgreSQL on 127.0.0.1:5432, starting a throw-away cluster on 5433" >&2
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$bindir" ]; then apt_install postgresql; bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1); fi
    pgdir=$(mktemp -d /tmp/tabula-pg.XXXXXX)
    chown postgres "$pgdir" 2>/dev/null || true
    run_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
    run_pg "$bindir/initdb" -D "$pgdir/data" --auth=trust -U postgres >/dev/null
    run_pg "$bindir/pg_ctl" -D "$pgdir/data" -o "-c listen_addresses=127.0.0.1 -p 5433 -k $pgdir" -w -l "$pgdir/log" start >/dev/null
    trap 'run_pg "$bindir/pg_ctl" -D "$pgdir/data" -m fast stop >/dev/null 2>&1 || true' EXIT
    export TABULA_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:5433/postgres"
  fi
fi
pg_answers "$TABULA_TEST_POSTGRES_URL" || { echo "tests/run.sh: PostgreSQL at $TABULA_TEST_POSTGRES_URL does not answer" >&2; exit 1; }

# 4. The whole suite, on every core (pytest-xdist; TABULA_TEST_WORKERS=0 runs it in this one process).
exec .venv/bin/python -m pytest -n "${TABULA_TEST_WORKERS:-auto}" --dist worksteal "$@"
