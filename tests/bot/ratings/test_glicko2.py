"""Glicko-2 (bot.ratings.glicko2) against published numbers and an independent transcription.

Sources of the expected numbers:
- Mark Glickman, "Example of the Glicko-2 system" (2013), section "Example calculation":
  1500/200/0.06 against 1400/30 (win), 1550/100 (loss), 1700/300 (loss), tau 0.5
  -> 1464.06 / 151.52 / 0.05999.
- scalachess `GlickoCalculatorTest.scala` (lichess's implementation, tau 0.75, each game
  its own period with no deviation increase): the values asserted there, with their
  tolerances.
- lila `Glicko.scala`: ratingPeriodsPerDay 0.21436 "chosen so a typical player's RD goes
  from 60 -> 110 in 1 year".
- `_independent_period` below: a direct transcription of the paper's formulas written for
  this test, with plain bisection in place of the Illinois algorithm.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from bot.ratings.calculator import glicko2_calculator
from bot.ratings.glicko2 import (
    LICHESS,
    Glicko2Rating,
    clamp,
    current_rating,
    display_rating,
    periods_between,
    rate_game,
    rate_period,
    with_inactivity,
)
from storage import GameResult, Rating


def test_glickman_worked_example() -> None:
    player = Glicko2Rating(1500, 200, 0.06)
    results = [
        (Glicko2Rating(1400, 30, 0.06), 1.0),
        (Glicko2Rating(1550, 100, 0.06), 0.0),
        (Glicko2Rating(1700, 300, 0.06), 0.0),
    ]
    new = rate_period(player, results, tau=0.5, elapsed_periods=1.0)
    # The paper rounds mu' to -0.2069 before step 8 (173.7178 * -0.2069 + 1500 = 1464.06);
    # unrounded, the rating is 1464.0507.
    assert (new.rating - 1500) / 173.7178 == pytest.approx(-0.2069, abs=0.00005)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.005)
    # The paper prints sigma' = 0.05999 (cut after five decimals: 0.0599960 unrounded).
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)
    assert new.volatility < 0.06


def _independent_period(
    r: float, rd: float, vol: float, games: list[tuple[float, float, float]], tau: float
) -> tuple[float, float, float]:
    """Glickman's steps 1-8 written out again: games are (opponent rating, opponent RD,
    score); one period elapses; volatility by bisection on f(x) = 0."""
    k = 173.7178
    mu, ph = (r - 1500) / k, rd / k
    v_sum = s = 0.0
    for opponent_r, opponent_rd, score in games:
        gj = 1 / math.sqrt(1 + 3 * (opponent_rd / k) ** 2 / math.pi**2)
        ej = 1 / (1 + math.exp(-gj * (mu - (opponent_r - 1500) / k)))
        v_sum += gj**2 * ej * (1 - ej)
        s += gj * (score - ej)
    v = 1 / v_sum
    d = v * s
    a = math.log(vol**2)

    def f(x: float) -> float:
        return (math.exp(x) * (d**2 - ph**2 - v - math.exp(x))
                / (2 * (ph**2 + v + math.exp(x)) ** 2) - (x - a) / tau**2)

    # f is decreasing; bracket the root, then halve the bracket.
    lo, hi = a - 1, a + 1
    while f(lo) < 0:
        lo -= 1
    while f(hi) > 0:
        hi += 1
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    new_vol = math.exp((lo + hi) / 4)
    pre = math.sqrt(ph**2 + new_vol**2)
    new_ph = 1 / math.sqrt(1 / pre**2 + 1 / v)
    new_mu = mu + new_ph**2 * s
    return 1500 + k * new_mu, k * new_ph, new_vol


@pytest.mark.parametrize(
    ("player", "games", "tau"),
    [
        ((2250.0, 70.0, 0.065), [(2100.0, 40.0, 0.5), (2400.0, 120.0, 0.0), (1900.0, 250.0, 1.0)],
         0.75),
        ((850.0, 180.0, 0.09), [(1200.0, 60.0, 1.0), (900.0, 300.0, 1.0)], 0.75),
        ((2600.0, 45.0, 0.05), [(1500.0, 350.0, 0.0)], 0.3),
    ],
)
def test_far_from_1500_matches_independent_transcription(
    player: tuple[float, float, float], games: list[tuple[float, float, float]], tau: float
) -> None:
    expected = _independent_period(*player, games, tau)
    new = rate_period(
        Glicko2Rating(*player),
        [(Glicko2Rating(r, rd, 0.06), score) for r, rd, score in games],
        tau=tau,
        elapsed_periods=1.0,
    )
    assert new.rating == pytest.approx(expected[0], abs=1e-4)
    assert new.deviation == pytest.approx(expected[1], abs=1e-4)
    assert new.volatility == pytest.approx(expected[2], abs=1e-7)
    # Sanity: the result is not the 1500-centred one a wrong volatility would give.
    assert abs(new.rating - player[0]) < 400


# (white, black, white score) -> (white rating, black rating, white RD, black RD, white vol,
# black vol), each (value, tolerance), from scalachess GlickoCalculatorTest.scala.
LICHESS_CASES = [
    ((1500, 500, 0.09), (1500, 500, 0.09), 1.0,
     [(1741, 1), (1258, 1), (396, 1), (396, 1), (0.0899983, 1e-7), (0.0899983, 1e-7)]),
    ((1500, 500, 0.09), (1500, 500, 0.09), 0.0,
     [(1258, 1), (1741, 1), (396, 1), (396, 1), (0.0899983, 1e-7), (0.0899983, 1e-7)]),
    ((1500, 500, 0.09), (1500, 500, 0.09), 0.5,
     [(1500, 1), (1500, 1), (396, 1), (396, 1), (0.0899954, 1e-7), (0.0899954, 1e-7)]),
    ((1400, 79, 0.06), (1550, 110, 0.065), 1.0,
     [(1422, 1), (1506, 1), (77, 1), (105, 1), (0.06, 1e-5), (0.065, 1e-5)]),
    ((1400, 79, 0.06), (1550, 110, 0.065), 0.0,
     [(1389, 1), (1568, 1), (78, 1), (105, 1), (0.06, 1e-5), (0.065, 1e-5)]),
    ((1400, 79, 0.06), (1550, 110, 0.065), 0.5,
     [(1406, 1), (1537, 1), (78, 1), (105.87, 0.01), (0.06, 1e-5), (0.065, 1e-5)]),
    ((1200, 60, 0.053), (1850, 200, 0.062), 1.0,
     [(1216.7, 0.1), (1636, 0.1), (59.9, 0.1), (196.9, 0.1), (0.053013, 1e-6),
      (0.062028, 1e-6)]),
    ((1200, 60, 0.053), (1850, 200, 0.062), 0.0,
     [(1199.3, 0.1), (1855.4, 0.1), (59.9, 0.1), (196.9, 0.1), (0.052999, 1e-6),
      (0.061999, 1e-6)]),
    ((1200, 60, 0.053), (1850, 200, 0.062), 0.5,
     [(1208.0, 0.1), (1745.7, 0.1), (59.90056, 0.1), (196.98729, 0.1), (0.053002, 1e-6),
      (0.062006, 1e-6)]),
]


@pytest.mark.parametrize(("white", "black", "score", "expected"), LICHESS_CASES)
def test_single_game_matches_lichess_published_values(
    white: tuple[float, float, float],
    black: tuple[float, float, float],
    score: float,
    expected: list[tuple[float, float]],
) -> None:
    w, b = rate_game(Glicko2Rating(*white), Glicko2Rating(*black), score)
    got = [w.after.rating, b.after.rating, w.after.deviation, b.after.deviation,
           w.after.volatility, b.after.volatility]
    for value, (want, tolerance) in zip(got, expected, strict=True):
        assert value == pytest.approx(want, abs=tolerance)
    # No inactivity: the ratings going in are the ones given.
    assert w.before == Glicko2Rating(*white)
    assert b.before == Glicko2Rating(*black)


def test_no_games_only_deviation_grows() -> None:
    player = Glicko2Rating(1700, 80, 0.06)
    new = rate_period(player, [], tau=0.5, elapsed_periods=1.0)
    assert new.rating == 1700 and new.volatility == 0.06
    assert new.deviation == pytest.approx(math.sqrt(80**2 + (0.06 * 173.7178) ** 2))


def test_deviation_never_below_45() -> None:
    player = opponent = Glicko2Rating(1500, 100, 0.06)
    for index in range(300):
        white, black = rate_game(player, opponent, 0.5 if index % 2 else 1.0)
        player, opponent = white.after, black.after
    assert player.deviation == LICHESS.min_deviation
    unclamped = rate_period(
        Glicko2Rating(1500, 46, 0.01), [(Glicko2Rating(1500, 46, 0.01), 0.5)] * 20, tau=0.75,
        elapsed_periods=0.0,
    )
    assert unclamped.deviation < 45  # the clamp is what keeps it at 45
    assert clamp(unclamped).deviation == 45


def test_deviation_never_above_500_and_volatility_capped() -> None:
    assert with_inactivity(Glicko2Rating(1500, 60, 0.09), 1e6).deviation == 500
    assert clamp(Glicko2Rating(1500, 900, 0.3)) == Glicko2Rating(1500, 500, 0.1)
    white, _ = rate_game(Glicko2Rating(1500, 700, 0.2), Glicko2Rating(1500, 50, 0.06), 1.0)
    assert white.before == Glicko2Rating(1500, 500, 0.1)
    assert white.after.deviation <= 500 and white.after.volatility <= 0.1


def test_inactivity_growth_lichess_period() -> None:
    # lila: 0.21436 rating periods per day, "so a typical player's RD goes from 60 -> 110
    # in 1 year" (a typical volatility, 0.06).
    start = datetime(2025, 1, 1, tzinfo=UTC)
    year_later = start + timedelta(days=365)
    assert periods_between(start, year_later) == pytest.approx(365 * 0.21436)
    grown = current_rating(Glicko2Rating(1800, 60, 0.06), start, year_later)
    assert grown.deviation == pytest.approx(110, abs=0.5)
    assert grown.rating == 1800 and grown.volatility == 0.06
    # The formula, for two periods: sqrt(RD^2 + 2 (sigma * 173.7178)^2).
    two = with_inactivity(Glicko2Rating(1800, 60, 0.09), 2.0)
    assert two.deviation == pytest.approx(math.sqrt(60**2 + 2 * (0.09 * 173.7178) ** 2))
    assert periods_between(None, year_later) == 0
    assert periods_between(year_later, start) == 0


def test_inactivity_applied_before_a_game() -> None:
    player = Glicko2Rating(1600, 60, 0.06)
    fresh, _ = rate_game(player, Glicko2Rating(1600, 60, 0.06), 1.0)
    rusty, _ = rate_game(player, Glicko2Rating(1600, 60, 0.06), 1.0, white_periods=100.0)
    assert rusty.before.deviation > 100
    assert rusty.after.rating - 1600 > 2 * (fresh.after.rating - 1600)


def test_provisional_flag_and_display() -> None:
    assert Glicko2Rating.initial().is_provisional()
    assert Glicko2Rating.initial().display() == "1500?"
    assert Glicko2Rating(1712.4, 110, 0.06).is_provisional()
    assert not Glicko2Rating(1712.4, 109.99, 0.06).is_provisional()
    assert Glicko2Rating(1712.4, 109.99, 0.06).display() == "1712"
    assert display_rating(1499.6, 300) == "1500?"


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="score"):
        rate_game(Glicko2Rating.initial(), Glicko2Rating.initial(), 2.0)
    with pytest.raises(ValueError, match="negative"):
        with_inactivity(Glicko2Rating.initial(), -1)
    with pytest.raises(ValueError, match="positive"):
        Glicko2Rating(1500, 0, 0.06)
    with pytest.raises(ValueError, match="finite"):
        Glicko2Rating(math.nan, 100, 0.06)


def test_storage_calculator() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    stored = Rating(user_id=1, variant="turkish", rating=1500.0, deviation=500.0,
                    volatility=0.09, rated_games=3, wins=1, losses=1, draws=1,
                    last_rated_at=now - timedelta(days=1))
    white, black = glicko2_calculator(GameResult.BLACK_WINS, now)(stored, None)
    assert (white.before.rating, white.before.deviation) == (1500, 500)  # capped at 500
    assert white.after.rating == pytest.approx(1258, abs=1)
    assert black.after.rating == pytest.approx(1741, abs=1)
    assert (black.before.rating, black.before.deviation, black.before.volatility) == (
        1500, 500, 0.09)
