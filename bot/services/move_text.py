"""Move text as players type it: reading a move (`parse_player_move`), the refusal of text
that does not name a legal move (`problem_error`), and `/move` and `/solve`
autocompletion (`suggest_moves`).

Plain functions on engine values, used by the game service, the puzzle service and the
play cog. Every one of them may be slow on a position with thousands of capture routes
(docs/RULES.md, set-up positions): callers run them off the event loop
(`bot.move_work.MoveWork` or a worker thread). Module-level, so a worker process can run
them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from bot.messages import VARIANT_NAMES_IN_SENTENCE, Msg
from bot.services.errors import PlayerError, Quoted
from bot.services.models import MoveChoice
from engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    MoveProblem,
    NotationError,
    Position,
    Variant,
    format_move,
    legal_moves,
    parse_move,
)
from engine.squares_board import number_of, square_name_of

MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices."""

#: The message of each reason the engine gives for refusing move text.
MOVE_PROBLEMS: Mapping[MoveProblem, Msg] = MappingProxyType({
    problem: Msg["MOVE_" + problem.name]
    for problem in MoveProblem
    if problem not in (MoveProblem.AMBIGUOUS, MoveProblem.NO_NUMERIC_NOTATION)
})


def parse_player_move(text: str, position: Position, variant: Variant) -> Move:
    """The legal move `text` names in `position`. Raises `PlayerError`: MOVE_AMBIGUOUS (with
    the candidates written in full, the Italian federation's numbers first as the
    autocomplete labels them, docs/RULES.md "Coordinates and notation"), or the message of
    the engine's reason (`problem_error`) for text that cannot be read or played."""
    try:
        return parse_move(text, position, variant)
    except AmbiguousMoveError as error:
        written = sorted(
            ((format_move(m, position, variant, full=True), m) for m in error.candidates),
            key=lambda pair: pair[0],
        )
        names = ", ".join(
            f"{format_move(m, position, variant, full=True, numeric=True)} ({t})"
            if variant.numeric_notation else t
            for t, m in written
        )
        raise PlayerError(Msg.MOVE_AMBIGUOUS, text=Quoted(text.strip()), candidates=names) from None
    except (MalformedMoveError, IllegalMoveError) as error:
        raise problem_error(error, text, variant) from None


def problem_error(error: NotationError, text: str, variant: Variant) -> PlayerError:
    """The refusal for move text `text` that the engine refused with `error` in a game of
    `variant`: the message of its reason (`MOVE_PROBLEMS`, else MOVE_NOT_LEGAL) with the
    reason's details (squares, moves, count; a variant as `variant_in_sentence`, by its
    name's message), so that each reader gets it in their language, and the limits of
    `variant`'s board and examples of its moves (`board_texts`)."""
    key = MOVE_PROBLEMS.get(error.reason) if error.reason else None
    if key is None:
        key = Msg.MOVE_NOT_LEGAL
    params: dict[str, object] = {
        **board_texts(variant),
        **{name: value for name, value in error.details.items() if name != "variant"},
    }
    if "variant" in error.details:
        named = str(error.details["variant"])
        params["variant_in_sentence"] = VARIANT_NAMES_IN_SENTENCE.get(named, named)
    return PlayerError(key, text=Quoted(text.strip()), **params)


@functools.cache
def board_texts(variant: Variant) -> Mapping[str, object]:
    """What the refusals of `variant`'s move text name about its board:

    - `last_square`, its far corner ("h8" on 8x8, "j10" on 10x10), and `last_number`, the
      number of its playable squares (32 or 50 on the diagonal boards, whose numbers run
      from 1; docs/RULES.md, "Coordinates and notation");
    - `example_move`, a move the first mover may play from the start position, as the
      variant's players write it (numbers where the variant has `numeric_notation`, else
      letters), also as `example_letters` and `example_numbers` (the letters again where
      the variant has no numbers); `example_capture`, the capture of that piece over the
      square it would move to, written the same way. On an orthogonal board that is
      ``d3-d4`` and ``d3xd5``, on the diagonal ones a diagonal move (Russian ``e3-d4``,
      International ``33-28``, English checkers ``10-15``), never a move the board cannot
      have. The move is the one whose squares lie nearest the board's middle files.
    """
    size = variant.board_size
    playable = sum(variant.is_playable(square) for square in range(size * size))
    position = Position.start(variant)
    middle = (size - 1) / 2

    def off_middle(move: Move) -> float:
        return abs(move.start % size - middle) + abs(move.end % size - middle)

    move = min(legal_moves(position, variant), key=lambda m: (off_middle(m), m.start, m.end))
    jump = 2 * move.end - move.start
    letters = f"{square_name_of(move.start, variant)}-{square_name_of(move.end, variant)}"
    capture_letters = f"{square_name_of(move.start, variant)}x{square_name_of(jump, variant)}"
    if variant.numeric_notation:
        numbers = f"{number_of(move.start, variant)}-{number_of(move.end, variant)}"
        capture = f"{number_of(move.start, variant)}x{number_of(jump, variant)}"
    else:
        numbers, capture = letters, capture_letters
    return MappingProxyType({
        "last_square": f"{chr(ord('a') + size - 1)}{size}",
        "last_number": playable,
        "example_move": numbers,
        "example_letters": letters,
        "example_numbers": numbers,
        "example_capture": capture,
    })


def move_texts(move: Move, position: Position, variant: Variant) -> tuple[str, str]:
    """`move` (played in `position`) written short, as shown, and in full, as stored."""
    return format_move(move, position, variant), format_move(move, position, variant, full=True)


def _normalise(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def suggest_moves(
    position: Position, variant: Variant, moves: tuple[Move, ...], typed: str,
    numeric: bool = True,
) -> list[MoveChoice]:
    """The autocomplete choices among `moves` (the legal moves of `position`) matching
    `typed` (prefix of the move text, or of the Italian numeric form, ignoring case and
    separators): captures first (most pieces first), then by text; at most `MAX_CHOICES`.
    An Italian choice is labelled with both forms, the reader's first (`numeric`:
    ``21-17 (b3-a4)``, else ``b3-a4 (21-17)``); its value is the algebraic form. Pure and
    possibly slow (formatting every move of a position with thousands of capture routes
    takes seconds): callers run it in a worker thread."""
    wanted = _normalise(typed)
    choices: list[MoveChoice] = []
    texts = [(format_move(m, position, variant), m) for m in moves]
    texts.sort(key=lambda pair: (not pair[1].is_capture, -len(pair[1].captured), pair[0]))
    for value, move in texts:
        forms = [value]
        name = value
        if variant.numeric_notation:
            number_form = format_move(move, position, variant, numeric=True)
            forms.append(number_form)
            name = f"{number_form} ({value})" if numeric else f"{value} ({number_form})"
        if wanted and not any(_normalise(form).startswith(wanted) for form in forms):
            continue
        choices.append(MoveChoice(name, value))
        if len(choices) == MAX_CHOICES:
            break
    return choices
