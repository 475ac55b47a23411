"""Rating mathematics: Glicko-2 (`bot.ratings.glicko2`), pure and standard library only.

`bot.ratings.calculator` connects it to `storage` (the calculator `GameRepository.finish`
calls inside its transaction).
"""

from bot.ratings.glicko2 import (
    GLICKO2_SCALE,
    LICHESS,
    GameRating,
    Glicko2Rating,
    Glicko2Settings,
    clamp,
    current_rating,
    display_rating,
    periods_between,
    rate_game,
    rate_period,
    with_inactivity,
)

__all__ = [
    "GLICKO2_SCALE",
    "LICHESS",
    "GameRating",
    "Glicko2Rating",
    "Glicko2Settings",
    "clamp",
    "current_rating",
    "display_rating",
    "periods_between",
    "rate_game",
    "rate_period",
    "with_inactivity",
]
