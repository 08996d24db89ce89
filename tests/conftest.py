"""Shared fixtures: real databases.

Tests that need a database run against SQLite *and* a real PostgreSQL server. The server comes from
TABULA_TEST_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/test, trust auth); each test
session creates its own throw-away databases on it and drops them afterwards, so runs never collide.
A missing Postgres is a test failure, never a skip.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

POSTGRES_URL = os.environ.get("TABULA_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ["sqlite", "postgres"]


class PostgresServer:
    """Creates and drops throw-away databases on the test Postgres server."""

    def __init__(self, url: str):
        self.url = make_url(url)
        self.admin = create_engine(self.url.set(drivername="postgresql+psycopg", database="postgres"),
                                   isolation_level="AUTOCOMMIT", pool_size=1)
        self.created: list[str] = []

    def check(self) -> None:
        try:
            with self.admin.connect() as conn:
                conn.execute(text("SELECT 1"))
        except Exception as e:  # a missing Postgres is a failure, never a skip
            pytest.fail(f"PostgreSQL is not reachable at {self.url.render_as_string()} "
                        f"(set TABULA_TEST_POSTGRES_URL): {e}", pytrace=False)

    def create_database(self, label: str = "t") -> str:
        name = f"tabula_test_{label}_{os.getpid()}_{secrets.token_hex(4)}"
        with self.admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        self.created.append(name)
        return self.url.set(drivername="postgresql", database=name).render_as_string(hide_password=False)

    def drop_all(self) -> None:
        with self.admin.connect() as conn:
            for name in self.created:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        self.created.clear()
        self.admin.dispose()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long property tests first: the workers start on them and share the short tests after, instead of
    one worker finishing the last long one alone."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = PostgresServer(POSTGRES_URL)
    server.check()
    yield server
    server.drop_all()


def fresh_database_url(backend: str, postgres_server: PostgresServer, directory: Path, label: str) -> str:
    if backend == "postgres":
        return postgres_server.create_database(label)
    return f"sqlite:///{directory / (label + '-' + secrets.token_hex(3) + '.db')}"


@pytest.fixture(params=BACKENDS)
def fresh_db_url(request, postgres_server, tmp_path) -> str:
    """An empty database of each kind, new for this test."""
    return fresh_database_url(request.param, postgres_server, tmp_path, "fresh")
