"""PDN game records: read PDN text back into games (`read_pdn`); export a `Game` as PDN
text (`export_pdn`, from `engine.pdn_export`).

Import (`read_pdn`) reads what `engine.pdn_syntax` reads (comments, variations, NAGs,
CRLF, 2-point result tokens, Italian tag names and numeric squares, a FEN tag ending with
the dot PDN 3.0's FEN grammar reads) and plays every move through the rules, legal moves
only. Results are read White's score first (PDN 3.0 takes its Result tag from PGN, where
`1-0` is a win for White, in every GameType, English checkers' 21 included); a file that
writes the first mover's score first (English checkers records where Black starts) is
read with `result_first=Color.BLACK`. Real records write a capture as start-end (`19x12`);
where that matches several legal moves (different captured pieces) the importer keeps the
candidates for which the rest of the record stays legal; when the rest decides, that move
is taken; when it does not, the first candidate is kept and a warning names the move and
the candidates. Draw rules the record played past are reported as warnings (docs/RULES.md:
"Replaying a recorded game ... reports (but does not stop at) a draw rule").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.errors import (
    AmbiguousMoveError,
    DamaError,
    GameOverError,
    NotationError,
    quoted,
)
from engine.game import Game, Termination
from engine.movegen import apply_move
from engine.moves import Move
from engine.notation import format_move, parse_move
from engine.pdn_export import export_pdn, move_number, result_of
from engine.pdn_syntax import MoveToken, PdnError, PdnSyntaxError, RawGame, split_games
from engine.pdn_tags import VARIANT_TAG, PdnResult, normalize_tags
from engine.pdn_variants import (
    by_gametype,
    gametype_number,
    numbered_like,
)
from engine.pieces import Color
from engine.position import Position
from engine.variants import VARIANTS, Variant, get_variant

__all__ = [
    "PdnAmbiguity",
    "PdnError",
    "PdnGame",
    "PdnMoveError",
    "PdnResult",
    "PdnSyntaxError",
    "PdnVariantError",
    "export_pdn",
    "read_pdn",
    "replay_game",
]

#: Most positions kept per ply while looking ahead through unresolved ambiguous captures.
MAX_LINES = 64


class PdnVariantError(PdnError):
    """The variant of a PDN game is missing, unknown, or contradicts itself."""


class PdnMoveError(PdnError):
    """A move of a PDN game that is not legal (or not move text) in its position.

    Attributes: `game_index` (1-based number of the game in the text), `ply` (0-based ply of
    the move), `number` (the move number, counted from 1 as written in PDN), `color` (the
    side that was to move), `text` (the move as written), `line` (its line in the text),
    `reason` (the engine's explanation).
    """

    def __init__(
        self, *, game_index: int, ply: int, number: int, color: Color, text: str, line: int,
        reason: str,
    ) -> None:
        super().__init__(
            f"game {game_index}, move {number} ({color.value}) {quoted(text)} on line {line}: "
            f"{reason}"
        )
        self.game_index = game_index
        self.ply = ply
        self.number = number
        self.color = color
        self.text = text
        self.line = line
        self.reason = reason


@dataclass(frozen=True, slots=True)
class PdnAmbiguity:
    """A move of the record that matched several legal moves.

    `ply` (0-based), `number` and `color` locate it; `text` is the move as written;
    `candidates` are the legal moves it matched, in the engine's order; `possible` those of
    them after which the rest of the record stays legal; `chosen` is the one played (the
    first of `possible`).
    """

    ply: int
    number: int
    color: Color
    text: str
    candidates: tuple[Move, ...]
    possible: tuple[Move, ...]
    chosen: Move

    @property
    def resolved(self) -> bool:
        """Whether the rest of the record left exactly one candidate possible."""
        return len(self.possible) == 1


@dataclass(frozen=True, slots=True)
class PdnGame:
    """One game read from PDN.

    `variant`: the variant it is played in. `game`: the moves replayed into a `Game` started
    with `enforce_draw_rules=False` (its `outcome` is set only when the rules end the game:
    no pieces or no legal move; a resignation recorded as `1-0` leaves it None). `tags`:
    every tag pair under its standard name (Italian names mapped), Result set to `result`.
    `result`: the recorded result (the move text's token, else the Result tag, else `*`).
    `warnings`: readable notes on what the reader had to decide or noticed (unresolved
    ambiguous captures, draw rules the record played past, conflicting results).
    `ambiguities`: every move that matched several legal moves, resolved or not.
    `index`: 1-based number of the game in the text.
    """

    variant: Variant
    game: Game
    tags: Mapping[str, str]
    result: PdnResult
    warnings: tuple[str, ...] = ()
    ambiguities: tuple[PdnAmbiguity, ...] = ()
    index: int = 1


# --- import -----------------------------------------------------------------------------


def read_pdn(
    text: str, *, variant: Variant | str | None = None, result_first: Color = Color.WHITE
) -> list[PdnGame]:
    """Every game of PDN `text`, replayed; [] for a text with no game.

    `variant`: the variant of games whose tags do not say (no GameType we know, no Variant
    tag); a variant or its name (a key or alias of `engine.get_variant`: `english`,
    `russian`, ...). Tags that do say win over it (a warning notes the clash).
    `result_first`: the side whose score the file's result tokens write first. PDN 3.0
    takes the Result tag from PGN, where `1-0` is a win for White, and gives no other
    reading for any GameType (English checkers' 21 included): White, the default. Give
    Color.BLACK for files that write the first mover's score first, as English checkers
    records often do (tests/data/README.md); the games' `result` and Result tag are then
    given White first.

    Raises PdnSyntaxError for broken PDN structure, PdnVariantError when a game's variant
    is unknown or missing, PdnMoveError for the first move that is not legal, PdnError for
    a bad FEN tag; all are DamaError and ValueError, with messages naming the game.
    """
    return [replay_game(raw, variant=variant, result_first=result_first)
            for raw in split_games(text)]


def replay_game(
    raw: RawGame, *, variant: Variant | str | None = None, result_first: Color = Color.WHITE
) -> PdnGame:
    """The game `raw` (from `engine.pdn_syntax.split_games`) replayed; see `read_pdn`."""
    tags, warnings = normalize_tags(raw.tags)
    where = f"game {raw.index} (line {raw.line})"
    chosen_variant = _variant_of(tags, variant, where, warnings)
    start = Position.start(chosen_variant)
    if "FEN" in tags:
        start = _start_of(tags["FEN"], chosen_variant, where, warnings)
    moves, ambiguities = _resolve(raw, chosen_variant, start, warnings)
    warnings += [_ambiguity_warning(a, chosen_variant, start, moves) for a in ambiguities
                 if not a.resolved]
    game = Game(chosen_variant, start, enforce_draw_rules=False)
    for ply, move in enumerate(moves):
        try:
            game.play(move)
        except GameOverError as error:
            # Only a start position already won (the side not to move has no pieces) ends
            # the game before a move the rules accept.
            raise _move_error(raw, ply, raw.moves[ply], start, chosen_variant, error) from None
    result = _recorded_result(raw, tags, game, warnings, result_first)
    warnings += _draw_rule_notes(game, result)
    tags["Result"] = result.token
    return PdnGame(
        variant=chosen_variant,
        game=game,
        tags=MappingProxyType(tags),
        result=result,
        warnings=tuple(warnings),
        ambiguities=tuple(ambiguities),
        index=raw.index,
    )


def _variant_of(
    tags: dict[str, str], fallback: Variant | str | None, where: str, warnings: list[str]
) -> Variant:
    named: Variant | None = None
    if VARIANT_TAG in tags:
        try:
            named = get_variant(tags[VARIANT_TAG])
        except DamaError as error:
            raise PdnVariantError(f"{where}: Variant tag: {error}") from None
    by_type: Variant | None = None
    if "GameType" in tags:
        number = gametype_number(tags["GameType"])
        found = by_gametype(number) if number else None
        known = ", ".join(f"{v.pdn_gametype} {v.key}" for v in VARIANTS.values()
                          if v.pdn_gametype is not None)
        if found is not None:
            by_type = found
        elif named is None:
            raise PdnVariantError(
                f"{where}: GameType {tags['GameType']!r} is not a variant we play "
                f"(GameType {known}; arab and moroccan need a Variant tag)"
            )
        else:
            warnings.append(f"GameType {tags['GameType']!r} is not one we know; "
                            f"the Variant tag says {named.key}")
    if named is not None and by_type is not None and named is not by_type:
        if named.pdn_gametype is not None:
            raise PdnVariantError(
                f"{where}: GameType {tags['GameType']!r} ({by_type.key}) contradicts the "
                f"Variant tag {tags[VARIANT_TAG]!r}"
            )
        warnings.append(f"GameType {tags['GameType']!r} is {by_type.key}; read as "
                        f"{named.key}, as the Variant tag says")
    from_tags = named or by_type
    given: Variant | None = None
    if fallback is not None:
        try:
            given = fallback if isinstance(fallback, Variant) else get_variant(fallback)
        except DamaError as error:
            raise PdnVariantError(str(error)) from None
    if from_tags is not None:
        if given is not None and given is not from_tags:
            warnings.append(f"the game's tags say {from_tags.key}; the variant given "
                            f"({given.key}) is not used")
        return from_tags
    if given is None:
        raise PdnVariantError(
            f"{where}: the game does not say its variant (no GameType or Variant tag): "
            f"name it, one of {', '.join(VARIANTS)}"
        )
    return given


_NUMBERED_FEN = re.compile(r"[:,]K?\d")


def _start_of(fen: str, variant: Variant, where: str, warnings: list[str]) -> Position:
    """The start position a FEN tag gives.

    PDN 3.0's FEN grammar ends with an optional dot (``... DOT?``) and forbids it only to
    writers ("No dot ('.') is allowed at the end of the value of a FEN tag", under
    "Restrictions ... when writing"): a final dot is read and dropped. Numeric squares in
    a variant whose notation is algebraic (a Russian FEN ``W:W21-32:B1-12``) are read with
    the numbers of the same board (`engine.pdn_variants.numbered_like`), with a warning
    saying so, since its GameType defines no numbers. Raises PdnError when the FEN cannot
    be read."""
    text = fen.strip()
    if text.endswith("."):
        text = text[:-1]
    try:
        return Position.from_fen(text, variant)
    except DamaError as error:
        numbered = numbered_like(variant)
        if numbered is None or numbered is variant or not _NUMBERED_FEN.search(text):
            raise PdnError(f"{where}: FEN tag: {error}") from None
        try:
            position = Position.from_fen(text, numbered)
        except DamaError:
            raise PdnError(f"{where}: FEN tag: {error}") from None
    warnings.append(
        f"the FEN tag writes squares as numbers, which {variant.name} does not use: read "
        f"with the numbers of {numbered.name} ({position.to_fen(variant)})"
    )
    return position


@dataclass(slots=True)
class _Node:
    children: list[tuple[Move, Position]] = field(default_factory=list)


def _candidates(text: str, position: Position, variant: Variant) -> list[Move]:
    try:
        return [parse_move(text, position, variant)]
    except AmbiguousMoveError as error:
        return list(error.candidates)


def _resolve(
    raw: RawGame, variant: Variant, start: Position, warnings: list[str]
) -> tuple[list[Move], list[PdnAmbiguity]]:
    """The moves of `raw`, each ambiguous one decided by the rest of the record if it can.

    Plays the record ply by ply over every position still possible (at most MAX_LINES per
    ply), then keeps, from the start, the candidates from which the end is reachable.
    """
    layers: list[dict[Position, _Node]] = [{start: _Node()}]
    for ply, token in enumerate(raw.moves):
        following: dict[Position, _Node] = {}
        first_error: NotationError | None = None
        dropped = False
        for position, node in layers[-1].items():
            try:
                matched = _candidates(token.text, position, variant)
            except NotationError as error:
                first_error = first_error or error
                continue
            for move in matched:
                child = apply_move(position, move, variant)
                node.children.append((move, child))
                if child in following:
                    continue
                if len(following) < MAX_LINES:
                    following[child] = _Node()
                elif not dropped:
                    dropped = True
                    number, color = move_number(start, ply, variant)
                    warnings.append(
                        f"move {number} ({color.value}): more than {MAX_LINES} readings of "
                        f"the ambiguous captures so far; only the first {MAX_LINES} were "
                        "followed"
                    )
        if not following:
            raise _move_error(raw, ply, token, start, variant, first_error)
        layers.append(following)

    reachable: list[set[Position]] = [set() for _ in layers]
    reachable[-1] = set(layers[-1])
    for ply in range(len(raw.moves) - 1, -1, -1):
        reachable[ply] = {
            position for position, node in layers[ply].items()
            if any(child in reachable[ply + 1] for _, child in node.children)
        }

    moves: list[Move] = []
    ambiguities: list[PdnAmbiguity] = []
    position = start
    for ply, token in enumerate(raw.moves):
        children = layers[ply][position].children
        good = [(m, c) for m, c in children if c in reachable[ply + 1]]
        move, position = good[0]
        if len(children) > 1:
            number, color = move_number(start, ply, variant)
            ambiguities.append(PdnAmbiguity(
                ply=ply, number=number, color=color, text=token.text,
                candidates=tuple(m for m, _ in children),
                possible=tuple(m for m, _ in good), chosen=move,
            ))
        moves.append(move)
    return moves, ambiguities


def _move_error(
    raw: RawGame,
    ply: int,
    token: MoveToken,
    start: Position,
    variant: Variant,
    error: DamaError | None,
) -> PdnMoveError:
    number, color = move_number(start, ply, variant)
    return PdnMoveError(
        game_index=raw.index, ply=ply, number=number, color=color, text=token.text,
        line=token.line, reason=str(error) if error else "no legal move matches it",
    )


def _ambiguity_warning(
    ambiguity: PdnAmbiguity, variant: Variant, start: Position, moves: list[Move]
) -> str:
    position = start
    for move in moves[:ambiguity.ply]:
        position = apply_move(position, move, variant)
    def names(moves: tuple[Move, ...]) -> str:
        return ", ".join(format_move(m, position, variant, full=True) for m in moves)

    text = (
        f"move {ambiguity.number} ({ambiguity.color.value}) {ambiguity.text!r} matches "
        f"{len(ambiguity.candidates)} legal moves ({names(ambiguity.candidates)})"
    )
    if len(ambiguity.possible) < len(ambiguity.candidates):
        text += f"; the rest of the game leaves {names(ambiguity.possible)}"
    else:
        text += "; the rest of the game does not tell them apart"
    chosen = format_move(ambiguity.chosen, position, variant, full=True)
    return f"{text}: played the first, {chosen}"


def _draw_rule_notes(game: Game, result: PdnResult) -> list[str]:
    """One warning per draw rule the record played past (`Game.draw_notes`): where the rule
    first applied, and how many more times it applied later. A record that stops where a
    rule first draws it obeyed the rule: no warning, unless its `result` is a win."""
    first: dict[Termination, int] = {}
    again: dict[Termination, int] = {}
    for ply, termination in game.draw_notes:
        if termination in first:
            again[termination] = again.get(termination, 0) + 1
        else:
            first[termination] = ply
    notes = []
    for termination, ply in first.items():
        reason = _DRAW_RULES.get(termination, termination.value.replace("_", " "))
        if ply == 0:
            where = "the start position is already drawn"
        else:
            number, color = move_number(game.start, ply - 1, game.variant)
            where = f"move {number} ({color.value}, ply {ply}) draws"
        if ply == game.ply:
            if result in (PdnResult.DRAW, PdnResult.UNKNOWN):
                continue
            notes.append(f"{where} by {reason}, where the record ends, but the record says "
                         f"{result.token}")
            continue
        count = again.get(termination, 0)
        later = f" (and {count} more time{'s' if count > 1 else ''} later)" if count else ""
        notes.append(f"{where} by {reason}{later}; the record plays on")
    return notes


_DRAW_RULES = {
    Termination.REPETITION: "threefold repetition",
    Termination.ONE_PIECE_EACH: "one piece each",
    Termination.MOVE_LIMIT: "the move limit (no capture, no man move)",
}


_SIDES_SWAPPED = {
    PdnResult.WHITE_WINS: PdnResult.BLACK_WINS,
    PdnResult.BLACK_WINS: PdnResult.WHITE_WINS,
}


def _read_result(text: str, result_first: Color) -> PdnResult | None:
    """The result token `text` means, its first score being `result_first`'s."""
    result = PdnResult.from_token(text)
    if result is None or result_first is Color.WHITE:
        return result
    return _SIDES_SWAPPED.get(result, result)


def _recorded_result(
    raw: RawGame, tags: Mapping[str, str], game: Game, warnings: list[str],
    result_first: Color,
) -> PdnResult:
    from_token = _read_result(raw.result_token, result_first) if raw.result_token else None
    from_tag: PdnResult | None = None
    if "Result" in tags:
        from_tag = _read_result(tags["Result"], result_first)
        if from_tag is None:
            warnings.append(f"Result tag {tags['Result']!r} is not a result token; ignored")
    if from_token is not None and from_tag is not None and from_token is not from_tag:
        warnings.append(f"the move text ends {from_token.token} but the Result tag says "
                        f"{from_tag.token}: kept {from_token.token}")
    result = from_token or from_tag or PdnResult.UNKNOWN
    if game.outcome is not None:
        by_rule = result_of(game.outcome)
        if result is not PdnResult.UNKNOWN and result is not by_rule:
            warnings.append(f"the record says {result.token} but by the rules the game "
                            f"ended {by_rule.token} ({game.outcome.termination.name.lower()})")
    return result
