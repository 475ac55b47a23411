"""Games left unfinished in the local mode's database, described for the player.

The local mode's users, server and channels have the same ids in every run (a seeded
stand-in, `localplay.server.LOCAL_ID_SEED`), so a game left unfinished goes on in the
next run, in the same channel, with the same players. So do the DMs and group DMs
between users and the bot's DM with a player: the stand-in derives their ids from their
people's (`standin.channels`). `unfinished_games` reads the games (read-only, through
storage's public API); `bring_back` makes this run's DMs of those played in a DM, so
they are named from the start; `describe` names each game.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import assert_never

from engine import get_variant
from standin import StandIn
from storage import GameRecord, PlaceKind, Seat, Storage, StorageError


@dataclass(frozen=True)
class Unfinished:
    """An active game: its number, variant name, channel id, both players and plies; the
    server it is in (None: a DM or group DM), how it is shown there (`PlaceKind`), and
    its people as the bot stored them (user id and name; not the computer)."""

    game_id: int
    variant: str
    channel_id: int
    white: str
    black: str
    plies: int
    guild_id: int | None = None
    place: PlaceKind = PlaceKind.CHANNEL
    people: tuple[tuple[int, str], ...] = ()


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

    people = tuple((seat.user_id, names[seat.user_id]) for seat in (record.white, record.black)
                   if seat.user_id is not None)
    return Unfinished(record.id, get_variant(record.variant).name, record.channel_id,
                      who(record.white), who(record.black), record.ply_count,
                      record.guild_id, record.place, people)


async def bring_back(standin: StandIn, games: list[Unfinished]) -> None:
    """Make the DMs the `games` outside servers were played in, this run not having them
    yet: for a game only answered there (`PlaceKind.INTERACTIONS`) the DM between its two
    players, for one the bot posts in (`PlaceKind.CHANNEL`) the bot's DM with its player;
    a seeded stand-in gives them the ids of the earlier run (`standin.channels`). A group
    DM is not made: only its two players are stored, not its other people; typing
    `in group:...` with the same people brings it back. A player whose stored name no
    longer gives their id (a user renamed) is left out."""
    for game in games:
        if game.guild_id is not None or game.channel_id in standin.world.channels:
            continue
        people = [name for user_id, name in game.people if standin.user(name).id == user_id]
        if len(people) != len(game.people):
            continue
        match game.place:
            case PlaceKind.INTERACTIONS:
                if len(people) == 2 and people[0] != people[1]:
                    standin.dm_between(people[0], people[1])
            case PlaceKind.CHANNEL:
                for name in people:
                    await standin.dm_channel(name)
            case _:
                assert_never(game.place)


def describe(games: list[Unfinished], place_of: Callable[[int], str | None]) -> str:
    """One line per game: `game #3, @alice vs @bob, Italian draughts, 4 plies, in
    #general` (the place as `place_of` names it: `#general`, `dm:@alice,@bob`); a place
    this run does not have yet is one an earlier run made with `in NAME`, `in dm:@NAME`
    or `in group:@NAME,@NAME` (typing that again brings the game back)."""
    lines = []
    for game in games:
        place = place_of(game.channel_id)
        where = (f"in {place}" if place is not None
                 else "in a channel, DM or group DM an earlier run made with `in NAME`, "
                      "`in dm:@NAME` or `in group:@NAME,@NAME` (type it again)")
        lines.append(f"  game #{game.game_id}, {game.white} vs {game.black}, {game.variant}, "
                     f"{game.plies} {'ply' if game.plies == 1 else 'plies'}, {where}")
    return "\n".join(lines)
