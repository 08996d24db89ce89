"""The CPU an HTTP move costs in the server's own layers, in process: the middleware, FastAPI's routing and
parameters, the body's checks and the response, for `POST /api/tables/{id}/actions` (the JSON API) and
`POST /t/{id}/act` (the table page's form, as htmx posts it). The service's `act` is replaced by one that
returns at once, so that what is timed is what HTTP adds to a move (`tests/bench/engines.py` times the
move itself); uvicorn's parsing and the socket are not in it. Prints the lowest of five rounds of 2000
requests each, µs per request (CPU time of this process).

    .venv/bin/python tests/bench/http_layers.py
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

TABLE = "abcdefgh"
TOKEN = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
ROUNDS, REQUESTS = 5, 2000


def scope(path: str, body: bytes, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
            "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
            "headers": [(b"host", b"127.0.0.1:8000"), (b"content-length", str(len(body)).encode()), *headers],
            "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000), "state": {}}


async def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        os.environ.update(DATABASE_URL=f"sqlite:///{work}/bench.sqlite", TABULA_RATE_LIMITS="0",
                          TABULA_BENCHMARK="1")
        from app.config import Settings
        from app.main import create_app
        from app.routes.api import seat_cookie

        app = create_app(Settings.from_env())
        action = {"type": "play", "index": 1}
        api_body = json.dumps({"version": 3, "action": action}).encode()
        form_body = urlencode({"version": "3", "action": json.dumps(action), "confirmed": "yes"}).encode()
        cases = {
            "JSON API: POST /api/tables/T/actions": scope(
                f"/api/tables/{TABLE}/actions", api_body,
                [(b"content-type", b"application/json"), (b"authorization", f"Bearer {TOKEN}".encode())]),
            "table page: POST /t/T/act (htmx)": scope(
                f"/t/{TABLE}/act", form_body,
                [(b"content-type", b"application/x-www-form-urlencoded"), (b"origin", b"http://127.0.0.1:8000"),
                 (b"hx-request", b"true"), (b"cookie", f"{seat_cookie(TABLE)}={TOKEN}".encode())]),
        }
        async with app.router.lifespan_context(app):
            async def act(*_args: Any, **_kwargs: Any) -> int:
                return 4

            app.state.service.act = act
            for label, request in cases.items():
                body = api_body if "api" in request["path"] else form_body

                async def receive() -> dict[str, Any]:
                    return {"type": "http.request", "body": body, "more_body": False}

                statuses: list[int] = []

                async def send(message: dict[str, Any]) -> None:
                    if message["type"] == "http.response.start":
                        statuses.append(message["status"])

                best = float("inf")
                for _ in range(ROUNDS):
                    started = time.process_time()
                    for _ in range(REQUESTS):
                        await app(dict(request), receive, send)
                    best = min(best, (time.process_time() - started) / REQUESTS)
                assert set(statuses) == {200}, f"{label}: answered {sorted(set(statuses))}"
                print(f"{label:40} {1e6 * best:6.0f} µs per request")


if __name__ == "__main__":
    asyncio.run(main())
