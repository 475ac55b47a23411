"""The bot's clock in local play: the real time plus an offset in a file that `advance`
moves on, read again by every process when it changes (docs/LOCAL_PLAY.md, `later`)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from localplay.clock import ShiftedClock, advance, clock_path_for
from storage.clock import utc_now


def test_without_its_file_the_clock_is_the_real_time(tmp_path: Path) -> None:
    clock = ShiftedClock(tmp_path / "missing.clock")
    before = utc_now()
    now = clock()
    assert before <= now <= utc_now()
    assert clock.offset == timedelta()


def test_advance_moves_every_reader_of_the_file_on(tmp_path: Path) -> None:
    path = tmp_path / "local.sqlite3.clock"
    one, other = ShiftedClock(path), ShiftedClock(path)
    assert one.offset == timedelta()  # read once before the file exists
    assert advance(path, 3600) == timedelta(hours=1)
    assert advance(path, 18 * 3600) == timedelta(hours=19)
    assert one.offset == other.offset == timedelta(hours=19)
    before = utc_now()
    assert before + timedelta(hours=19) <= one() <= utc_now() + timedelta(hours=19)


@pytest.mark.parametrize("seconds", [0, -60])
def test_time_only_moves_on(tmp_path: Path, seconds: float) -> None:
    path = tmp_path / "local.sqlite3.clock"
    with pytest.raises(ValueError, match="only moves on"):
        advance(path, seconds)
    assert not path.exists()


def test_an_unreadable_file_keeps_the_offset_last_read(tmp_path: Path) -> None:
    path = tmp_path / "local.sqlite3.clock"
    clock = ShiftedClock(path)
    advance(path, 60)
    assert clock.offset == timedelta(minutes=1)
    path.write_text("not a number", encoding="utf-8")
    assert clock.offset == timedelta(minutes=1)


def test_the_offset_lives_beside_an_sqlite_file_else_beside_the_log(tmp_path: Path) -> None:
    assert clock_path_for("data/local.sqlite3", "data/local-bot.log") == Path(
        "data/local.sqlite3.clock")
    assert clock_path_for("postgresql://localhost/dama", tmp_path / "local-bot.log") == (
        tmp_path / "local-clock")
