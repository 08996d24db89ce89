#!/usr/bin/env bash
# Tabula and boardgame.io side by side, in one run, on the same workload (../shared/bench/peer-boardgameio,
# README.md): for each T the peer (its own run.sh, in-memory storage) and Tabula (tests/bench/run_tabula.py,
# Postgres and SQLite, moves over the websocket) run one after the other, so both meet the same machine;
# then one table with every figure, the ratios Tabula / boardgame.io and the busy-cores columns.
#
#   bash tests/bench/side_by_side.sh            # T = 1 10 50 200, each three times (about 12 minutes)
#   QUICK=1 bash tests/bench/side_by_side.sh    # T = 50 only, once each
#
# Knobs: SWEEP="1 10 50 200" REPEAT_T="1 10 50 200" (the T run REPEATS times: the table takes their medians)
# REPEATS=3 STORAGES="postgres sqlite" HTTP_AT="50" (also run these T with moves sent over HTTP) ACKMSG_AT="50"
# (also these T on Postgres with an ack message per move, as the site's page acts today, instead of the ack
# inside the patch) PROCS_AT="1 50" (also these T on Postgres with two server processes on one database, each
# table's seats on different processes) PAGE_AT="10" (also these T with César & Cléopâtre played through the
# table pages: tests/bench/page_driver.py) PEER_FULL=1 (also the peer's FlatFile and official-Client rows)
# PEER_SRC (default ../shared/bench/peer-boardgameio) PEER_WORK (scratch copy of the peer: its
# node_modules and results live there, never in ../shared) OUTDIR (default tests/bench/results/STAMP)
# TABULA_BENCH_POSTGRES_URL (a Postgres server where throw-away databases are made; default: a cluster of
# its own, made here with initdb and Postgres's default settings, fsync and synchronous_commit on, so that
# other work on the machine's shared Postgres cannot stall its commits; PRIVATE_PG=0 uses 127.0.0.1:5432).
# Needs node (the peer and both drivers) and the project's .venv (tests/run.sh makes it).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"

QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then SWEEP=${SWEEP:-50}; REPEATS=${REPEATS:-1}; else SWEEP=${SWEEP:-"1 10 50 200"}; REPEATS=${REPEATS:-3}; fi
REPEAT_T=${REPEAT_T:-"1 10 50 200"}
STORAGES=${STORAGES:-"postgres sqlite"}
HTTP_AT=${HTTP_AT-50}
ACKMSG_AT=${ACKMSG_AT-50}
PROCS_AT=${PROCS_AT-"1 50"}
PAGE_AT=${PAGE_AT-10}
PEER_FULL=${PEER_FULL:-0}
PEER_SRC=${PEER_SRC:-$ROOT/../shared/bench/peer-boardgameio}
PEER_WORK=${PEER_WORK:-${TMPDIR:-/tmp}/tabula-peer-bench}
STAMP=$(date +%Y%m%d-%H%M%S)
OUT=${OUTDIR:-$ROOT/tests/bench/results/$STAMP}
PY=${PYTHON:-$ROOT/.venv/bin/python}
if [ ! -x "$PY" ]; then  # a fresh clone: the project's environment, as tests/run.sh makes it
  echo "== making .venv (python3 -m venv; pip install -e '.[test]')"
  python3 -m venv "$ROOT/.venv"
  "$ROOT/.venv/bin/python" -m pip install -q -e "$ROOT[test]"
  PY=$ROOT/.venv/bin/python
fi
command -v node >/dev/null || { echo "side_by_side: node is needed (Debian: apt-get install nodejs npm)" >&2; exit 2; }
[ -f "$PEER_SRC/run.sh" ] || { echo "side_by_side: no peer benchmark at $PEER_SRC" >&2; exit 2; }

# A Postgres cluster for the benchmark alone (stopped at exit), unless one is named.
PG_DIR=""
stop_pg() {
  if [ -n "$PG_DIR" ]; then
    run_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
  fi
}
run_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
trap stop_pg EXIT INT TERM
if [ -z "${TABULA_BENCH_POSTGRES_URL:-}" ] && [ "${PRIVATE_PG:-1}" != 0 ] && [[ " $STORAGES " == *" postgres "* ]]; then
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$PG_BIN" ]; then
    PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tabula-bench-pg.XXXXXX")
    [ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"
    PG_PORT=$("$PY" -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
    run_pg "$PG_BIN/initdb" -D "$PG_DIR/data" --auth=trust -U postgres >/dev/null
    run_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR" -w \
      -l "$PG_DIR/log" start >/dev/null
    export TABULA_BENCH_POSTGRES_URL="postgresql://postgres@127.0.0.1:$PG_PORT/postgres"
    echo "== Postgres for the benchmark: a new cluster ($("$PG_BIN/postgres" --version)), default settings, port $PG_PORT"
  else
    echo "== no Postgres binaries found: using ${TABULA_BENCH_POSTGRES_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"
  fi
fi

# The peer runs from a scratch copy: ../shared stays read-only. Its node_modules stay between runs.
mkdir -p "$PEER_WORK" "$OUT/peer" "$OUT/tabula"
find "$PEER_SRC" -maxdepth 1 -type f -exec cp -p {} "$PEER_WORK/" \;
echo "== side by side: SWEEP=\"$SWEEP\" (T=$REPEAT_T x$REPEATS), Tabula on: $STORAGES; results in $OUT"
echo "== $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"

peer_run() {  # peer_run T INDEX: the peer's own run.sh for one T, its result copied next to Tabula's
  local t=$1 i=$2 dir="results/side-$STAMP/T$t-r$i"
  (cd "$PEER_WORK" && QUICK=1 SWEEP="$t" REPEATS=1 OUTDIR="$dir" ./run.sh) >"$OUT/peer/T$t-r$i.log" 2>&1 \
    || { echo "   peer T=$t run $i failed:"; tail -5 "$OUT/peer/T$t-r$i.log"; return 0; }
  grep -E '^   mem-raw' "$OUT/peer/T$t-r$i.log" | sed 's/^   /   peer /' || true
  for f in "$PEER_WORK/$dir"/*.json; do cp "$f" "$OUT/peer/peer-$(basename "$f" .json | sed 's/-r1$//')-r$i.json"; done
}

# 1. What boardgame.io sends at connection time (its known leak), observed here.
(cd "$PEER_WORK" && { [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ] \
  || npm ci --no-audit --no-fund --loglevel=error; })
LEAKLOG="$OUT/peer/leak-server.log"
(cd "$PEER_WORK" && exec node server.js --port 0) >"$LEAKLOG" 2>&1 &
LEAKPID=$!
for _ in $(seq 1 100); do grep -q '^READY ' "$LEAKLOG" 2>/dev/null && break; sleep 0.1; done
if grep -q '^READY ' "$LEAKLOG"; then
  port=$(awk '/^READY/{print $2; exit}' "$LEAKLOG")
  (cd "$PEER_WORK" && node "$ROOT/tests/bench/peer_leak.js" --url "http://127.0.0.1:$port" --out "$OUT/peer-leak.json") \
    | sed 's/^/   peer sync reply: /' || echo "   peer leak check failed"
fi
kill "$LEAKPID" 2>/dev/null || true
wait "$LEAKPID" 2>/dev/null || true

# 2. The sweep, the two servers alternating at each T.
for t in $SWEEP; do
  n=1; [[ " $REPEAT_T " == *" $t "* ]] && n=$REPEATS
  for i in $(seq 1 "$n"); do
    peer_run "$t" "$i"
    # shellcheck disable=SC2086
    "$PY" tests/bench/run_tabula.py --storage $STORAGES --sweep "$t" --repeats 1 --run-index "$i" --http-at \
      --outdir "$OUT/tabula" || true
  done
done
for t in $HTTP_AT; do
  # shellcheck disable=SC2086
  "$PY" tests/bench/run_tabula.py --storage $STORAGES --sweep "$t" --repeats 1 --client http --http-at \
    --outdir "$OUT/tabula" || true
done
if [ -n "$ACKMSG_AT" ]; then
  # shellcheck disable=SC2086
  "$PY" tests/bench/run_tabula.py --storage postgres --sweep --http-at --ack-message-at $ACKMSG_AT \
    --outdir "$OUT/tabula" || true
fi
if [ -n "$PROCS_AT" ] && [[ " $STORAGES " == *" postgres "* ]]; then
  # shellcheck disable=SC2086
  "$PY" tests/bench/run_tabula.py --storage postgres --sweep --http-at --processes-at $PROCS_AT \
    --outdir "$OUT/tabula" || true
fi
if [ -n "$PAGE_AT" ]; then
  # shellcheck disable=SC2086
  "$PY" tests/bench/run_tabula.py --storage $STORAGES --sweep --http-at --page-at $PAGE_AT \
    --outdir "$OUT/tabula" || true
fi
if [ "$PEER_FULL" = 1 ]; then
  dir="results/side-$STAMP/full"
  (cd "$PEER_WORK" && SWEEP="$SWEEP" REPEATS=1 OUTDIR="$dir" ./run.sh) >"$OUT/peer/full.log" 2>&1 || true
  for f in "$PEER_WORK/$dir"/flat-*.json "$PEER_WORK/$dir"/mem-bgio-*.json; do
    [ -f "$f" ] && cp "$f" "$OUT/peer/peer-$(basename "$f")"
  done
fi

# 3. One table.
echo
echo "== results ($OUT; medians where runs > 1; latency = move sent -> opponent holds the new state)"
"$PY" tests/bench/compare.py "$OUT" | tee "$OUT/table.txt"
"$PY" tests/bench/compare.py "$OUT" --markdown >"$OUT/table.md"
echo
echo "== load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); markdown table: $OUT/table.md"
