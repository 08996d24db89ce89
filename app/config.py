"""The one settings object, read from the environment.

| variable | meaning | default |
| --- | --- | --- |
| `DATABASE_URL` | `postgresql://user:pass@host:port/db` or `sqlite:///path.db` | `sqlite:///tabula.db` in the working directory |
| `TABULA_BENCHMARK` | `1` also serves the test-only benchmark game | off |
| `TABULA_PUBLIC_URL` | the site's address as players see it, for the links the API returns | taken from each request |
| `TABULA_SECURE_COOKIES` | `1` marks the seat cookie `Secure` (set it behind HTTPS) | off |
| `TABULA_HEARTBEAT` | seconds between websocket heartbeats | 20 |
| `TABULA_MIGRATE` | `0` skips the migrations at server start | on |
| `TABULA_BOT_DELAY` | seconds a bot waits before acting, `MIN-MAX` (drawn each time) or one number | `0.6-1.2` |
| `TABULA_BOT_SECONDS` | the Strong bot's thinking cap per decision, in seconds (`none`: no cap) | 0.8 |
| `TABULA_BOT_ITERATIONS` | the Strong bot's simulations per decision | the game's own number |
| `TABULA_BOT_WORKERS` | processes that run bot decisions; `0` runs them in a thread of the server | 1 |
| `TABULA_TAKEOVER_LEVEL` | the bot (`novice`, `strong`) playing a seat whose time ran out or player left | `strong` |
| `TABULA_ABSENT_SECONDS` | seconds a player must be disconnected on their turn before the others may hand the seat to a bot | 60 |
| `TABULA_TIMER_INTERVAL` | seconds between two looks for expired turn deadlines | 1 |
| `TABULA_BOT_SWEEP` | seconds between two looks for bot turns left by a process that stopped | 5 |
| `TABULA_ADMIN_TOKEN` | the club's admin token for the `/admin` page (the page is off without it) | unset |
| `TABULA_LOBBY_EXPIRY_HOURS` | a table still waiting for players after this many hours is deleted | 24 |
| `TABULA_ABANDON_DAYS` | a game where nobody acted for this many days ends as abandoned | 30 |
| `TABULA_CLEANUP_INTERVAL` | seconds between two clean-ups of stale tables (`tabula cleanup` does one now) | 3600 |
| `TABULA_MAX_BODY` | bytes a request body may have (413 past it, before anything is parsed) | 65536 |
| `TABULA_RATE_LIMITS` | `0` turns the per-client limits below off (test servers, load tests) | on |
| `TABULA_LIMIT_TABLES` | tables one client may create, as `N/second`, `N/minute`, `N/hour`, `N/day` | `20/hour` |
| `TABULA_LIMIT_ACTIONS` | actions one seat may submit | `10/second` |
| `TABULA_LIMIT_LOGINS` | admin login attempts from one client | `5/minute` |
| `TABULA_MAX_SOCKETS` | websocket connections one client may hold open at once | 32 |
| `TABULA_TRUSTED_PROXIES` | addresses whose `X-Forwarded-For` / `X-Forwarded-Proto` `tabula serve` believes (`*`: any, when only the proxy can reach the app, as in docker-compose.yml) | `127.0.0.1` |
| `TABULA_METRICS` | `1` serves Prometheus metrics at `/metrics` (app/observability.py) | off |
| `TABULA_LOG_FORMAT` | `json` writes the logs as one JSON object per line, with request and table ids | text |

A client is its address as the server sees it: `tabula serve` takes `X-Forwarded-For` from the reverse proxies
of TABULA_TRUSTED_PROXIES (one on the same machine by default); any other proxy makes every player share its
limits. Each server process counts its own clients.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

PACKAGE_DIR = Path(__file__).resolve().parent


def project_root() -> Path:
    """Where templates/, static/ and migrations/ live: TABULA_ROOT, else the source tree, else the cwd."""
    candidates = [os.environ.get("TABULA_ROOT"), PACKAGE_DIR.parent, Path.cwd()]
    for candidate in candidates:
        if candidate and (Path(candidate) / "migrations" / "env.py").is_file():
            return Path(candidate)
    return PACKAGE_DIR.parent


def _flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class Settings:
    database_url: str = field(default_factory=lambda: "sqlite:///" + str(Path.cwd() / "tabula.db"))
    benchmark: bool = False
    public_url: str | None = None
    secure_cookies: bool = False
    heartbeat: float = 20.0
    migrate: bool = True
    bot_delay: tuple[float, float] = (0.6, 1.2)
    bot_seconds: float | None = 0.8
    bot_iterations: int | None = None
    bot_workers: int = 1
    takeover_level: str = "strong"
    absent_seconds: float = 60.0
    timer_interval: float = 1.0
    bot_sweep: float = 5.0
    admin_token: str | None = field(default=None, repr=False)
    lobby_expiry_hours: float = 24.0
    abandon_days: float = 30.0
    cleanup_interval: float = 3600.0
    max_body: int = 65_536
    rate_limits: bool = True
    limit_tables: str = "20/hour"
    limit_actions: str = "10/second"
    limit_logins: str = "5/minute"
    limit_chat: str = "5/10 seconds"  # chat messages per sender (a rule of the chat: on even without rate_limits)
    max_sockets: int = 32
    trusted_proxies: str = "127.0.0.1"
    metrics: bool = False
    log_format: str = "text"

    @classmethod
    def from_env(cls) -> "Settings":
        return cls(
            database_url=os.environ.get("DATABASE_URL") or "sqlite:///" + str(Path.cwd() / "tabula.db"),
            benchmark=_flag("TABULA_BENCHMARK"),
            public_url=(os.environ.get("TABULA_PUBLIC_URL") or "").rstrip("/") or None,
            secure_cookies=_flag("TABULA_SECURE_COOKIES"),
            heartbeat=float(os.environ.get("TABULA_HEARTBEAT") or 20.0),
            migrate=_flag("TABULA_MIGRATE", True),
            bot_delay=_delay(os.environ.get("TABULA_BOT_DELAY") or "0.6-1.2"),
            bot_seconds=_optional(os.environ.get("TABULA_BOT_SECONDS"), float, 0.8),
            bot_iterations=_optional(os.environ.get("TABULA_BOT_ITERATIONS"), int, None),
            bot_workers=int(os.environ.get("TABULA_BOT_WORKERS") or 1),
            takeover_level=(os.environ.get("TABULA_TAKEOVER_LEVEL") or "strong").strip().lower(),
            absent_seconds=float(os.environ.get("TABULA_ABSENT_SECONDS") or 60.0),
            timer_interval=float(os.environ.get("TABULA_TIMER_INTERVAL") or 1.0),
            bot_sweep=float(os.environ.get("TABULA_BOT_SWEEP") or 5.0),
            admin_token=(os.environ.get("TABULA_ADMIN_TOKEN") or "").strip() or None,
            lobby_expiry_hours=float(os.environ.get("TABULA_LOBBY_EXPIRY_HOURS") or 24.0),
            abandon_days=float(os.environ.get("TABULA_ABANDON_DAYS") or 30.0),
            cleanup_interval=float(os.environ.get("TABULA_CLEANUP_INTERVAL") or 3600.0),
            max_body=int(os.environ.get("TABULA_MAX_BODY") or 65_536),
            rate_limits=_flag("TABULA_RATE_LIMITS", True),
            limit_tables=os.environ.get("TABULA_LIMIT_TABLES") or "20/hour",
            limit_actions=os.environ.get("TABULA_LIMIT_ACTIONS") or "10/second",
            limit_logins=os.environ.get("TABULA_LIMIT_LOGINS") or "5/minute",
            limit_chat=os.environ.get("TABULA_LIMIT_CHAT") or "5/10 seconds",
            max_sockets=int(os.environ.get("TABULA_MAX_SOCKETS") or 32),
            trusted_proxies=(os.environ.get("TABULA_TRUSTED_PROXIES") or "127.0.0.1").strip(),
            metrics=_flag("TABULA_METRICS"),
            log_format=(os.environ.get("TABULA_LOG_FORMAT") or "text").strip().lower(),
        )

    @property
    def is_postgres(self) -> bool:
        return make_url(self.database_url).get_backend_name() == "postgresql"

    @property
    def async_url(self) -> str:
        """The URL with the asyncio driver the server uses (asyncpg or aiosqlite)."""
        return _with_driver(self.database_url, "asyncpg" if self.is_postgres else "aiosqlite")

    @property
    def sync_url(self) -> str:
        """The URL with a blocking driver, for Alembic and admin commands (psycopg or sqlite3)."""
        return _with_driver(self.database_url, "psycopg" if self.is_postgres else "pysqlite")


def _optional(text: str | None, kind: type, default: Any) -> Any:
    if text is None or not text.strip():
        return default
    return None if text.strip().lower() in {"none", "off"} else kind(text)


def _delay(text: str) -> tuple[float, float]:
    """"0.6-1.2" -> (0.6, 1.2); "0" -> (0.0, 0.0)."""
    low, _, high = text.partition("-")
    low_s, high_s = float(low), float(high or low)
    if not 0 <= low_s <= high_s:
        raise ValueError(f"TABULA_BOT_DELAY must be MIN-MAX seconds with 0 <= MIN <= MAX, not {text!r}")
    return low_s, high_s


def _with_driver(url: str, driver: str) -> str:
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend not in {"postgresql", "sqlite"}:
        raise ValueError(f"DATABASE_URL must be a postgresql:// or sqlite:// URL, not {backend}://")
    return parsed.set(drivername=f"{backend}+{driver}").render_as_string(hide_password=False)
