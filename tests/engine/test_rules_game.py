"""Win and draw rules of docs/RULES.md played through ``engine.Game``, in both colours.

Every sequence of moves below is first checked against the independent reference generator
(each move legal and quiet where the rule needs it), so a failure here is the engine's
Game, not a malformed test.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import engine

from .oracles.board import (
    identity,
    parse_fen,
    rotate_fen,
    rotate_notation,
    to_fen,
)
from .oracles.reference import apply_route, legal_moves
from .oracles.rulecases import route_from_notation

COLOURS = ("white", "black")


def turned(colour: str, fen: str, moves: Sequence[str]) -> tuple[str, list[str]]:
    if colour == "white":
        return fen, list(moves)
    return rotate_fen(fen), [rotate_notation(m) for m in moves]


def winner(colour: str, white_wins: bool) -> engine.Color:
    """The winner in the given colouring of a case written with White winning."""
    if (colour == "white") == white_wins:
        return engine.Color.WHITE
    return engine.Color.BLACK


def checked(variant: str, fen: str, moves: Sequence[str], *, quiet: bool = False) -> None:
    """Assert the sequence is legal by the reference generator (and, if ``quiet``, that no
    capture was available on any ply), and that no position occurs three times."""
    board, side = parse_fen(fen)
    seen = {to_fen(board, side): 1}
    for ply, text in enumerate(moves, start=1):
        legal = legal_moves(board, side, variant)
        route = route_from_notation(board, side, variant, text)
        assert identity(route) in legal, f"{text} is not legal in {to_fen(board, side)}"
        if quiet:
            assert not any(key[2] for key in legal), f"a capture is available before {text}"
        board, side = apply_route(board, side, legal[identity(route)][0], variant)
        key = to_fen(board, side)
        seen[key] = seen.get(key, 0) + 1
        assert seen[key] < 3 or ply == len(moves), f"{key} occurs three times"


def new_game(variant: str, fen: str) -> engine.Game:
    v = engine.get_variant(variant)
    return engine.Game(v, engine.Position.from_fen(fen, v))


def play_until(game: engine.Game, moves: Sequence[str]) -> None:
    """Play every move but the last; the game must still be running after each."""
    for ply, text in enumerate(moves[:-1], start=1):
        game.play(text)
        assert game.outcome is None, f"game ended after ply {ply} ({text}): {game.outcome}"


# --- wins ------------------------------------------------------------------------------------

NO_PIECES = [
    ("turkish", "W:Wa2,d4:Bd5", ["d4xd6"]),
    ("arab", "W:Wa2,d4:Bd5", ["d4xd6"]),
    ("moroccan", "W:Wd3:Bc4", ["d3xb5"]),
    ("italian", "W:Wd3:Bc4", ["d3xb5"]),
]


@pytest.mark.parametrize("colour", COLOURS)
@pytest.mark.parametrize(("variant", "fen", "moves"), NO_PIECES)
def test_win_when_the_opponent_has_no_pieces(
    variant: str, fen: str, moves: list[str], colour: str
) -> None:
    fen, moves = turned(colour, fen, moves)
    checked(variant, fen, moves)
    game = new_game(variant, fen)
    play_until(game, moves)
    game.play(moves[-1])
    assert game.outcome == engine.Outcome(engine.Termination.NO_PIECES, winner(colour, True))


BLOCKED = [
    # Black's man a2: a1 and b2 are taken, c2 is taken so b2 cannot be jumped.
    ("turkish", "W:WKa1,a3,b2,c2:Ba2", ["a3-a4"]),
    ("arab", "W:WKa1,a3,b2,c2:Ba2", ["a3-a4"]),
    # Black's man a2: b1 is taken and there is no square beyond it.
    ("moroccan", "W:WKb1,d3:Ba2", ["d3-e4"]),
    ("italian", "W:WKb1,d3:Ba2", ["d3-e4"]),
]


@pytest.mark.parametrize("colour", COLOURS)
@pytest.mark.parametrize(("variant", "fen", "moves"), BLOCKED)
def test_win_when_the_opponent_has_no_legal_move_all_blocked(
    variant: str, fen: str, moves: list[str], colour: str
) -> None:
    fen, moves = turned(colour, fen, moves)
    checked(variant, fen, moves)
    game = new_game(variant, fen)
    play_until(game, moves)
    game.play(moves[-1])
    assert game.outcome == engine.Outcome(engine.Termination.NO_LEGAL_MOVE, winner(colour, True))


# --- one piece each (Turkish, Arab) --------------------------------------------------------------

# After d4xd6 each side has one piece; Black's king h6 could capture d6 at once: still a draw.
ONE_EACH_FEN, ONE_EACH_MOVES = "W:Wd4:Bd5,Kh6", ["d4xd6"]


@pytest.mark.parametrize("colour", COLOURS)
@pytest.mark.parametrize("variant", ["turkish", "arab"])
def test_one_piece_each_is_an_immediate_draw(variant: str, colour: str) -> None:
    fen, moves = turned(colour, ONE_EACH_FEN, ONE_EACH_MOVES)
    checked(variant, fen, moves)
    game = new_game(variant, fen)
    game.play(moves[0])
    assert game.outcome == engine.Outcome(engine.Termination.ONE_PIECE_EACH, None)


@pytest.mark.parametrize("colour", COLOURS)
@pytest.mark.parametrize("variant", ["moroccan", "italian"])
def test_one_piece_each_is_no_draw_in_the_diagonal_family(variant: str, colour: str) -> None:
    fen, moves = turned(colour, "W:Wd3:Bc4,Kg8", ["d3xb5"])
    checked(variant, fen, moves)
    game = new_game(variant, fen)
    game.play(moves[0])
    assert game.outcome is None


# --- threefold repetition (all variants) ------------------------------------------------------

REPETITION = {
    "turkish": ("W:WKa1,g2:BKh8,b7", ["a1-a2", "h8-h7", "a2-a1", "h7-h8"] * 2),
    "arab": ("W:WKa1,g2:BKh8,b7", ["a1-a2", "h8-h7", "a2-a1", "h7-h8"] * 2),
    "moroccan": ("W:WKb1:BKg8", ["b1-a2", "g8-h7", "a2-b1", "h7-g8"] * 2),
    "italian": ("W:WKb1:BKg8", ["b1-a2", "g8-h7", "a2-b1", "h7-g8"] * 2),
}


@pytest.mark.parametrize("colour", COLOURS)
@pytest.mark.parametrize("variant", sorted(REPETITION))
def test_threefold_repetition_draws(variant: str, colour: str) -> None:
    # the start position occurs at plies 0, 4 and 8: the draw comes with ply 8, not before
    fen, moves = turned(colour, *REPETITION[variant])
    checked(variant, fen, moves, quiet=True)
    game = new_game(variant, fen)
    play_until(game, moves)
    game.play(moves[-1])
    assert game.outcome == engine.Outcome(engine.Termination.REPETITION, None)


# --- no-progress counts ---------------------------------------------------------------------------


def cycle_moves(squares: Sequence[str], count: int) -> list[str]:
    """``count`` moves of one king walking round ``squares`` (back to the first after the last)."""
    return [f"{squares[i % len(squares)]}-{squares[(i + 1) % len(squares)]}" for i in range(count)]


def interleave(white: Sequence[str], black: Sequence[str], plies: int) -> list[str]:
    return [white[i // 2] if i % 2 == 0 else black[i // 2] for i in range(plies)]


def orthogonal_walk(black_cycle: Sequence[str], plies: int) -> tuple[str, list[str]]:
    """White's king walks a4..a8 and back, Black's king walks the h-file; White's men b6 and
    c6 stand side by side, so no capture is ever possible."""
    white = cycle_moves(["a4", "a5", "a6", "a7", "a8"], plies)
    black = cycle_moves(black_cycle, plies)
    return "W:WKa4,b6,c6:BKh1", interleave(white, black, plies)


SEVEN_H = ["h1", "h2", "h3", "h4", "h5", "h6", "h7"]
THREE_H = ["h1", "h2", "h3"]

# Italian: short kings on a 6-cycle and an 8-cycle that never come next to each other.
ITALIAN_WHITE = ["b1", "c2", "d3", "c4", "b3", "a2"]
ITALIAN_BLACK = ["g8", "h7", "g6", "f5", "e6", "d7", "e8", "f7"]


def moroccan_walk(plies: int) -> tuple[str, list[str]]:
    """Flying kings that only ever stand on edge squares (nothing can be captured there: no
    square lies beyond). White's two kings run 4-cycles in a 16-state snake, Black's two
    kings a 6-state cycle, so no position occurs twice within 80 plies."""
    a = ["a2", "b1", "h7", "g8"]
    b = ["a4", "d1", "h5", "e8"]
    c = ["a6", "f1", "h3", "c8"]
    d = ["a8", "h1"]
    white: list[str] = []
    i = j = 0
    for step in range(16):
        if step % 4 == 3:  # move the second king once after three moves of the first
            white.append(f"{b[j]}-{b[(j + 1) % 4]}")
            j = (j + 1) % 4
        else:
            white.append(f"{a[i]}-{a[(i + 1) % 4]}")
            i = (i + 1) % 4
    black = [f"{c[0]}-{c[1]}", f"{c[1]}-{c[2]}", f"{d[0]}-{d[1]}"]
    black += [f"{c[2]}-{c[1]}", f"{c[1]}-{c[0]}", f"{d[1]}-{d[0]}"]
    white = (white * 6)[: (plies + 1) // 2]
    black = (black * 14)[: plies // 2]
    return "W:WKa2,Ka4:BKa6,Ka8", interleave([*white, ""], [*black, ""], plies)


NO_PROGRESS_80 = {
    "arab": orthogonal_walk(SEVEN_H, 80),
    "moroccan": moroccan_walk(80),
    "italian": (
        "W:WKb1:BKg8",
        interleave(cycle_moves(ITALIAN_WHITE, 40), cycle_moves(ITALIAN_BLACK, 40), 80),
    ),
}


@pytest.mark.parametrize("colour", COLOURS)
@pytest.mark.parametrize("variant", sorted(NO_PROGRESS_80))
def test_80_plies_without_capture_or_man_move_draw(variant: str, colour: str) -> None:
    fen, moves = turned(colour, *NO_PROGRESS_80[variant])
    assert len(moves) == 80
    checked(variant, fen, moves, quiet=True)
    game = new_game(variant, fen)
    play_until(game, moves)  # plies 1..79: no draw yet
    game.play(moves[-1])
    assert game.outcome == engine.Outcome(engine.Termination.MOVE_LIMIT, None)


@pytest.mark.parametrize("colour", COLOURS)
def test_turkish_30_plies_of_kings_only_draw(colour: str) -> None:
    fen, moves = turned(colour, *orthogonal_walk(THREE_H, 30))
    checked("turkish", fen, moves, quiet=True)
    game = new_game("turkish", fen)
    play_until(game, moves)  # plies 1..29: no draw yet
    game.play(moves[-1])
    assert game.outcome == engine.Outcome(engine.Termination.MOVE_LIMIT, None)


@pytest.mark.parametrize("colour", COLOURS)
def test_turkish_kings_only_count_restarts_after_a_man_move(colour: str) -> None:
    # 20 king plies, a man move (White's c6-c7), then 29 king plies: no draw; the 30th draws.
    _, first = orthogonal_walk(THREE_H, 20)
    white = cycle_moves(["a4", "a5", "a6", "a7", "a8"], 40)[10:]
    black = cycle_moves(THREE_H, 40)[10:]
    rest = interleave(black, white, 30)  # Black moves first after White's man move
    fen, moves = turned(colour, "W:WKa4,b6,c6:BKh1", [*first, "c6-c7", *rest])
    checked("turkish", fen, moves)
    game = new_game("turkish", fen)
    play_until(game, moves)
    game.play(moves[-1])
    assert game.outcome == engine.Outcome(engine.Termination.MOVE_LIMIT, None)


@pytest.mark.parametrize("colour", COLOURS)
def test_arab_has_no_30_ply_kings_only_rule(colour: str) -> None:
    fen, moves = turned(colour, *orthogonal_walk(SEVEN_H, 31))
    checked("arab", fen, moves, quiet=True)
    game = new_game("arab", fen)
    for text in moves:
        game.play(text)
    assert game.outcome is None


def test_crowned_man_is_a_king_after_the_move() -> None:
    # Turkish: c6xc8xe8 ends on the far rank: crowned. Diagonal: c6xe8 crowns and ends.
    for variant, fen, move, square in (
        ("turkish", "W:Wc6:Bc7,d8,e5", "c6xc8xe8", "e8"),
        ("italian", "W:Wc6:Bd7,f7", "c6xe8", "e8"),
        ("moroccan", "W:Wc6:Bd7,f7", "c6xe8", "e8"),
    ):
        game = new_game(variant, fen)
        game.play(move)
        piece = game.position.piece_at(engine.parse_square(square))
        assert piece == engine.Piece(engine.Color.WHITE, engine.PieceKind.KING), variant


@pytest.mark.parametrize("colour", COLOURS)
@pytest.mark.parametrize(("variant", "fen", "moves"), BLOCKED)
def test_a_game_starting_without_a_legal_move_is_lost_at_once(
    variant: str, fen: str, moves: list[str], colour: str
) -> None:
    # the position after the blocking move, given as the start: the side to move has no move
    fen, moves = turned(colour, fen, moves)
    board, side = parse_fen(fen)
    route = route_from_notation(board, side, variant, moves[0])
    blocked = to_fen(*apply_route(board, side, route, variant))
    assert not legal_moves(*parse_fen(blocked), variant)
    v = engine.get_variant(variant)
    game = engine.Game(v, engine.Position.from_fen(blocked, v))
    assert game.outcome == engine.Outcome(engine.Termination.NO_LEGAL_MOVE, winner(colour, True))


@pytest.mark.parametrize("variant", ["turkish", "arab", "moroccan", "italian"])
@pytest.mark.parametrize(
    ("action", "termination", "winner_"),
    [
        ("resign-white", engine.Termination.RESIGNATION, engine.Color.BLACK),
        ("resign-black", engine.Termination.RESIGNATION, engine.Color.WHITE),
        ("agree", engine.Termination.AGREEMENT, None),
        ("time-white", engine.Termination.TIME_FORFEIT, engine.Color.BLACK),
        ("time-black", engine.Termination.TIME_FORFEIT, engine.Color.WHITE),
    ],
)
def test_resignation_agreement_and_time_forfeit_end_the_game(
    variant: str, action: str, termination: engine.Termination, winner_: engine.Color | None
) -> None:
    v = engine.get_variant(variant)
    game = engine.Game(v)
    game.play(game.legal_moves()[0])
    if action == "agree":
        game.agree_draw()
    else:
        kind, colour = action.split("-")
        loser = engine.Color.WHITE if colour == "white" else engine.Color.BLACK
        (game.resign if kind == "resign" else game.forfeit_on_time)(loser)
    assert game.outcome == engine.Outcome(termination, winner_)
    with pytest.raises(engine.GameOverError):
        game.play(engine.legal_moves(game.position, v)[0])


@pytest.mark.parametrize("colour", COLOURS)
def test_no_progress_count_restarts_after_a_man_move(colour: str) -> None:
    # Italian: 40 king plies, White's man g2-h3, then 80 king plies: the draw comes with the
    # 80th ply after the man move, not before.
    white = cycle_moves(ITALIAN_WHITE, 60)
    black = cycle_moves(ITALIAN_BLACK, 60)
    first = interleave(white[:20], black[:20], 40)
    rest = interleave(black[20:], white[20:], 80)  # Black moves first after the man move
    fen, moves = turned(colour, "W:WKb1,g2:BKg8", [*first, "g2-h3", *rest])
    checked("italian", fen, moves, quiet=True)
    game = new_game("italian", fen)
    play_until(game, moves)
    game.play(moves[-1])
    assert game.outcome == engine.Outcome(engine.Termination.MOVE_LIMIT, None)
