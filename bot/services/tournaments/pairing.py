"""Pairing a tournament's next round from the pure core, on plain values: a Swiss by
`tournaments.swiss.pair_swiss` (in a worker thread: a large Swiss takes long to pair, and
the event loop must go on answering), a round robin by its Berger table
(`tournaments.round_robin.round_robin_round`), an arena's free players by
`tournaments.arena_pairing.pair` (docs/RULES.md, "Tournaments")."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.services.tournaments.core import Snapshot
from bot.services.tournaments.mapping import outcome_of
from bot.services.tournaments.standings import arena_games
from tournaments import arena_pairing
from tournaments.arena_scores import ArenaRules, pairings_closed_before_end
from tournaments.model import Bye, ByeKind, Entrant, Game, Round
from tournaments.round_robin import round_robin_round
from tournaments.swiss import pair_swiss


async def swiss_round(entrants: Sequence[Entrant], rounds: Sequence[Round], number: int,
                      total: int, absent: frozenset[int]) -> Round:
    """Round `number` of a Swiss of `total` rounds after the finished `rounds`, the
    `absent` players (left or removed) not paired (`pair_swiss`, in a worker thread).
    Raises what `pair_swiss` raises."""
    return await asyncio.to_thread(pair_swiss, tuple(entrants), tuple(rounds), number, total,
                                   absent)


def round_robin(entrants: Sequence[Entrant], number: int, cycles: int,
                active: frozenset[int]) -> Round:
    """Round `number` of the round robin between every numbered entrant, by the Berger
    table. A player no longer `active` (left or removed) keeps their place in the table
    but is paired no more: they are not paired that round (a `NOT_PAIRED` bye) and their
    scheduled opponent has a rest round, as the odd count's (a `PAIRING_ALLOCATED` bye,
    which in a round robin scores nothing and counts for no tie-break: docs/RULES.md,
    "Scores"). Boards are numbered anew from 1 in the table's order."""
    scheduled = round_robin_round(entrants, number, cycles)
    games: list[Game] = []
    byes = [bye for bye in scheduled.byes if bye.player in active]
    byes += [Bye(number, bye.player, ByeKind.NOT_PAIRED) for bye in scheduled.byes
             if bye.player not in active]
    for game in scheduled.games:
        if game.white in active and game.black in active:
            games.append(dataclasses.replace(game, board=len(games) + 1))
            continue
        for player in (game.white, game.black):
            kind = ByeKind.PAIRING_ALLOCATED if player in active else ByeKind.NOT_PAIRED
            byes.append(Bye(number, player, kind))
    return Round(number, tuple(games), tuple(byes))


def arena_rules_for(rules: ArenaRules, move_seconds: int) -> ArenaRules:
    """`rules` with the last stretch without pairings of an arena whose games have
    `move_seconds` per move (lichess's rule on the initial clock time:
    `pairings_closed_before_end`)."""
    return dataclasses.replace(
        rules, pairings_closed_before_end=pairings_closed_before_end(
            timedelta(seconds=move_seconds)))


def free_since(snapshot: Snapshot) -> dict[int, datetime]:
    """The arena's active numbered players who have no game under way (nor one paired
    and not started), each with the moment they came free: the start, their joining, or
    the end of their last game (a forfeit: its pairing), whichever is latest."""
    record = snapshot.record
    assert record.started_at is not None
    busy: set[int] = set()
    since: dict[int, datetime] = {}
    for entrant in snapshot.entrants:
        if entrant.user_id in snapshot.active and entrant.number is not None:
            since[entrant.user_id] = max(record.started_at, entrant.joined_at)
    for round_ in snapshot.rounds:
        for pairing in round_.pairings:
            players = (pairing.white_user_id, pairing.black_user_id)
            if outcome_of(pairing) is None:
                busy.update(players)
                continue
            ended = pairing.finished_at or round_.paired_at
            for player in players:
                if player in since:
                    since[player] = max(since[player], ended)
    return {player: moment for player, moment in since.items() if player not in busy}


def arena_round(snapshot: Snapshot, now: datetime, rules: ArenaRules) -> Round | None:
    """The arena's next pairing of its free players now, None when none is due
    (`arena_pairing.pair`: fewer than two free, the wait, the last stretch)."""
    record = snapshot.record
    assert record.ends_at is not None
    entrants = snapshot.numbered
    withdrawn = frozenset(e.player for e in entrants if e.player not in snapshot.active)
    return arena_pairing.pair(
        entrants, snapshot.model_rounds, arena_games(snapshot.rounds),
        free_since(snapshot), withdrawn, now, record.ends_at,
        arena_rules_for(rules, record.move_seconds), record.seed)
