"""The computer player's search (engine.search), always at a fixed depth, never timed.

The tactical positions are built by hand from docs/RULES.md; the comment of each case gives the
reasoning for its winning move. Each case is checked twice: the position itself by an
independent brute-force material count over the public API (`legal_moves`/`apply_move`,
no search code), which must find the expected move as the only best one; then the search,
which must play it.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from engine import (
    Color,
    Game,
    Move,
    Position,
    Variant,
    apply_move,
    format_move,
    get_variant,
    legal_moves,
    parse_move,
)
from engine.search import (
    LEVELS,
    MATE_BOUND,
    POLL_MASK,
    SearchResult,
    _Searcher,
    _side_relative,
    search,
)
from engine.search_keys import PIECE_KEYS, piece_keys, position_key
from engine.variants import BRAZILIAN, ENGLISH, INTERNATIONAL, RUSSIAN
from tests.support.material import brute_force, material


@dataclass(frozen=True)
class Shot:
    name: str
    variant: str
    fen: str
    flip: bool  # turn the position 180 degrees with colours swapped (Black to move)
    best: str  # the winning move, written for the position as searched
    line: tuple[str, ...]  # the forced continuation after it


SHOTS = [
    # Italian, two for one. White men b1, c2, d3, f3; Black men d5, f5, h7, e8, g8.
    # d3-e4 offers a man: Black must capture and only f5xd3 is possible (d5xf3 is blocked
    # by the man on f3; from d3 the black man cannot go on: c2 is guarded by b1 behind
    # it, e2 is empty). Then c2 jumps d3 to e4 and goes on over d5 to c6: two for one.
    # Every other move loses a man (b1-a2 unguards b1 so the capture would run on over
    # c2; c2-b3 leaves nothing to recapture; f3 and d3-c4 walk into captures).
    Shot("italian two for one", "italian", "W:Wb1,c2,d3,f3:Bd5,f5,e8,g8,h7", False,
         "d3-e4", ("f5xd3", "c2xe4xc6")),
    # Moroccan, the same shot turned 180 degrees with colours swapped: Black to move
    # plays e6-d5, White must take c4xe6, and f7 takes back two (f7xd5xf3).
    Shot("moroccan two for one (Black)", "moroccan", "W:Wb1,c2,d3,f3:Bd5,f5,e8,g8,h7", True,
         "e6-d5", ("c4xe6", "f7xd5xf3")),
    # Italian ladder. White king d3, men c4, e2; Black king e6, men c6, f5. c4-d5 offers a
    # man that the black man c6 (c6xe4) and the black king e6 (e6xc4) could both take,
    # one piece each. The ladder's second step (a king's capture before a man's) leaves
    # only e6xc4; the king cannot go on (d3 is backed by e2; b3, b5 are empty). Then the
    # white king d3 jumps the black king on c4 to b5 and the man c6 to d7. A search
    # ignoring the ladder would fear c6xe4 instead.
    Shot("italian ladder wins the king", "italian", "W:WKd3,c4,e2:BKe6,c6,f5", False,
         "c4-d5", ("e6xc4", "d3xb5xd7")),
    # Turkish king sweep. White king e1, man e4; Black men c6, e6, b7, g7, h7. e4-e5
    # offers the man: e6 must take it (e6xe4). That opens the e-file: the white king
    # flies e1 over e4 to e6, turns west over c6 to b6, turns north over b7 to b8: the
    # maximum capture, three men for one.
    Shot("turkish king sweep", "turkish", "W:WKe1,e4:Bc6,e6,b7,g7,h7", False,
         "e4-e5", ("e6xe4", "e1xe6xb6xb8")),
    # Arab, men only. White c4, d4, d5, e4; Black f5, e6, a7, b7, f7, h7. e4-e5 offers the
    # man: e6xe4 is the only capture (f5 cannot take sideways to d5, which is occupied;
    # from e4 the black man cannot go on over d4 because c4 is occupied). Then d4 jumps
    # east over e4 to f4, north over f5 to f6 and over f7 to f8, where it is crowned:
    # three men and a king for one man.
    Shot("arab breakthrough", "arab", "W:Wc4,d4,d5,e4:Bf5,e6,a7,b7,f7,h7", False,
         "e4-e5", ("e6xe4", "d4xf4xf6xf8")),
]


def _position(shot: Shot) -> tuple[Position, Variant]:
    variant = get_variant(shot.variant)
    position = Position.from_fen(shot.fen, variant)
    return (position.flipped() if shot.flip else position), variant


@pytest.mark.parametrize("shot", SHOTS, ids=lambda s: s.name)
def test_position_has_one_winning_move(shot: Shot) -> None:
    position, variant = _position(shot)
    best = parse_move(shot.best, position, variant)
    values = {m: -brute_force(apply_move(position, m, variant), variant, 2)
              for m in legal_moves(position, variant)}
    assert values[best] > material(position)  # it wins material...
    assert all(v < values[best] for m, v in values.items() if m != best)  # ...and alone
    # The forced line as the comment tells it.
    after = apply_move(position, best, variant)
    reply = parse_move(shot.line[0], after, variant)
    assert legal_moves(after, variant) == [reply]


@pytest.mark.parametrize("shot", SHOTS, ids=lambda s: s.name)
def test_search_finds_the_winning_move(shot: Shot) -> None:
    position, variant = _position(shot)
    result = search(position, variant, depth=3)
    assert result.move is not None
    assert format_move(result.move, position, variant) == shot.best
    pv = [format_move(m, p, variant, full=True) for m, p in _walk(position, variant, result)]
    assert pv[: 1 + len(shot.line)] == [shot.best, *shot.line]
    # Half a man or more above the material before the shot, and not a forced win.
    assert 100 * material(position) + 50 <= result.score < MATE_BOUND


def _walk(
    position: Position, variant: Variant, result: SearchResult
) -> list[tuple[Move, Position]]:
    out = []
    for move in result.pv:
        out.append((move, position))
        position = apply_move(position, move, variant)
    return out


def test_italian_ladder_leaves_only_the_king_capture() -> None:
    variant = get_variant("italian")
    position = Position.from_fen("W:WKd3,c4,e2:BKe6,c6,f5", variant)
    after = apply_move(position, parse_move("c4-d5", position, variant), variant)
    assert [format_move(m, after, variant) for m in legal_moves(after, variant)] == ["e6xc4"]


# --- legality on random positions ----------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> tuple[Position, Variant]:
    variant = get_variant(draw(st.sampled_from(["turkish", "arab", "moroccan", "italian"])))
    squares = [sq for sq in range(64) if variant.is_playable(sq)]
    chosen = draw(st.lists(st.sampled_from(squares), min_size=2, max_size=14, unique=True))
    boards = [0, 0, 0, 0]  # white men, white kings, black men, black kings
    for i, sq in enumerate(chosen):
        white = i % 2 == 0
        rank = sq >> 3
        king = draw(st.booleans()) or rank == (7 if white else 0)
        boards[(0 if white else 2) + (1 if king else 0)] |= 1 << sq
    turn = draw(st.sampled_from([Color.WHITE, Color.BLACK]))
    return Position(boards[0], boards[1], boards[2], boards[3], turn), variant


@seed(20261130)
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.sampled_from([1, 3, 5]))
def test_search_returns_a_legal_move(case: tuple[Position, Variant], level: int) -> None:
    position, variant = case
    legal = legal_moves(position, variant)
    result = search(position, variant, depth=2, level=level, seed=3)
    if legal:
        assert result.move in legal
        assert result.pv[0] == result.move
    else:
        assert result.move is None and result.score < -MATE_BOUND


# --- stopping and reproducibility ----------------------------------------------------


class StopAfter:
    """A stop signal that reads False `calls` times, then True (no clock involved)."""

    def __init__(self, calls: int) -> None:
        self.calls = calls
        self.read = 0

    def is_set(self) -> bool:
        self.read += 1
        return self.read > self.calls


@pytest.mark.parametrize("key", ["turkish", "italian"])
def test_stop_set_before_the_search_returns_a_legal_move_at_once(key: str) -> None:
    variant = get_variant(key)
    position = Position.start(variant)
    stop = threading.Event()
    stop.set()
    result = search(position, variant, depth=30, stop=stop)
    assert result.move in legal_moves(position, variant)
    assert result.nodes == 0 and result.depth == 0 and result.stopped


@pytest.mark.parametrize("key", ["arab", "moroccan"])
def test_stop_during_the_search_is_honoured_within_a_poll(key: str) -> None:
    variant = get_variant(key)
    position = Position.start(variant)
    stop = StopAfter(20)
    result = search(position, variant, depth=30, stop=stop)
    assert result.stopped
    assert result.move in legal_moves(position, variant)
    # Polled at each iteration and every POLL_MASK + 1 nodes: at most 20 polls' worth.
    assert result.nodes <= 21 * (POLL_MASK + 1)
    assert 1 <= result.depth < 30


@pytest.mark.parametrize("key", ["turkish", "arab", "moroccan", "italian"])
def test_same_depth_and_seed_give_the_same_result(key: str) -> None:
    variant = get_variant(key)
    position = Position.start(variant)
    for level in (2, 5):
        first = search(position, variant, depth=4, level=level, seed=11)
        second = search(position, variant, depth=4, level=level, seed=11)
        assert (first.move, first.score, first.pv, first.nodes) == (
            second.move, second.score, second.pv, second.nodes
        )


def test_lower_levels_choose_among_several_good_moves_level_5_among_one() -> None:
    variant = get_variant("italian")
    position = Position.start(variant)
    assert search(position, variant, depth=2, level=5).candidates == 1
    low = search(position, variant, depth=2, level=1)
    assert low.candidates > 1
    picks = {search(position, variant, depth=2, level=1, seed=s).move for s in range(12)}
    assert len(picks) > 1


def test_levels_search_less_below_level_5() -> None:
    depths = [LEVELS[n].max_depth for n in range(1, 6)]
    margins = [LEVELS[n].margin for n in range(1, 6)]
    assert depths == sorted(depths) and margins == sorted(margins, reverse=True)
    assert margins[-1] == 0


def test_one_piece_each_is_a_draw_in_turkish_but_not_in_italian() -> None:
    # White king a1 against a black king h8, White to move, nothing to capture: Turkish
    # and Arab draw at once (docs/RULES.md); the search scores it 0 at any depth.
    turkish = get_variant("turkish")
    position = Position.from_fen("W:WKa1:BKh8", turkish)
    assert search(position, turkish, depth=3).score == 0


@pytest.mark.parametrize("bad", [{"level": 0}, {"level": 6}, {"depth": 0}, {"time_budget": -1.0}])
def test_bad_arguments_are_refused(bad: dict[str, float]) -> None:
    variant = get_variant("italian")
    with pytest.raises(ValueError, match=r"level|depth|budget"):
        search(Position.start(variant), variant, **bad)  # type: ignore[arg-type]


def _window_cases() -> list[tuple[Position, Variant, int]]:
    """Positions of the four variants to ask bounded questions about: the shots above and
    positions after eight plies of a level-3 game from the start."""
    cases = [(*_position(shot), 4) for shot in SHOTS]
    for key in ("turkish", "arab", "moroccan", "italian"):
        variant = get_variant(key)
        position = Position.start(variant)
        for ply in range(8):
            move = search(position, variant, depth=2, level=3, seed=ply).move
            assert move is not None
            position = apply_move(position, move, variant)
        cases.append((position, variant, 4))
    return cases


@pytest.mark.parametrize("case", _window_cases(), ids=lambda c: f"{c[1].key}-{c[0].to_fen(c[1])}")
def test_a_window_answers_where_the_exact_score_lies(case: tuple[Position, Variant, int]) -> None:
    # The reference is the search without a window (its exact score); a windowed search
    # is fail-soft: at most `low` only when the exact score is at most that, at least
    # `high` only when it is at least that, the exact score when inside the window.
    position, variant, depth = case
    exact = search(position, variant, depth=depth).score
    for low, high in ((exact - 1, exact), (exact, exact + 1), (exact - 50, exact + 50),
                      (exact + 30, exact + 31), (exact - 31, exact - 30)):
        bounded = search(position, variant, depth=depth, window=(low, high))
        if bounded.score <= low:
            assert exact <= bounded.score, (low, high, bounded.score)
        elif bounded.score >= high:
            assert exact >= bounded.score, (low, high, bounded.score)
        else:
            assert bounded.score == exact, (low, high)
        assert (bounded.score <= low) == (exact <= low)
        assert (bounded.score >= high) == (exact >= high)


@pytest.mark.parametrize("bad", [{"window": (10, 10)}, {"window": (10, 11), "level": 3}])
def test_an_empty_window_or_one_below_level_5_is_refused(bad: dict[str, object]) -> None:
    variant = get_variant("italian")
    with pytest.raises(ValueError, match="window"):
        search(Position.start(variant), variant, depth=2, **bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("searcher", [Color.WHITE, Color.BLACK])
def test_search_wins_international_games_against_random_moves(searcher: Color) -> None:
    # The 10x10 board: square tables, crowning ranks, Zobrist keys and history by board size.
    game = Game(INTERNATIONAL)
    rng = random.Random(24)
    while game.outcome is None and game.ply < 300:
        if game.position.turn is searcher:
            result = search(game.position, INTERNATIONAL, depth=3,
                            history=game.positions()[:-1],
                            no_progress_plies=game.no_progress_plies)
            assert result.move is not None
            game.play(result.move)
        else:
            game.play(rng.choice(game.legal_moves()))
    assert game.outcome is not None and game.outcome.winner is searcher


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_answers_a_legal_international_move(level: int) -> None:
    # How long each level takes is measured in benchmarks/, not asserted here.
    start = Position.start(INTERNATIONAL)
    result = search(start, INTERNATIONAL, level=level, seed=level)
    assert result.move in legal_moves(start, INTERNATIONAL)
    assert 1 <= result.depth <= LEVELS[level].max_depth
    assert result.pv[0] == result.move and len(result.pv) <= max(result.depth, 1)


def test_international_search_keys_follow_the_moves() -> None:
    # The search updates its keys move by move, crowning included (`_Searcher.child`); on
    # the 10x10 board they must stay the full key of the position reached, from the board's
    # own table.
    searcher = _Searcher(INTERNATIONAL, None, None, ())
    rng = random.Random(10)
    game = Game(INTERNATIONAL)
    crowned = 0
    while game.outcome is None:
        here = game.position
        move = rng.choice(game.legal_moves())
        cm = sum(1 << sq for sq in move.captured)
        um, uk, tm, tk, c = _side_relative(here)
        *_, key = searcher.child(um, uk, tm, tk, c, position_key(here),
                                 (move.start, move.end, cm))
        game.play(move)
        assert key == position_key(game.position)
        crowned += bool(game.position.kings(here.turn) >> move.end & 1
                        and here.men(here.turn) >> move.start & 1)
    assert crowned >= 1
    assert len(piece_keys(10)[0][0]) == 100 and piece_keys(8) == PIECE_KEYS


def test_a_transposition_on_the_10x10_board_has_one_key() -> None:
    start = Position.start(INTERNATIONAL)
    one = _after(start, "31-26", "20-25", "32-27", "19-24")
    other = _after(start, "32-27", "19-24", "31-26", "20-25")
    assert one == other and position_key(one) == position_key(other)
    assert position_key(start) != position_key(start.with_turn(Color.BLACK))


def _after(position: Position, *moves: str) -> Position:
    for text in moves:
        position = apply_move(position, parse_move(text, position, INTERNATIONAL),
                              INTERNATIONAL)
    return position


@pytest.mark.parametrize("variant", [BRAZILIAN, RUSSIAN, ENGLISH], ids=lambda v: v.key)
def test_search_wins_an_a1_dark_8x8_game_against_random_moves(variant: Variant) -> None:
    # The a1-dark variants of the 8x8 board (docs/RULES.md, "Family 3") through the
    # search, the game and its outcome: men capturing backward and no crowning mid-capture
    # (Brazilian), free choice of capture (and, in Russian, a man crowned mid-capture going
    # on as a king) in the search's capture lists and successor positions; the side that
    # moves first (White, Black in English checkers) is the search's.
    game = Game(variant)
    searcher = game.position.turn
    rng = random.Random(5)
    for ply in range(200):
        if game.outcome is not None:
            break
        if ply % 2 == 0:
            move = search(game.position, variant, depth=4).move
            assert move is not None
            game.play(move)
        else:
            game.play(rng.choice(legal_moves(game.position, variant)))
    assert game.outcome is not None and game.outcome.winner is searcher


def test_a_man_crowned_during_a_capture_inside_the_search_is_a_king() -> None:
    # Russian: after a king move of White's, Black's man takes c3xe1xh4, crowned on e1 as
    # it passes and a king on h4 (docs/RULES.md, "Russian draughts"). White has no forced
    # win: the independent count over the public API finds a man up at best after three
    # plies, and the search, whose successor positions must crown that man, finds no mate.
    position = Position.from_fen("W:Wd2,g3,Kb4:Bc3", RUSSIAN)
    assert brute_force(position, RUSSIAN, 3) == 1
    assert abs(search(position, RUSSIAN, depth=3).score) < MATE_BOUND
