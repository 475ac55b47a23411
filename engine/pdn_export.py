"""PDN export: a `Game` as PDN text (`export_pdn`, re-exported by `engine.pdn`), and the
move numbers and results both directions share.

Writes the tags Event, Site, Date, White, Black, Result; GameType (20 International, 21
English checkers, 22 Italian, 25 Russian, 26 Brazilian, 30 Turkish: `engine.pdn_variants`)
where the variant has a number; our own `Variant` tag naming the variant for every variant;
FEN when the game did not start from the standard position; then the numbered move text
(captures in short form `d3xf5` where that names one legal move, with every landing square
`d3xd5xf5` where it does not; Russian with the colon of its GameType, `c3:e5`) and the
result token, White's score first.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.errors import DamaError
from engine.game import Game, Outcome
from engine.notation import format_move
from engine.pdn_syntax import PdnError
from engine.pdn_tags import (
    ROSTER,
    ROSTER_DEFAULTS,
    VARIANT_TAG,
    PdnResult,
    check_tag_name,
    format_tag,
)
from engine.pdn_variants import (
    capture_separator,
    gametype_number,
    numeric_by_default,
)
from engine.pieces import Color
from engine.position import Position
from engine.variants import Variant, get_variant

_LINE_WIDTH = 80



def export_pdn(
    game: Game, tags: Mapping[str, str] = MappingProxyType({}), *,
    numeric: bool | None = None, comments: Mapping[int, str] = MappingProxyType({}),
) -> str:
    """The PDN text of `game`, ending with a newline.

    `tags`: tag values by name. Event, Site, Date, White, Black and Result come first (PDN
    defaults `?`, `????.??.??` and `*` when missing), then GameType, Variant and FEN, which
    are written from the game itself, then the other tags in the given order. The result is
    the game's outcome when it has one, else the Result tag, White's score first in every
    variant (`1-0`: White won). `numeric`: write squares as
    numbers (moves and FEN; Italian and English checkers 1..32, International 1..50); None
    (the default) writes numbers where the variant's PDN GameType prefers them
    (International and English checkers: `engine.pdn_variants.NUMERIC_BY_DEFAULT`),
    algebraic squares elsewhere. Captures are written with `x`, Russian ones with `:`
    (`engine.pdn_variants.capture_separator`). `comments`: text written as a PDN comment
    ``{...}`` after the move of each ply given (1 = the first move; braces in the text
    are replaced by parentheses); the second mover's move after a comment gets its
    number again (``3...``). Each numbered move opens with the variant's first mover
    (Black in English checkers: ``1. 11-15 22-18``).

    Raises PdnError when a given Result, GameType, Variant or FEN tag contradicts the game,
    when `numeric` is asked for a variant without numeric notation, or for a tag name that
    is not letters, digits and underscores.
    """
    variant = game.variant
    if numeric is None:
        numeric = numeric_by_default(variant)
    if numeric and not variant.numeric_notation:
        raise PdnError(f"{variant.name} has no numeric notation: export it without numeric")
    for name in tags:
        try:
            check_tag_name(name)
        except ValueError as error:
            raise PdnError(str(error)) from None
    result = _export_result(game, tags)
    computed: dict[str, str] = {}
    if variant.pdn_gametype is not None:
        computed["GameType"] = str(variant.pdn_gametype)
    computed[VARIANT_TAG] = variant.key
    if game.start != Position.start(variant):
        computed["FEN"] = game.start.to_fen(variant, numeric=numeric)
    _check_given_tags(game, tags)

    lines = [format_tag(name, tags.get(name) or ROSTER_DEFAULTS[name]) for name in ROSTER
             if name != "Result"]
    lines.insert(ROSTER.index("Result"), format_tag("Result", result.token))
    lines += [format_tag(name, value) for name, value in computed.items()]
    lines += [
        format_tag(name, value) for name, value in tags.items()
        if name not in ROSTER and name not in computed and name not in ("GameType", "FEN")
    ]
    return "\n".join(lines) + "\n\n" + _move_text(game, result, numeric=numeric,
                                                  comments=comments) + "\n"


def _export_result(game: Game, tags: Mapping[str, str]) -> PdnResult:
    given: PdnResult | None = None
    if "Result" in tags:
        given = PdnResult.from_token(tags["Result"])
        if given is None:
            raise PdnError(
                f"Result tag {tags['Result']!r} is not a result: use 1-0, 0-1, 1/2-1/2 or *"
            )
    if game.outcome is None:
        return given or PdnResult.UNKNOWN
    from_game = result_of(game.outcome)
    if given is not None and given is not PdnResult.UNKNOWN and given is not from_game:
        raise PdnError(
            f"Result tag {given.token} contradicts the game's outcome ({from_game.token})"
        )
    return from_game


def result_of(outcome: Outcome) -> PdnResult:
    """The PDN result of a game's `outcome`, White's score first (`1-0`: White won)."""
    if outcome.winner is None:
        return PdnResult.DRAW
    return PdnResult.WHITE_WINS if outcome.winner is Color.WHITE else PdnResult.BLACK_WINS


def _check_given_tags(game: Game, tags: Mapping[str, str]) -> None:
    variant = game.variant
    if VARIANT_TAG in tags:
        try:
            named = get_variant(tags[VARIANT_TAG])
        except DamaError as error:
            raise PdnError(f"Variant tag: {error}") from None
        if named is not variant:
            raise PdnError(f"Variant tag {tags[VARIANT_TAG]!r} contradicts the game's "
                           f"variant ({variant.key})")
    if "GameType" in tags and gametype_number(tags["GameType"]) != variant.pdn_gametype:
        raise PdnError(f"GameType tag {tags['GameType']!r} contradicts the game's variant "
                       f"({variant.name}, GameType {variant.pdn_gametype or 'none'})")
    if "FEN" in tags:
        try:
            given = Position.from_fen(tags["FEN"], variant)
        except DamaError as error:
            raise PdnError(f"FEN tag: {error}") from None
        if given != game.start:
            raise PdnError("FEN tag contradicts the game's start position")


def _move_text(
    game: Game, result: PdnResult, *, numeric: bool,
    comments: Mapping[int, str] = MappingProxyType({}),
) -> str:
    words: list[str] = []
    commented = False
    positions = game.positions()
    separator = capture_separator(game.variant)
    first = Position.start(game.variant).turn
    for ply, move in enumerate(game.moves):
        position = positions[ply]
        text = format_move(move, position, game.variant, numeric=numeric)
        if text.count("x") > 1:
            # Only a path tells this capture apart from another one: write all of it.
            text = format_move(move, position, game.variant, full=True, numeric=numeric)
        text = text.replace("x", separator)
        number, color = move_number(game.start, ply, game.variant)
        if color is first:
            words.append(f"{number}. {text}")
        elif ply == 0 or commented:
            words.append(f"{number}... {text}")
        else:
            words.append(text)
        comment = comments.get(ply + 1)
        commented = comment is not None
        if comment is not None:
            parts = comment.replace("{", "(").replace("}", ")").split() or [""]
            parts[0] = "{" + parts[0]
            parts[-1] = parts[-1] + "}"
            words.extend(parts)
    words.append(result.token)
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > _LINE_WIDTH:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)


def move_number(start: Position, ply: int, variant: Variant) -> tuple[int, Color]:
    """The PDN move number and the side to move at `ply` of a game of `variant` begun at
    `start`. A numbered move opens with the variant's first mover (the side to move of its
    start position: White, or Black in English checkers, whose records write
    `1. 11-15 22-18`), so a game begun with the other side to move starts `1...`."""
    first = Position.start(variant).turn
    if start.turn is first:
        return ply // 2 + 1, first if ply % 2 == 0 else first.opponent
    return (ply + 1) // 2 + 1, first.opponent if ply % 2 == 0 else first
