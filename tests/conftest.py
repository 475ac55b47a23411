"""Session-wide fixtures: the PostgreSQL server of the contract suite (started only when
a test asks for it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.postgres import HOW_TO_ENABLE, PostgresServer, find_binaries, required


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole session; skips (fails with
    DAMA_REQUIRE_POSTGRES=1) where the binaries are missing."""
    binaries = find_binaries()
    if binaries is None:
        if required():
            pytest.fail(HOW_TO_ENABLE, pytrace=False)
        pytest.skip(HOW_TO_ENABLE)
    server = PostgresServer.start(binaries)
    try:
        yield server
    finally:
        server.stop()
