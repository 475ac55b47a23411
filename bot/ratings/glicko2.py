"""Glicko-2 ratings, exactly as in Mark Glickman's "Example of the Glicko-2 system"
(Boston University, 2013; http://www.glicko.net/glicko/glicko2.pdf), steps 1 to 8, with
the Illinois algorithm of step 5 for the new volatility.

Pure and standard library only: numbers in, numbers out. Ratings and deviations are on the
Glicko scale (1500 = centre), converted to the Glicko-2 scale with 173.7178 (step 2).

How dama-bot applies it (as lichess does, `lila` modules/rating and scalachess glicko):

- Each rated game is a rating period of its own, rated as soon as it ends
  (`rate_game`). Within that period step 6 adds no time (lichess's
  `skipDeviationIncrease = true`); the passing of time is applied before the game instead:
- Inactivity: before a game (and when showing a rating), the deviation grows with the
  time since the player's last rated game, `phi* = sqrt(phi^2 + sigma^2 * t)` (step 6's
  formula), `t` in rating periods. One rating period is `1 / 0.21436` days, about 4.67 days
  (lichess's `ratingPeriodsPerDay = 0.21436`, "chosen so a typical player's RD goes from
  60 to 110 in one year"), and the deviation never grows past 500.
- lichess's constants (`LICHESS`): a new player starts at 1500, deviation 500, volatility
  0.09; tau 0.75; the deviation is kept between 45 and 500 and the volatility at most 0.1
  (lichess `Glicko.cap`) before and after each game. A rating is provisional while its
  deviation is 110 or more, shown with `?` ("1500?").

Do not use the PyPI package `glicko2` (2.1.0): its step 5 uses the rating where the
paper uses the deviation, which is wrong for every player not rated exactly 1500.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

GLICKO2_SCALE = 173.7178
"""Glicko points per Glicko-2 unit (paper, step 2)."""

CENTRE = 1500.0
"""The rating that is 0 on the Glicko-2 scale (paper, step 2)."""


@dataclass(frozen=True)
class Glicko2Settings:
    """The system constants. `LICHESS` holds lichess's values (see the module docstring)."""

    initial_rating: float = 1500.0
    initial_deviation: float = 500.0
    initial_volatility: float = 0.09
    tau: float = 0.75
    min_deviation: float = 45.0
    max_deviation: float = 500.0
    max_volatility: float = 0.1
    provisional_deviation: float = 110.0
    rating_period: timedelta = timedelta(days=1 / 0.21436)
    tolerance: float = 1e-6
    """Convergence tolerance epsilon of step 5 (the paper suggests 0.000001)."""


LICHESS = Glicko2Settings()


@dataclass(frozen=True)
class Glicko2Rating:
    """A rating on the Glicko scale: `rating`, `deviation` (RD, rating points), `volatility`."""

    rating: float
    deviation: float
    volatility: float

    def __post_init__(self) -> None:
        for name in ("rating", "deviation", "volatility"):
            if not math.isfinite(getattr(self, name)):
                raise ValueError(f"a rating's {name} must be a finite number")
        if self.deviation <= 0 or self.volatility <= 0:
            raise ValueError(
                f"deviation and volatility must be positive, got {self.deviation}, "
                f"{self.volatility}"
            )

    @classmethod
    def initial(cls, settings: Glicko2Settings = LICHESS) -> Glicko2Rating:
        """A new player's rating (1500, deviation 500, volatility 0.09 with `LICHESS`)."""
        return cls(settings.initial_rating, settings.initial_deviation,
                   settings.initial_volatility)

    def is_provisional(self, settings: Glicko2Settings = LICHESS) -> bool:
        """True while the deviation is 110 or more (lichess `provisionalDeviation`)."""
        return self.deviation >= settings.provisional_deviation

    def display(self, settings: Glicko2Settings = LICHESS) -> str:
        """The rating rounded to an integer, with `?` if provisional: "1500?", "1712"."""
        return display_rating(self.rating, self.deviation, settings)


def display_rating(rating: float, deviation: float, settings: Glicko2Settings = LICHESS) -> str:
    """`rating` rounded to an integer, followed by `?` when `deviation` is provisional."""
    mark = "?" if deviation >= settings.provisional_deviation else ""
    return f"{round(rating)}{mark}"


def _g(phi: float) -> float:
    """Step 3: g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3: E(mu, mu_j, phi_j) = 1 / (1 + exp(-g(phi_j) (mu - mu_j)))."""
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(
    sigma: float, phi: float, v: float, delta: float, tau: float, epsilon: float
) -> float:
    """Step 5: the new volatility sigma', by the Illinois algorithm, exactly as the paper."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        numerator = ex * (delta * delta - phi * phi - v - ex)
        denominator = 2.0 * (phi * phi + v + ex) ** 2
        return numerator / denominator - (x - a) / (tau * tau)

    # 5.2: initial values of the bracket.
    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    # 5.3 and 5.4: iterate until the bracket is narrower than epsilon.
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > epsilon:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    # 5.5
    return math.exp(big_a / 2.0)


def _check_score(score: float) -> None:
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a game score is 1 (win), 0.5 (draw) or 0 (loss), not {score}")


def rate_period(
    player: Glicko2Rating,
    results: Sequence[tuple[Glicko2Rating, float]],
    *,
    tau: float,
    elapsed_periods: float = 1.0,
    tolerance: float = 1e-6,
) -> Glicko2Rating:
    """One rating period of Glickman's paper, steps 1 to 8, with no clamping.

    `results` are (opponent's rating at the start of the period, score: 1 win, 0.5 draw,
    0 loss). `elapsed_periods` is the `t` of step 6, `phi* = sqrt(phi^2 + t sigma'^2)`:
    1 in the paper (one period passes); `rate_game` uses 0. With no results only step 6
    applies: the rating and volatility stay, the deviation grows to `phi*` (with the old
    volatility). Raises `ValueError` for a score outside [0, 1], a negative
    `elapsed_periods`, or a non-positive `tau`.
    """
    if tau <= 0:
        raise ValueError(f"tau must be positive, not {tau}")
    if elapsed_periods < 0:
        raise ValueError(f"elapsed rating periods cannot be negative, not {elapsed_periods}")
    # Step 2: to the Glicko-2 scale.
    mu = (player.rating - CENTRE) / GLICKO2_SCALE
    phi = player.deviation / GLICKO2_SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + elapsed_periods * sigma * sigma)
        return replace(player, deviation=phi_star * GLICKO2_SCALE)
    opponents: list[tuple[float, float, float]] = []
    for opponent, score in results:
        _check_score(score)
        opponents.append(((opponent.rating - CENTRE) / GLICKO2_SCALE,
                          opponent.deviation / GLICKO2_SCALE, score))
    # Step 3: the estimated variance v of the rating from the game outcomes.
    v_inverse = 0.0
    for mu_j, phi_j, _ in opponents:
        e = _expected(mu, mu_j, phi_j)
        v_inverse += _g(phi_j) ** 2 * e * (1.0 - e)
    v = 1.0 / v_inverse
    # Step 4: the estimated improvement delta.
    improvement = sum(_g(phi_j) * (s_j - _expected(mu, mu_j, phi_j))
                      for mu_j, phi_j, s_j in opponents)
    delta = v * improvement
    # Step 5: the new volatility.
    sigma_new = _new_volatility(sigma, phi, v, delta, tau, tolerance)
    # Step 6: the pre-rating-period value phi*.
    phi_star = math.sqrt(phi * phi + elapsed_periods * sigma_new * sigma_new)
    # Step 7: new deviation and rating.
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # Step 8: back to the Glicko scale.
    return Glicko2Rating(
        rating=GLICKO2_SCALE * mu_new + CENTRE,
        deviation=GLICKO2_SCALE * phi_new,
        volatility=sigma_new,
    )


def clamp(rating: Glicko2Rating, settings: Glicko2Settings = LICHESS) -> Glicko2Rating:
    """The deviation kept in [min_deviation, max_deviation] (45..500) and the volatility at
    most max_volatility (0.1), as lichess's `Glicko.cap`."""
    deviation = min(max(rating.deviation, settings.min_deviation), settings.max_deviation)
    volatility = min(rating.volatility, settings.max_volatility)
    return Glicko2Rating(rating.rating, deviation, volatility)


def periods_between(
    since: datetime | None, until: datetime, settings: Glicko2Settings = LICHESS
) -> float:
    """Rating periods from `since` (last rated game; None: never) to `until`, at least 0."""
    if since is None:
        return 0.0
    return max(0.0, (until - since) / settings.rating_period)


def with_inactivity(
    rating: Glicko2Rating, periods: float, settings: Glicko2Settings = LICHESS
) -> Glicko2Rating:
    """The deviation grown by `periods` rating periods without a game,
    `sqrt(RD^2 + t (sigma * 173.7178)^2)` (step 6), capped at max_deviation (500).
    Raises `ValueError` for negative `periods`."""
    if periods < 0:
        raise ValueError(f"elapsed rating periods cannot be negative, not {periods}")
    if periods == 0:
        return rating
    grown = rate_period(rating, (), tau=settings.tau, elapsed_periods=periods)
    return replace(grown, deviation=min(grown.deviation, settings.max_deviation))


def current_rating(
    rating: Glicko2Rating,
    last_rated_at: datetime | None,
    now: datetime,
    settings: Glicko2Settings = LICHESS,
) -> Glicko2Rating:
    """The rating as of `now` (deviation grown for inactivity since `last_rated_at`), for
    display and for the start of the next game."""
    return clamp(with_inactivity(rating, periods_between(last_rated_at, now, settings),
                                 settings), settings)


@dataclass(frozen=True)
class GameRating:
    """One side of a rated game: its rating going in (inactivity applied) and coming out."""

    before: Glicko2Rating
    after: Glicko2Rating


def rate_game(
    white: Glicko2Rating,
    black: Glicko2Rating,
    white_score: float,
    *,
    white_periods: float = 0.0,
    black_periods: float = 0.0,
    settings: Glicko2Settings = LICHESS,
) -> tuple[GameRating, GameRating]:
    """Rate one game the way lichess does: each side's deviation first grows for its
    `*_periods` of inactivity and is clamped; then one rating period of the paper with this
    single game and no further time (step 6 with t = 0), against the opponent's rating going
    in; then clamped again. `white_score` is 1 (White won), 0.5 (draw) or 0 (Black won).
    Returns (White's, Black's). Raises `ValueError` for a score outside [0, 1].
    """
    _check_score(white_score)
    white_in = clamp(with_inactivity(white, white_periods, settings), settings)
    black_in = clamp(with_inactivity(black, black_periods, settings), settings)
    white_out = rate_period(white_in, [(black_in, white_score)], tau=settings.tau,
                            elapsed_periods=0.0, tolerance=settings.tolerance)
    black_out = rate_period(black_in, [(white_in, 1.0 - white_score)], tau=settings.tau,
                            elapsed_periods=0.0, tolerance=settings.tolerance)
    return (GameRating(white_in, clamp(white_out, settings)),
            GameRating(black_in, clamp(black_out, settings)))
