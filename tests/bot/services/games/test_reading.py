"""`bot.services.games.reading`: what the players read of a game (the `/move`
autocomplete), on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import engine
from tests.support.clock import FakeClock
from tests.support.services import (
    ALICE,
    BOB,
    CHANNEL,
    OpenServices,
    start_game,
)


async def test_autocomplete_offers_own_legal_moves_captures_first(
    tmp_path: Path, open_services: OpenServices,
) -> None:
    s = await open_services()
    assert s.games.suggestions(CHANNEL, ALICE, "") == []
    await start_game(s, "turkish")
    start = s.games.suggestions(CHANNEL, ALICE, "")
    position = engine.Position.start(engine.get_variant("turkish"))
    assert len(start) == min(25, len(engine.legal_moves(position, engine.get_variant("turkish"))))
    assert s.games.suggestions(CHANNEL, BOB, "") == []  # not Bob's turn
    assert {c.value for c in s.games.suggestions(CHANNEL, ALICE, "a3")} == {"a3-a4"}
    assert {c.value for c in s.games.suggestions(CHANNEL, ALICE, "B3-")} == {"b3-b4"}
    await s.close()
    s = await open_services(tmp_path / "db2.sqlite3", FakeClock())
    await start_game(s, "italian", "W:Wd3,h1:Bc4,c6,e4,e6")
    choices = s.games.suggestions(CHANNEL, ALICE, "")
    assert [c.value for c in choices] == ["d3xb5xd7", "d3xf5xd7"]  # full paths, captures only
    # Italian numeric squares (docs/RULES.md, "Coordinates and notation"): d3 = 22,
    # b5 = 13, d7 = 6. The numeric form comes first (the default), algebraic beside it.
    assert choices[0].name == "22x13x6 (d3xb5xd7)"
    assert [c.value for c in s.games.suggestions(CHANNEL, ALICE, "22x")] == [
        "d3xb5xd7", "d3xf5xd7"
    ]
