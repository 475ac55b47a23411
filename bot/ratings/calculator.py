"""The Glicko-2 rating calculator that `storage`'s `GameRepository.finish` runs inside the
transaction that ends a rated game."""

from __future__ import annotations

from datetime import datetime

from bot.ratings.glicko2 import LICHESS, Glicko2Rating, Glicko2Settings, periods_between, rate_game
from storage import GameResult, Rating, RatingCalculator, RatingUpdate, RatingValue, Side


def _start(stored: Rating | None, now: datetime,
           settings: Glicko2Settings) -> tuple[Glicko2Rating, float]:
    if stored is None:
        return Glicko2Rating.initial(settings), 0.0
    rating = Glicko2Rating(stored.rating, stored.deviation, stored.volatility)
    return rating, periods_between(stored.last_rated_at, now, settings)


def _value(rating: Glicko2Rating) -> RatingValue:
    return RatingValue(rating.rating, rating.deviation, rating.volatility)


def glicko2_calculator(
    result: GameResult, now: datetime, settings: Glicko2Settings = LICHESS
) -> RatingCalculator:
    """A `storage.RatingCalculator` rating one game ending in `result` at `now`: players
    never rated in the variant start from the initial rating; the others' deviations grow
    for the time since their last rated game (see `bot.ratings.glicko2.rate_game`)."""

    def calculate(white: Rating | None, black: Rating | None) -> tuple[RatingUpdate, RatingUpdate]:
        white_rating, white_periods = _start(white, now, settings)
        black_rating, black_periods = _start(black, now, settings)
        white_game, black_game = rate_game(
            white_rating, black_rating, result.score_of(Side.WHITE),
            white_periods=white_periods, black_periods=black_periods, settings=settings,
        )
        return (RatingUpdate(_value(white_game.before), _value(white_game.after)),
                RatingUpdate(_value(black_game.before), _value(black_game.after)))

    return calculate
