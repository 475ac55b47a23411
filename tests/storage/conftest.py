"""Fixtures for the storage tests: the contract suite runs each test on both backends.

A test that asks for `target` (or `storage`, built on it) runs twice: on a real SQLite
file in a temporary folder, and on a fresh database of the session's real PostgreSQL
server (`tests/conftest.py`). A module or test marked `sqlite_only` (about SQLite
itself: WAL, file damage, diagnosis) runs on SQLite alone.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from storage import Storage
from tests.support.clock import START, FakeClock
from tests.support.postgres import PostgresServer

BACKENDS = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("backend", BACKENDS[:1] if only else BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START, step=timedelta(milliseconds=1))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "dama.sqlite3"


@pytest.fixture
def target(backend: str, request: pytest.FixtureRequest, db_path: Path) -> Iterator[str]:
    """Where the test's database is: an SQLite path, or a fresh PostgreSQL database's
    URL (dama-bot's schema, no rows)."""
    if backend == "sqlite":
        yield str(db_path)
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = server.new_database()
    try:
        yield url
    finally:
        server.drop_database(url)


@pytest.fixture
async def storage(target: str, clock: FakeClock) -> AsyncIterator[Storage]:
    store = await Storage.open(target, clock=clock)
    try:
        yield store
    finally:
        await store.close()
