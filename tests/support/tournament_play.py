"""Playing tournaments through the services in tests: sign players up, and end each game
of the current round through the game service as a player would (a resignation, or a
draw offered and accepted), with the result the test chooses."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import timedelta

from bot.services.tournaments import RoundView, TournamentSettings, TournamentView
from tests.support.services import CHANNEL, GUILD, Services
from tournaments.model import Format, Outcome

PLAYERS = tuple(range(2001, 2009))
"""Eight players' user ids."""

ORGANISER = 1999

Chooser = Callable[[int, int], Outcome]
"""The result of a game between White and Black (user ids), as the test wants it."""


def settings(format: Format, **changes: object) -> TournamentSettings:
    """Settings of a tournament of `format` (a Swiss of 4 rounds, a single round robin,
    an arena of 10 minutes; 40 seconds a move, rated), with `changes`."""
    values: dict[str, object] = {
        "name": f"Test {format.value}", "format": format, "variant": "turkish",
        "rounds": 4 if format is Format.SWISS else None,
        "duration": timedelta(minutes=10) if format is Format.ARENA else None,
        "move_seconds": 40,
    }
    values.update(changes)
    return TournamentSettings(**values)  # type: ignore[arg-type]


async def create(services: Services, format: Format, *, channel: int = CHANNEL,
                 **changes: object) -> TournamentView:
    """Create a tournament of `format` in `channel` by `ORGANISER` (who may organise)."""
    return await services.tournaments.create(GUILD, channel, ORGANISER,
                                             settings(format, **changes), may_organise=True)


async def sign_up(services: Services, tournament_id: int, players: Iterable[int]) -> None:
    """Each player joins (no roles, named after their id)."""
    for player in players:
        await services.tournaments.join(tournament_id, player, guild_id=GUILD,
                                        role_ids=frozenset(), display_name=f"p{player}")


async def end_game(services: Services, thread_id: int, white: int, black: int,
                   outcome: Outcome) -> None:
    """End the game in `thread_id` with `outcome` through the game service, then wait
    for the tournament to advance."""
    games = services.games
    match outcome:
        case Outcome.WHITE_WINS:
            await games.resign(thread_id, black)
        case Outcome.BLACK_WINS:
            await games.resign(thread_id, white)
        case Outcome.DRAW:
            await games.draw(thread_id, white)
            await games.draw(thread_id, black)
        case _:
            raise ValueError(f"a game ends 1-0, 0-1 or drawn, not {outcome}")
    await services.tournaments.idle()


async def current_round(services: Services, tournament_id: int) -> RoundView:
    """The last round paired."""
    rounds = await services.tournaments.rounds(tournament_id, guild_id=GUILD)
    return rounds[-1]


async def play_round(services: Services, tournament_id: int, choose: Chooser, *,
                     limit: int | None = None) -> list[tuple[int, int, Outcome]]:
    """End every game under way of the current round (the first `limit` of them, None:
    all) as `choose` says; returns (White, Black, outcome) of each game ended."""
    played: list[tuple[int, int, Outcome]] = []
    round_ = await current_round(services, tournament_id)
    for pairing in round_.pairings:
        if pairing.outcome is not None:
            continue
        if limit is not None and len(played) >= limit:
            break
        assert pairing.thread_id is not None and pairing.game_id is not None
        outcome = choose(pairing.white, pairing.black)
        await end_game(services, pairing.thread_id, pairing.white, pairing.black, outcome)
        played.append((pairing.white, pairing.black, outcome))
    return played


def by_lower_id(white: int, black: int) -> Outcome:
    """The lower user id wins; ids three apart draw (a result that depends only on the
    two players)."""
    if abs(white - black) == 3:
        return Outcome.DRAW
    return Outcome.WHITE_WINS if white < black else Outcome.BLACK_WINS
