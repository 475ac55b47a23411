"""Games left unfinished in the local mode's database, described for the player.

The local mode's users, server and channels have the same ids in every run (a seeded
stand-in, `localplay.server.LOCAL_ID_SEED`), so a game left unfinished goes on in the
next run, in the same channel, with the same players. `unfinished_games` reads them
(read-only, through storage's public API); `describe` names each one.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine import get_variant
from storage import GameRecord, Seat, Storage, StorageError


@dataclass(frozen=True)
class Unfinished:
    """An active game: its number, variant name, channel id, both players and plies."""

    game_id: int
    variant: str
    channel_id: int
    white: str
    black: str
    plies: int


async def unfinished_games(database: str | os.PathLike[str]) -> list[Unfinished]:
    """The active games of `database`, oldest first ([] when there is no such file, or
    one the bot will refuse: the bot then explains what is wrong with it)."""
    path = Path(database)
    if not path.is_file():
        return []
    try:
        storage = await Storage.open(path, verify=False, read_only=True)
    except StorageError:
        return []
    async with storage:
        records = await storage.games.active()
        names: dict[int, str] = {}
        for record in records:
            for seat in (record.white, record.black):
                if seat.user_id is not None and seat.user_id not in names:
                    player = await storage.players.get(seat.user_id)
                    names[seat.user_id] = (player.display_name if player is not None
                                           and player.display_name else str(seat.user_id))
        return [_unfinished(record, names) for record in records]


def _unfinished(record: GameRecord, names: dict[int, str]) -> Unfinished:
    def who(seat: Seat) -> str:
        if seat.user_id is None:
            return f"the computer (level {seat.computer_level})"
        return "@" + names[seat.user_id]

    return Unfinished(record.id, get_variant(record.variant).name, record.channel_id,
                      who(record.white), who(record.black), record.ply_count)


def describe(games: list[Unfinished], place_of: Callable[[int], str | None]) -> str:
    """One line per game: `game #3, @alice vs @bob, Italian draughts, 4 plies, in
    #general` (the place as `place_of` names it: `#general`, `dm:@alice,@bob`); a place
    this run does not have yet is one an earlier run made with `in NAME` or `in dm:@NAME`
    (typing that again brings the game back)."""
    lines = []
    for game in games:
        place = place_of(game.channel_id)
        where = (f"in {place}" if place is not None
                 else "in a channel or DM an earlier run made with `in NAME` or "
                      "`in dm:@NAME` (type it again)")
        lines.append(f"  game #{game.game_id}, {game.white} vs {game.black}, {game.variant}, "
                     f"{game.plies} {'ply' if game.plies == 1 else 'plies'}, {where}")
    return "\n".join(lines)
