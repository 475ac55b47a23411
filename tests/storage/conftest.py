"""Fixtures for the storage tests: a real database file in a temporary folder, a clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from storage import Storage

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class FakeClock:
    """A clock that only moves when told (`advance`), or by `step` at every reading."""

    def __init__(self, start: datetime = START, step: timedelta = timedelta(0)) -> None:
        self.now = start
        self.step = step

    def __call__(self) -> datetime:
        current = self.now
        self.now += self.step
        return current

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(step=timedelta(milliseconds=1))


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
