"""Watching a running server: Prometheus metrics and structured logs with a request and table id (the
routes `/metrics`, `/healthz` and `/readyz` are in app/routes/ops.py). Light to import: the bot workers
load it with the bots.

The metrics live in prometheus-client's process-wide registry, as that library means them to: the code
that does the work counts it (a commit, a bot decision, a websocket message, an error) with one call here.
`/metrics` serves them only when TABULA_METRICS=1 (a 404 otherwise: what a process counts is the
operator's business). Gauges of what the database holds (tables by status) and of this process's sockets
are read at each scrape.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
from datetime import datetime, timezone
from typing import Any

from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from starlette.types import ASGIApp, Receive, Scope, Send

from .models import STATUSES

# ------------------------------------------------------------------------------------------ metrics

TABLES = Gauge("tabula_tables", "Tables in the database, by status.", ["status"])
SOCKETS = Gauge("tabula_sockets", "Websockets open on this process (JSON and page sockets).")
ACTIONS = Counter("tabula_actions_committed", "Moves committed by this process, by game.", ["game"])
COMMIT_SECONDS = Histogram("tabula_commit_seconds", "Time from a move's write to its commit (group commit "
                           "included).", buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5))
BOT_SECONDS = Histogram("tabula_bot_decision_seconds", "Time a bot takes to decide, by level.", ["level"],
                        buckets=(.005, .01, .05, .1, .25, .5, 1, 2, 5, 10))
WS_MESSAGES = Counter("tabula_websocket_messages", "Websocket messages, by direction (in, out).", ["direction"])
WS_BYTES = Counter("tabula_websocket_bytes", "Websocket message bytes (UTF-8), by direction (in, out).",
                   ["direction"])
ERRORS = Counter("tabula_errors", "Errors answered or logged, by class (a refusal's class, or the "
                 "exception of a 500).", ["error"])
HELD = Gauge("tabula_held", "What this process keeps in memory per table (or per client), by cache: tables "
             "(replay_steps: replayed states; limit_keys and socket_clients: keys). Each is bounded by the "
             "live tables or by its own size; a finished, unwatched table is in none.", ["cache"])
ADMIN_ACTIONS = Counter("tabula_admin_actions", "Admin actions done on this process, by action.", ["action"])


def committed(game: str, seconds: float) -> None:
    ACTIONS.labels(game).inc()
    COMMIT_SECONDS.observe(seconds)


def bot_decided(level: str, seconds: float) -> None:
    BOT_SECONDS.labels(level).observe(seconds)


# The counters of each direction, looked up once: a socket message is the hot path (a label lookup and a
# UTF-8 copy of every message were 5 % of the benchmark server's CPU).
_SOCKET_COUNTERS = {direction: (WS_MESSAGES.labels(direction), WS_BYTES.labels(direction))
                    for direction in ("in", "out")}


def socket_message(direction: str, message: str) -> None:
    messages, size = _SOCKET_COUNTERS[direction]
    messages.inc()
    size.inc(len(message) if message.isascii() else len(message.encode("utf-8")))


def error(kind: type | str) -> None:
    ERRORS.labels(kind if isinstance(kind, str) else kind.__name__).inc()


def _sample(metric: Any, **labels: str) -> float:
    value = REGISTRY.get_sample_value(metric, labels or None)
    return value or 0.0


async def figures(app: Any) -> dict[str, Any]:
    """The server's figures, as `/metrics` and the admin page show them: read from the database (tables
    by status) and this process (sockets, and what it counted since it started)."""
    counts = await app.state.service.count_by_status()
    for status in STATUSES:
        TABLES.labels(status).set(counts.get(status, 0))
    SOCKETS.set(sum(sum(c.values()) for c in app.state.hub.local_counts.values()))
    held = held_by(app)
    for cache, count in held.items():
        HELD.labels(cache).set(count)
    errors = {s.labels["error"]: s.value for m in ERRORS.collect() for s in m.samples
              if s.name.endswith("_total")}
    return {
        "tables": {status: counts.get(status, 0) for status in STATUSES},
        "sockets": int(_sample("tabula_sockets")),
        "actions": int(sum(s.value for m in ACTIONS.collect() for s in m.samples if s.name.endswith("_total"))),
        "commits": int(_sample("tabula_commit_seconds_count")),
        "commit_seconds": _sample("tabula_commit_seconds_sum"),
        "messages_out": int(_sample("tabula_websocket_messages_total", direction="out")),
        "messages_in": int(_sample("tabula_websocket_messages_total", direction="in")),
        "errors": dict(sorted(errors.items())),
        "held": held,
    }


def held_by(app: Any) -> dict[str, int]:
    """Every cache of the process and how many tables (or keys) it holds: the parts that keep per-table
    state each say so (their `held()`)."""
    state = app.state
    parts = (state.service, state.hub, state.bots, state.replays, state.limits)
    return {name: count for part in parts for name, count in part.held().items()}


# ------------------------------------------------------------------------------------------ logging

REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("tabula_request_id", default=None)
TABLE_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("tabula_table_id", default=None)
_TABLE_IN_PATH = re.compile(r"^/(?:t|api/tables|ws/tables|admin/tables)/([A-Za-z0-9_-]{8,32})(?:/|$)")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class RequestIds:
    """Gives every request and websocket an id (the proxy's `X-Request-ID` when it sends a sane one) and
    notes the table its path names, for the log lines written while it is served; answers carry the id."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or ()).get(b"x-request-id", b"").decode("latin-1")
        request_id = given if _REQUEST_ID.match(given) else secrets.token_hex(8)
        table = _TABLE_IN_PATH.match(scope.get("path", ""))
        tokens = (REQUEST_ID.set(request_id), TABLE_ID.set(table.group(1) if table else None))

        async def send_with_id(message: Any) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id if scope["type"] == "http" else send)
        finally:
            TABLE_ID.reset(tokens[1])
            REQUEST_ID.reset(tokens[0])


class JsonLines(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the request and table ids when known, and
    the exception's traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, var in (("request_id", REQUEST_ID), ("table_id", TABLE_ID)):
            value = var.get()
            if value:
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def log_config(log_format: str, level: str) -> dict[str, Any] | None:
    """uvicorn's `log_config` for TABULA_LOG_FORMAT: None keeps uvicorn's own text lines; "json" writes
    every logger (uvicorn's, the access lines and the server's own) as JSON lines on stderr."""
    if log_format != "json":
        return None
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonLines}},
        "handlers": {"json": handler},
        "loggers": {name: {"handlers": ["json"], "level": level.upper(), "propagate": False}
                    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "tabula")},
    }


# ------------------------------------------------------------------------------------- memory probe

class MemoryProbe:
    """TABULA_TRACEMALLOC_FILE (a debugging aid for the soak, tests/bench/soak.py; off by default): at each
    SIGUSR2 the process appends to that file its resident memory before and after `malloc_trim(0)` (what the
    C allocator kept though Python freed it: allocator retention, not live objects), what its caches hold
    (`held_by`), a census of its live objects by type (count and shallow size) with the change since the
    previous signal, and, with TABULA_TRACEMALLOC_FRAMES=N (N > 0), the largest growths by traceback of
    what was allocated since the first signal (tracing starts there; it slows this server tens of times
    under load, so it is for short looks)."""

    TOP = 15

    def __init__(self, path: str, frames: int):
        self.path = path
        self.frames = frames
        self.previous: Any = None
        self.census: dict[str, tuple[int, int]] = {}
        self.app: Any = None

    @classmethod
    def from_env(cls) -> "MemoryProbe | None":
        import os

        path = os.environ.get("TABULA_TRACEMALLOC_FILE")
        return cls(path, int(os.environ.get("TABULA_TRACEMALLOC_FRAMES") or 0)) if path else None

    def start(self, app: Any) -> None:
        import signal

        self.app = app
        signal.signal(signal.SIGUSR2, lambda *_: self.dump())

    def dump(self) -> None:
        import ctypes
        import gc
        import sys
        import tracemalloc
        from collections import Counter

        gc.collect()
        rss = _rss_mb()
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        lines = [f"=== RSS {rss:.1f} MB, after malloc_trim(0) {_rss_mb():.1f} MB"
                 + (f", traced {tracemalloc.get_traced_memory()[0] / 1e6:.1f} MB" if tracemalloc.is_tracing() else "")]
        try:
            lines.append(f"held: {held_by(self.app)}")
        except Exception as e:  # noqa: BLE001 - before the app is up
            lines.append(f"held: ({type(e).__name__})")
        counts: Counter[str] = Counter()
        sizes: Counter[str] = Counter()
        for obj in gc.get_objects():
            name = type(obj).__qualname__
            counts[name] += 1
            sizes[name] += sys.getsizeof(obj)
        census = {name: (counts[name], sizes[name]) for name in counts}
        grown = sorted(census, key=lambda n: census[n][1] - self.census.get(n, (0, 0))[1], reverse=True)
        lines.append(f"objects tracked by the collector: {sum(counts.values())}, {sum(sizes.values()) / 1e6:.1f} MB"
                     " (shallow); the largest growths by type since the previous signal:")
        lines += [f"    {name}: {census[name][0]} ({census[name][0] - self.census.get(name, (0, 0))[0]:+d}),"
                  f" {census[name][1] / 1e6:.2f} MB ({(census[name][1] - self.census.get(name, (0, 0))[1]) / 1e6:+.2f})"
                  for name in grown[:self.TOP]]
        self.census = census
        if self.frames > 0:
            if not tracemalloc.is_tracing():
                tracemalloc.start(self.frames)
            snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
            stats = (snapshot.compare_to(self.previous, "traceback") if self.previous is not None
                     else snapshot.statistics("traceback"))
            for stat in stats[:self.TOP]:
                lines.append(f"--- {getattr(stat, 'size_diff', stat.size) / 1e6:+.2f} MB ({stat.size / 1e6:.2f} MB"
                             f" now, {stat.count} blocks)")
                frames = list(stat.traceback)  # the oldest first: the allocation last, after the project's callers
                ours = [f for f in frames[:-1] if "/site-packages/" not in f.filename and "/lib/python" not in f.filename]
                lines += [f"    {f.filename}:{f.lineno}" for f in [*ours[-6:], frames[-1]]]
            self.previous = snapshot
        with open(self.path, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        return next(int(line.split()[1]) / 1024 for line in f if line.startswith("VmRSS"))
