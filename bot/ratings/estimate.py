"""How many more rated games bring a player's rating deviation under a limit, estimated
with Glicko-2 itself (`bot.ratings.glicko2.rate_game`, the calculation every rated game
uses).

The estimate plays games in a row, with no time between them, against a typical
opponent: an established player of the same rating (deviation `TYPICAL_DEVIATION`), each
game drawn, the expected score between equal players. The deviation falls by about the
same amount whatever the results (step 7 of Glickman's paper depends on the result only
through the volatility), so "about" is honest; a player who waits between games needs
more (their deviation grows again with inactivity).
"""

from __future__ import annotations

from bot.ratings.glicko2 import LICHESS, Glicko2Rating, Glicko2Settings, rate_game

TYPICAL_DEVIATION = 60.0
"""The deviation of the typical opponent: an active established player (lichess's
rating periods are "chosen so a typical player's RD goes from 60 to 110 in one year")."""

MAX_ESTIMATE = 500
"""The estimate stops counting here (a limit the deviation never goes under, e.g. below
the system's minimum deviation)."""


def games_to_deviation(
    rating: Glicko2Rating, limit: float, settings: Glicko2Settings = LICHESS
) -> int:
    """How many more rated games, played now one after another against the typical
    opponent (see the module docstring), bring `rating`'s deviation strictly under
    `limit`: 0 when it already is; `MAX_ESTIMATE` when that many games do not.
    Raises `ValueError` for a limit that is not positive."""
    if not limit > 0:
        raise ValueError(f"the deviation limit must be positive, not {limit}")
    current = rating
    for games in range(MAX_ESTIMATE):
        if current.deviation < limit:
            return games
        opponent = Glicko2Rating(current.rating, TYPICAL_DEVIATION, settings.initial_volatility)
        player, _ = rate_game(current, opponent, 0.5, settings=settings)
        current = player.after
    return MAX_ESTIMATE
