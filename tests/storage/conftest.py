"""Fixtures for the storage tests: a real database file in a temporary folder, a clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from storage import Storage
from tests.support.clock import START, FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START, step=timedelta(milliseconds=1))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "dama.sqlite3"


@pytest.fixture
async def storage(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    store = await Storage.open(db_path, clock=clock)
    try:
        yield store
    finally:
        await store.close()
