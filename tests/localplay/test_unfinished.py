"""Games left unfinished, named for the player by the place they are in."""

from __future__ import annotations

from localplay.unfinished import Unfinished, describe


def test_each_game_is_named_by_its_place_or_by_how_to_find_it_again() -> None:
    games = [Unfinished(1, "Italian draughts", 11, "@alice", "@carol", 2),
             Unfinished(2, "Italian draughts", 12, "@alice", "@bob", 1),
             Unfinished(3, "Italian draughts", 13, "@dan", "@eda", 0)]
    places = {11: "dm:@alice,@carol", 12: "#general"}
    assert describe(games, places.get).splitlines() == [
        "  game #1, @alice vs @carol, Italian draughts, 2 plies, in dm:@alice,@carol",
        "  game #2, @alice vs @bob, Italian draughts, 1 ply, in #general",
        "  game #3, @dan vs @eda, Italian draughts, 0 plies, in a channel or DM an earlier run "
        "made with `in NAME` or `in dm:@NAME` (type it again)",
    ]
