"""Move notation: reading forgiving player input and writing the shortest clear text.

Forms (docs/RULES.md, "Coordinates and notation"):
- a quiet move ``d3-d4``; a capture ``d3xd5xf5`` (full form: every landing square) or the
  short form ``d3xf5`` (start and end) where that identifies one move;
- input is forgiving: any case, separators ``-``, ``x``, ``:``, any whitespace or none
  (``d3d4``, ``D3-D4``, ``d3 d4``), Unicode dashes and the times sign as separators,
  full-width and superscript forms read as plain ones, intermediate landing squares
  optional; error messages repeat at most the first 40 characters of the input;
- numeric squares where the variant's players write them (`Variant.numeric_notation`),
  numbered on the variant's own board (`Variant.a1_dark`, `engine.squares_board`): Italian
  ``22-18``, ``22x13`` and English checkers ``11-15``, ``22x15`` (1..32); International
  draughts, on its 10×10 board (squares a1..j10), the FMJD's numbers 1..50: ``32-28``,
  ``28x19``;
- Russian literature writes a capture with a colon (``c3:e5``): it is read (``:`` is a
  separator) and written with ``x`` as in every variant (docs/RULES.md, "Russian draughts").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from engine.capture_graph import CaptureGraph, WalkTooLong
from engine.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    MalformedMoveError,
    MoveProblem,
    NotationError,
    quoted,
)
from engine.movegen import MoveTable, move_table
from engine.moves import Move
from engine.pieces import PieceKind
from engine.position import Position, dark_squares_hint
from engine.squares_board import move_name, name_on, number_of, numeric_squares, square_of
from engine.variants import CapturePrecedence, Variant


@dataclass(frozen=True, slots=True)
class _Index:
    """A position's move table, with its legal moves by identity key (start, end,
    captured bitboard)."""

    table: MoveTable
    by_key: Mapping[tuple[int, int, int], Move]


@lru_cache(maxsize=4)
def _index(position: Position, variant: Variant) -> _Index:
    # Cached for the last few positions: formatting every legal move of a position (a move
    # list, an autocomplete) then builds its table once, not once per move. Few, because a
    # table with tens of thousands of capture states holds several megabytes.
    table = move_table(position, variant)
    return _Index(table, {_key(m): m for m in table.moves})


def _key(move: Move) -> tuple[int, int, int]:
    cm = 0
    for sq in move.captured:
        cm |= 1 << sq
    return (move.start, move.end, cm)


#: Most capture states an error message looks through to say why a capture is illegal
#: (a longer one is due, the capture rules prefer another, it stops short); past that it
#: says only that a capture is due. Bounds the time of a wrong move in a position with
#: tens of thousands of capture states.
EXPLAIN_BUDGET = 2_000

#: Most sets of landing squares tried when looking for a short form before writing the full
#: path (always unambiguous). Each try is one walk over the moving piece's capture states.
SHORT_FORM_BUDGET = 200

#: Most capture states the tries for one move's short form may walk through in all (tries
#: times the piece's states): fewer tries for a piece with many states. Without it, writing
#: every move of a position with a few hundred states took seconds (the autocomplete lists
#: them all); past it the full path is written.
SHORT_FORM_WORK = 4_000

# Separators between squares (after NFKC normalisation, which turns full-width forms and
# no-break spaces into plain ones): any whitespace, plus these. Besides `-`, `x` and `:`:
# the hyphen, non-breaking hyphen, figure dash, en dash, em dash, horizontal bar, minus
# sign and the times sign that phones and word processors put in their place.
_SEPARATORS = "-x:\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u00d7"
_ANNOTATIONS = "!?+#*"


def _tokenize(text: str, variant: Variant) -> list[int]:
    """The squares of move text `text`, or MalformedMoveError saying what is wrong.

    The text is NFKC-normalised first (full-width letters and digits, superscript digits and
    no-break spaces read as their plain forms); numbers may use any script's decimal digits.
    """
    t = unicodedata.normalize("NFKC", text).strip().lower().rstrip(_ANNOTATIONS).strip()
    if not t:
        raise MalformedMoveError("the move is empty: type one such as d3-d4", MoveProblem.EMPTY)
    shown = quoted(text.strip())
    example = "22-18 or d3-d4" if variant.numeric_notation else "d3-d4"
    squares: list[int] = []
    algebraic = numeric = False
    i = 0
    n = len(t)
    last_was_number = False
    while i < n:
        ch = t[i]
        if ch in _SEPARATORS or ch.isspace():
            i += 1
            last_was_number = False
            continue
        if "a" <= ch <= "z" and i + 1 < n and t[i + 1].isdecimal():
            sq, i = _algebraic_square(t, i, shown, variant.board_size)
            squares.append(sq)
            algebraic = True
            last_was_number = False
            continue
        if ch.isdecimal():
            j = i
            while j < n and t[j].isdecimal():
                j += 1
            if not variant.numeric_notation:
                raise MalformedMoveError(
                    f"{shown}: numeric squares are not used in {variant.name}; "
                    "name squares by letter and number, e.g. c3",
                    MoveProblem.NUMBERS_NOT_USED, {"variant": variant.key},
                )
            if last_was_number or j - i > 2:
                raise MalformedMoveError(
                    f"{shown}: separate numeric squares with - or x, e.g. 22-18",
                    MoveProblem.NUMBERS_RUN_TOGETHER,
                )
            number = int(t[i:j])
            if not 1 <= number <= numeric_squares(variant):
                raise MalformedMoveError(
                    f"{shown}: {number} is not a square; numeric squares run 1 to "
                    f"{numeric_squares(variant)}",
                    MoveProblem.NUMBER_OFF_BOARD, {"number": number},
                )
            squares.append(square_of(number, variant))
            numeric = True
            i = j
            last_was_number = True
            continue
        raise MalformedMoveError(
            f"{shown} is not a move: write the start and end squares, e.g. {example}",
            MoveProblem.NOT_A_MOVE,
        )
    if algebraic and numeric:
        raise MalformedMoveError(
            f"{shown} mixes numeric and algebraic squares: use one form, e.g. {example}",
            MoveProblem.MIXED_NOTATION,
        )
    if len(squares) < 2:
        raise MalformedMoveError(
            f"{shown} is not a move: give the start and the end square, e.g. {example}",
            MoveProblem.ONE_SQUARE,
        )
    return squares


def _algebraic_square(t: str, i: int, shown: str, size: int) -> tuple[int, int]:
    """The square named at `t[i]` (a letter followed by digits) on the `size` × `size`
    board, and the index after its name; MalformedMoveError naming a file letter and a rank
    off the board (d9, k3, a0, d10 on 8×8). `shown`: the move as quoted back."""
    j = i + 1
    while j < len(t) and t[j].isdecimal():
        j += 1
    file, digits = t[i], t[i + 1:j]
    last_file = chr(ord("a") + size - 1)
    rank = int(digits) if len(digits) <= 2 and digits.isascii() else 0
    if not ("a" <= file <= last_file and digits[0] != "0" and 1 <= rank <= size):
        raise MalformedMoveError(
            f"{shown}: {t[i:j]} is not a square; squares run from a1 to {last_file}{size}",
            MoveProblem.NOT_A_SQUARE, {"square": t[i:j]},
        )
    return (rank - 1) * size + ord(file) - ord("a"), j


def _matching(squares: list[int] | tuple[int, ...], index: _Index) -> list[Move]:
    """The legal moves with a route that starts and ends like `squares` and lands on the
    intermediate squares of `squares` in order (other landings in between allowed)."""
    start, end, middle = squares[0], squares[-1], squares[1:-1]
    graph = index.table.captures
    if graph is None:
        return [m for m in index.table.moves if m.start == start and m.end == end and not middle]
    return [index.by_key[key] for key in graph.matching(start, middle, end)]


def _square_text(sq: int, variant: Variant, numeric: bool) -> str:
    """Square `sq` as written on `variant`'s board: its number or its algebraic name."""
    return str(number_of(sq, variant)) if numeric else name_on(sq, variant.board_size)


def _text(
    path: tuple[int, ...] | list[int], capture: bool, numeric: bool, variant: Variant
) -> str:
    sep = "x" if capture else "-"
    return sep.join(_square_text(sq, variant, numeric) for sq in path)


def _full(move: Move, numeric: bool, variant: Variant) -> str:
    return _text(move.path, move.is_capture, numeric, variant)


def format_move(
    move: Move, position: Position, variant: Variant, *, full: bool = False, numeric: bool = False
) -> str:
    """`move` as text: the shortest form that identifies it among the legal moves of
    `position` (``d3-d4``, ``d3xf5``; with the landing squares that tell it apart from
    other captures with the same start and end, e.g. ``d1xd4xd6``), or with every landing
    square when `full` is true (``d3xd5xf5``). `numeric=True` writes numeric squares
    (Italian ``22x13``, English checkers ``22x15``). The short form names the fewest
    landing squares of the route, earliest first, that no winning route of another move
    passes in that order; the search for it stops after `SHORT_FORM_BUDGET` tries, or
    fewer for a piece with many capture states (`SHORT_FORM_WORK`), and writes the full
    path instead.

    Raises IllegalMoveError when `move` is not legal in `position`, NotationError when
    `numeric` is asked for a variant without numeric notation.
    """
    if numeric and not variant.numeric_notation:
        raise NotationError(
            f"{variant.name} has no numeric notation; use algebraic squares",
            MoveProblem.NO_NUMERIC_NOTATION, {"variant": variant.key},
        )
    index = _index(position, variant)
    merged = index.by_key.get(_key(move))
    if merged is None:
        shown = move_name(move, variant.board_size)
        raise IllegalMoveError(
            f"{shown} is not a legal move in this position", MoveProblem.NOT_LEGAL,
            {"move": shown},
        )
    graph = index.table.captures
    if graph is None:
        return _full(merged, numeric, variant)
    # Write the route the caller gave when it is one of the move's surviving routes.
    route = merged
    if move.landings != merged.landings and graph.wins(
        move.start, move.landings, move.captured
    ):
        route = move
    if full:
        return _full(route, numeric, variant)
    shared = sum(1 for m in index.table.moves if (m.start, m.end) == (route.start, route.end))
    if shared == 1:
        return _text((route.start, route.end), True, numeric, variant)
    # Other moves share the start and end: name landing squares of the route (in order)
    # that no surviving route of another move passes through in that order.
    inner = route.landings[:-1]
    budget = min(SHORT_FORM_BUDGET, SHORT_FORM_WORK // max(1, graph.states_from(route.start)))
    wanted = [_key(merged)]
    for k in range(1, len(inner) + 1):
        for chosen in combinations(inner, k):
            if budget <= 0:
                return _full(route, numeric, variant)
            budget -= 1
            if graph.matching(route.start, chosen, route.end) == wanted:
                return _text((route.start, *chosen, route.end), True, numeric, variant)
    return _full(route, numeric, variant)


def parse_move(text: str, position: Position, variant: Variant) -> Move:
    """The legal move of `position` that move text `text` names.

    Accepts ``d3-d4``, ``D3-D4``, ``d3d4``, ``d3 d4``, ``d3xf5`` (start and end of a
    capture), ``d3xd5xf5`` (with any of the landing squares), ``d3:f5`` (the Russian capture
    sign), and numeric squares where the variant uses them (Italian ``22-18``, ``22x13``;
    English checkers ``11-15``). Returns the move with its canonical route.

    Raises MalformedMoveError for text that is not move notation, IllegalMoveError (saying
    why) for a move that is not legal here, AmbiguousMoveError (with `candidates`) when the
    text matches several legal moves.
    """
    squares = _tokenize(text, variant)
    index = _index(position, variant)
    table = index.table
    found = _matching(squares, index)
    graph = table.captures
    if len(found) > 1 and graph is not None:
        # Under free choice a capture's whole path can also be a shorter form of a longer
        # capture with the same start and end (``c5xa7`` beside ``c5xe7xg5xe3xa7``): the
        # text that lists every landing square of a winning route names that route's move.
        exact = graph.matching(squares[0], squares[1:-1], squares[-1], exact=True)
        if len(exact) == 1:
            return index.by_key[exact[0]]
    if len(found) == 1:
        return found[0]
    numeric = (
        variant.numeric_notation
        and unicodedata.normalize("NFKC", text).strip()[:1].isdecimal()
    )
    if found:
        listed = ", ".join(_full(m, numeric, variant) for m in found)
        raise AmbiguousMoveError(
            f"{quoted(text.strip())} matches {len(found)} moves: {listed}; "
            "type one of them in full",
            tuple(found),
            MoveProblem.AMBIGUOUS,
            {"moves": listed},
        )
    message, reason, details = _why_illegal(
        quoted(text.strip()), squares, position, variant, table, numeric
    )
    raise IllegalMoveError(message, reason, details)


def _jumped_king(start: int, landing: int, position: Position) -> int | None:
    """The square of the opponent's king that a jump from `start` to `landing` (two squares
    along a line) would pass over, or None."""
    size = position.board_size
    df, dr = landing % size - start % size, landing // size - start // size
    if abs(df) not in (0, 2) or abs(dr) not in (0, 2) or df == dr == 0:
        return None
    over = start + (dr // 2) * size + df // 2
    piece = position.piece_at(over)
    if piece is None or piece.kind is not PieceKind.KING or piece.color is position.turn:
        return None
    return over


class _Explanation(NamedTuple):
    """Why a move is not legal: the English explanation, its reason and the details the
    reason's translations fill in (see `engine.errors.MoveProblem`)."""

    message: str
    reason: MoveProblem
    details: dict[str, str | int]


def _why_illegal(
    shown: str,
    squares: list[int],
    position: Position,
    variant: Variant,
    table: MoveTable,
    numeric: bool,
) -> _Explanation:
    """Why `squares` is not legal, looked at in this order: the squares named; a man
    jumping a king where men may not capture kings; the compulsory captures and their
    precedence (docs/RULES.md); then the piece's own moves. `shown`: the move as quoted
    back to the player; `numeric`: squares are written as numbers."""
    start = squares[0]
    name = _square_text(start, variant, numeric)
    found = _square_problem(shown, squares, name, position, variant, table)
    if found is not None:
        return found
    piece = position.piece_at(start)
    assert piece is not None  # _square_problem explains an empty start square
    examples = ", ".join(_full(m, numeric, variant) for m in table.moves[:4])
    if piece.kind is PieceKind.MAN and not variant.men_capture_kings:
        king = _jumped_king(start, squares[1], position)
        if king is not None:
            over = _square_text(king, variant, numeric)
            return _Explanation(
                f"{shown} is not legal: that piece cannot move there; in {variant.name} a "
                f"man may not capture a king (the king on {over}); play one of {examples}",
                MoveProblem.MAN_CANNOT_TAKE_KING, {"square": over, "moves": examples},
            )
    if table.captures is not None:
        return _capture_problem(shown, squares, variant, table.captures, examples)
    return _piece_problem(shown, start, name, piece.kind, table, numeric, examples, variant)


def _square_problem(
    shown: str,
    squares: list[int],
    name: str,
    position: Position,
    variant: Variant,
    table: MoveTable,
) -> _Explanation | None:
    """The problem of the squares named, whatever the move: no legal move at all, a light
    square, an empty start square or the opponent's piece there; None when there is none.
    name: the start square as the player wrote it."""
    side = position.turn.value.capitalize()
    if not table.moves:
        return _Explanation(
            f"{shown} is not legal: {side} has no legal move (the game is over)",
            MoveProblem.NO_LEGAL_MOVE, {},
        )
    light = next((sq for sq in squares if not variant.is_playable(sq)), None)
    if light is not None:
        return _Explanation(
            f"{shown} is not legal: {name_on(light, variant.board_size)} is a light square; "
            f"{variant.name} is played on the dark squares only ({dark_squares_hint(variant)})",
            MoveProblem.LIGHT_SQUARE, {"square": name_on(light, variant.board_size)},
        )
    piece = position.piece_at(squares[0])
    if piece is None:
        return _Explanation(
            f"{shown} is not legal: no piece of yours on {name} (the square is empty)",
            MoveProblem.EMPTY_SQUARE, {"square": name},
        )
    if piece.color is not position.turn:
        return _Explanation(
            f"{shown} is not legal: no piece of yours on {name} "
            f"(it holds a {piece.color.value} {piece.kind.value}; {side} is to move)",
            MoveProblem.OPPONENTS_PIECE, {"square": name},
        )
    return None


def _capture_problem(
    shown: str, squares: list[int], variant: Variant, graph: CaptureGraph, examples: str,
) -> _Explanation:
    """Why `squares` is not one of the compulsory captures of `graph`: a longer or a
    preferred capture exists, the capture stops short, or it is no capture at all.
    examples: some legal moves as the player would write them."""
    start, end, middle = squares[0], squares[-1], squares[1:-1]
    try:
        skipped = graph.matching(start, middle, end, winning=False, budget=EXPLAIN_BUDGET)
        short = not skipped and graph.stops_short(start, middle, end, EXPLAIN_BUDGET)
    except WalkTooLong:  # too many capture states to say more than that one is due
        skipped, short = [], False
    if skipped and variant.capture_precedence is CapturePrecedence.FREE_CHOICE:
        # every complete capture is legal: the route skipped stops on a landing square
        # where its flying king could not go on, beside one where it could
        skipped, short = [], True
    if skipped:
        best = graph.best_count()
        ladder = variant.capture_precedence is CapturePrecedence.ITALIAN_LADDER
        if ladder and any(cm.bit_count() == best for _, _, cm in skipped):
            return _Explanation(
                f"{shown} is not legal: the capture rules prefer another capture "
                f"(a king's capture over a man's, then the most kings, then the earliest "
                f"king): play {examples}",
                MoveProblem.CAPTURE_PRECEDENCE, {"moves": examples},
            )
        return _Explanation(
            f"{shown} is not legal: a longer capture is available; you must take "
            f"{best} pieces ({examples})",
            MoveProblem.LONGER_CAPTURE, {"count": best, "moves": examples},
        )
    if short:
        return _Explanation(
            f"{shown} is not legal: a capture must be played to its end; "
            f"you must capture ({examples})",
            MoveProblem.CAPTURE_UNFINISHED, {"moves": examples},
        )
    return _Explanation(
        f"{shown} is not legal: a capture is available: you must capture ({examples})",
        MoveProblem.MUST_CAPTURE, {"moves": examples},
    )


def _piece_problem(
    shown: str,
    start: int,
    name: str,
    kind: PieceKind,
    table: MoveTable,
    numeric: bool,
    examples: str,
    variant: Variant,
) -> _Explanation:
    """Why the piece on `start` (named `name`) cannot make a quiet move: it has other
    moves, or none at all. `numeric`, `a1_dark`: how squares are written."""
    own = [m for m in table.moves if m.start == start]
    noun = "king" if kind is PieceKind.KING else "man"
    if own:
        listed = ", ".join(_full(m, numeric, variant) for m in own)
        return _Explanation(
            f"{shown} is not legal: that piece cannot move there (the {noun} can play {listed})",
            MoveProblem.PIECE_CANNOT_GO_THERE, {"moves": listed},
        )
    return _Explanation(
        f"{shown} is not legal: the {noun} on {name} has no legal move (try {examples})",
        MoveProblem.PIECE_STUCK, {"square": name, "moves": examples},
    )

