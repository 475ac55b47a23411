"""Swiss pairing by the FIDE Dutch system (tournaments/swiss.py), compared round after
round with bbpPairings (FIDE-endorsed): the tournaments of tests/data/pairings (see its
README.md) are read with our TRF reader, and each round is paired again by `pair_swiss`
from the rounds before it, with the same players absent. The pairs, their colours and the
pairing-allocated bye must be bbpPairings' own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournaments.model import Bye, ByeKind, Colour, Entrant, Game, Outcome, Round
from tournaments.swiss import NoLegalPairingError, pair_swiss
from tournaments.trf import read_trf, trf_rounds

PAIRINGS = Path(__file__).resolve().parents[1] / "data" / "pairings"
FILES = sorted(PAIRINGS.glob("*.trf"))
SMALL = [path for path in FILES if path.name.startswith(("dutch-009p", "dutch-013p",
                                                          "dutch-017p"))]


def _initial_colour(first: Round) -> Colour:
    """The initial colour: pairing number 1's colour in round 1 (C.04.3 E.5)."""
    return Colour.BLACK if any(game.black == 1 for game in first.games) else Colour.WHITE


def _absent(round_: Round) -> list[int]:
    return [bye.player for bye in round_.byes if bye.kind is ByeKind.NOT_PAIRED]


def _replay(path: Path) -> int:
    """Pairs every round of `path` again; asserts each is bbpPairings'. Returns the number
    of games compared."""
    entrants, rounds = trf_rounds(read_trf(path.read_bytes().decode("utf-8")))
    colour = _initial_colour(rounds[0])
    compared = 0
    for round_ in rounds:
        paired = pair_swiss(entrants, rounds[:round_.number - 1], round_.number, len(rounds),
                            _absent(round_), colour)
        expected = {(game.white, game.black) for game in round_.games}
        assert {(game.white, game.black) for game in paired.games} == expected, (
            f"{path.name} round {round_.number}")
        assert set(paired.byes) == set(round_.byes), f"{path.name} round {round_.number}"
        compared += len(expected)
    return compared


@pytest.mark.parametrize("path", SMALL, ids=lambda path: path.stem)
def test_small_tournaments_are_paired_as_bbppairings_pairs_them(path: Path) -> None:
    assert _replay(path) > 0


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_every_round_of_the_test_tournaments_is_paired_as_bbppairings_pairs_it(
        path: Path) -> None:
    assert _replay(path) > 0


def _entrants(count: int) -> list[Entrant]:
    return [Entrant(player=100 + number, rating=2000 - number, number=number)
            for number in range(1, count + 1)]


def _play(round_: Round) -> Round:
    """The round with white winning every game."""
    games = tuple(Game(game.round, game.board, game.white, game.black, Outcome.WHITE_WINS)
                  for game in round_.games)
    return Round(round_.number, games, round_.byes)


def test_a_swiss_has_no_rematch_one_bye_each_and_no_absent_player_paired() -> None:
    entrants = _entrants(7)
    rounds: list[Round] = []
    paused = {2: [101], 4: [103, 104]}
    for number in range(1, 6):
        round_ = _play(pair_swiss(entrants, rounds, number, 5, paused.get(number, [])))
        in_games = [player for game in round_.games for player in (game.white, game.black)]
        assert not set(in_games) & set(paused.get(number, []))
        assert len(in_games) == len(set(in_games))
        assert [bye.player for bye in round_.byes if bye.kind is ByeKind.NOT_PAIRED] == (
            paused.get(number, []))
        assert [game.board for game in round_.games] == list(range(1, len(round_.games) + 1))
        rounds.append(round_)
    pairs = [frozenset((game.white, game.black)) for round_ in rounds for game in round_.games]
    assert len(pairs) == len(set(pairs))
    allocated = [bye.player for round_ in rounds for bye in round_.byes
                 if bye.kind is ByeKind.PAIRING_ALLOCATED]
    assert len(allocated) == len(set(allocated)) == 4


def test_the_first_round_pairs_the_top_half_with_the_bottom_half() -> None:
    round_ = pair_swiss(_entrants(5), [], 1, 3)
    assert [(game.white, game.black) for game in round_.games] == [(101, 103), (104, 102)]
    assert round_.byes == (Bye(1, 105, ByeKind.PAIRING_ALLOCATED),)


def test_a_round_that_does_not_follow_the_rounds_given_is_refused() -> None:
    with pytest.raises(ValueError, match="does not follow"):
        pair_swiss(_entrants(4), [], 2, 5)
    with pytest.raises(ValueError, match="not an entrant"):
        pair_swiss(_entrants(4), [], 1, 5, absent=[999])
    unfinished = pair_swiss(_entrants(4), [], 1, 5)
    with pytest.raises(ValueError, match="not finished"):
        pair_swiss(_entrants(4), [unfinished], 2, 5)


def test_entrants_listed_twice_and_misfiled_games_are_refused() -> None:
    """The same checks as the standings' and the tie-breaks' (tournaments/model.py): a
    wrong input is refused, not paired into a wrong round."""
    twice = [*_entrants(4), Entrant(player=101, rating=1000, number=5)]
    with pytest.raises(ValueError, match="listed twice"):
        pair_swiss(twice, [], 1, 5)
    misfiled = Round(1, (Game(2, 1, 101, 103, Outcome.DRAW),
                         Game(1, 2, 102, 104, Outcome.DRAW)))
    with pytest.raises(ValueError, match="filed under round 1"):
        pair_swiss(_entrants(4), [misfiled], 2, 5)


@pytest.mark.parametrize(("count", "possible"), [(2, 1), (3, 3), (4, 3)])
def test_a_round_with_no_legal_pairing_is_refused_not_made_of_byes(
        count: int, possible: int) -> None:
    """Once every pairing has been played (more rounds than the players allow), no round
    with at most one pairing-allocated bye, each player's first, and no rematch exists:
    the round is refused rather than made of byes worth a win."""
    entrants = _entrants(count)
    rounds: list[Round] = []
    for number in range(1, possible + 1):
        rounds.append(_play(pair_swiss(entrants, rounds, number, possible + 1)))
    with pytest.raises(NoLegalPairingError):
        pair_swiss(entrants, rounds, possible + 1, possible + 1)
