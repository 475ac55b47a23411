"""The estimate of games left until a rating deviation is under a limit
(`bot.ratings.estimate`), checked against Glickman's formulas written out here again
from "Example of the Glicko-2 system" (Boston University, 2013), steps 2 to 8, with the
lichess conventions docs/RULES.md and `bot.ratings.glicko2` describe: no time passes
within a game's rating period (step 6 with t = 0), the deviation kept in [45, 500] and
the volatility at most 0.1."""

from __future__ import annotations

import math

import pytest

from bot.ratings import Glicko2Rating
from bot.ratings.estimate import MAX_ESTIMATE, TYPICAL_DEVIATION, games_to_deviation

SCALE = 173.7178


def _paper_period(
    r: float, rd: float, vol: float, games: list[tuple[float, float, float]], *,
    tau: float, t: float,
) -> tuple[float, float, float]:
    """One rating period of the paper: `games` are (opponent rating, RD, score); step 6
    adds `t` periods. The volatility's root of f is found by bisection (not the paper's
    Illinois iteration, so the two implementations share no code path)."""
    mu, phi = (r - 1500) / SCALE, rd / SCALE
    v_inverse = improvement = 0.0
    for opponent_r, opponent_rd, score in games:
        g = 1 / math.sqrt(1 + 3 * (opponent_rd / SCALE) ** 2 / math.pi ** 2)
        e = 1 / (1 + math.exp(-g * (mu - (opponent_r - 1500) / SCALE)))
        v_inverse += g * g * e * (1 - e)
        improvement += g * (score - e)
    v = 1 / v_inverse
    delta = v * improvement
    a = math.log(vol * vol)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) \
            - (x - a) / tau ** 2

    low, high = a - 1, a + 1
    while f(low) < 0:
        low -= 1
    while f(high) > 0:
        high += 1
    for _ in range(200):
        middle = (low + high) / 2
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    new_vol = math.exp((low + high) / 4)
    phi_star = math.sqrt(phi ** 2 + t * new_vol ** 2)
    new_phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    new_mu = mu + new_phi ** 2 * improvement
    return 1500 + SCALE * new_mu, SCALE * new_phi, new_vol


def _capped(r: float, rd: float, vol: float) -> tuple[float, float, float]:
    return r, min(max(rd, 45.0), 500.0), min(vol, 0.1)


def _paper_games_to(r: float, rd: float, vol: float, limit: float) -> int:
    """Drawn games in a row against an equal player of RD `TYPICAL_DEVIATION` (volatility
    0.09, lichess's start) until the RD is under `limit`."""
    games = 0
    r, rd, vol = _capped(r, rd, vol)
    while rd >= limit:
        r, rd, vol = _capped(*_paper_period(r, rd, vol, [(r, TYPICAL_DEVIATION, 0.5)],
                                            tau=0.75, t=0.0))
        games += 1
    return games


def test_the_transcription_gives_the_papers_worked_example() -> None:
    # The paper's example: 1500/200/0.06 against 1400/30 (won), 1550/100 and 1700/300
    # (lost), tau 0.5, one period: 1464.06 / 151.52 / 0.05999.
    r, rd, vol = _paper_period(1500, 200, 0.06,
                               [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)],
                               tau=0.5, t=1.0)
    assert r == pytest.approx(1464.06, abs=0.01)
    assert rd == pytest.approx(151.52, abs=0.005)
    assert vol == pytest.approx(0.05999, abs=0.00001)


@pytest.mark.parametrize(
    ("rating", "deviation", "volatility", "limit"),
    [
        (1500.0, 500.0, 0.09, 110.0),  # a new player and the default limit
        (1500.0, 500.0, 0.09, 80.0),
        (1712.0, 260.0, 0.06, 110.0),
        (1290.0, 150.0, 0.1, 110.0),
        (1830.0, 111.0, 0.09, 110.0),
    ],
)
def test_the_estimate_matches_the_papers_formulas(
    rating: float, deviation: float, volatility: float, limit: float
) -> None:
    expected = _paper_games_to(rating, deviation, volatility, limit)
    assert expected > 0
    assert games_to_deviation(Glicko2Rating(rating, deviation, volatility), limit) == expected


def test_a_deviation_already_under_the_limit_needs_no_game() -> None:
    assert games_to_deviation(Glicko2Rating(1500.0, 109.9, 0.09), 110.0) == 0


def test_a_limit_under_the_minimum_deviation_is_never_reached() -> None:
    # The deviation never falls under 45 (lichess's floor): the estimate stops counting.
    assert games_to_deviation(Glicko2Rating(1500.0, 300.0, 0.09), 45.0) == MAX_ESTIMATE


def test_a_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        games_to_deviation(Glicko2Rating(1500.0, 300.0, 0.09), 0.0)
