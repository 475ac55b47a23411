"""The catalog's words for a game's facts, shared by the bot's two faces (the Discord
messages of bot/ui and the web pages of bot/web): how a game ended (`END_REASONS`), the
judgements of an analysis (`JUDGEMENT_WORDS`, `JUDGEMENT_MARKS`), move numbers
(`move_number`) and moves written in numbers (`numeric_text`). Plain values: message ids
and text, nothing of Discord or the web."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bot.messages import Msg
from bot.services.models import EndReason
from engine import Color, Position, Variant
from engine.analysis import Judgement
from engine.squares_board import number_of, parse_square_on


@dataclass(frozen=True)
class ReasonTexts:
    """The catalog's texts for one end reason: the sentence under a finished board
    (`sentence`, with the loser, limit and user as parameters) and the few words of
    /history and the game page (`short`)."""

    sentence: Msg
    short: Msg


END_REASONS: Mapping[EndReason, ReasonTexts] = MappingProxyType({
    EndReason.NO_PIECES: ReasonTexts(Msg.REASON_NO_PIECES, Msg.SHORT_NO_PIECES),
    EndReason.NO_LEGAL_MOVE: ReasonTexts(Msg.REASON_NO_LEGAL_MOVE, Msg.SHORT_NO_LEGAL_MOVE),
    EndReason.REPETITION: ReasonTexts(Msg.REASON_REPETITION, Msg.SHORT_REPETITION),
    EndReason.ONE_PIECE_EACH: ReasonTexts(Msg.REASON_ONE_PIECE_EACH, Msg.SHORT_ONE_PIECE_EACH),
    EndReason.MOVE_LIMIT: ReasonTexts(Msg.REASON_MOVE_LIMIT, Msg.SHORT_MOVE_LIMIT),
    EndReason.ENDGAME_LIMIT: ReasonTexts(Msg.REASON_ENDGAME_LIMIT, Msg.SHORT_ENDGAME_LIMIT),
    EndReason.RESIGNATION: ReasonTexts(Msg.REASON_RESIGNATION, Msg.SHORT_RESIGNATION),
    EndReason.AGREEMENT: ReasonTexts(Msg.REASON_AGREEMENT, Msg.SHORT_AGREEMENT),
    EndReason.TIME_FORFEIT: ReasonTexts(Msg.REASON_TIME_FORFEIT, Msg.SHORT_TIME_FORFEIT),
    EndReason.INACTIVITY: ReasonTexts(Msg.REASON_INACTIVITY, Msg.SHORT_INACTIVITY),
    EndReason.ABORTED: ReasonTexts(Msg.REASON_ABORTED, Msg.SHORT_ABORTED),
})
"""The one table from end reasons to messages."""

JUDGEMENT_WORDS: Mapping[Judgement, Msg] = MappingProxyType({
    Judgement.INACCURACY: Msg.WORD_INACCURACY,
    Judgement.MISTAKE: Msg.WORD_MISTAKE,
    Judgement.BLUNDER: Msg.WORD_BLUNDER,
})
"""The word of each judgement of an analysis (`engine.analysis.Judgement`)."""

JUDGEMENT_MARKS: Mapping[Judgement, str] = MappingProxyType({
    Judgement.INACCURACY: "?!", Judgement.MISTAKE: "?", Judgement.BLUNDER: "??",
})
"""The PDN annotation glyph written after a judged move (PDN standard, "NAG" marks)."""


def move_number(ply: int, color: Color, variant: Variant) -> str:
    """``12.`` for the move of move 12 (ply 23) by `variant`'s first mover (the side to
    move of its start: White, Black in English checkers, whose records write
    ``1. 11-15 22-18``: docs/RULES.md, "PDN of the a1-dark variants"), ``12...`` for the
    other side's; plies counted from 1 in the game's start (the other side may move first
    in a set-up position)."""
    number = (ply + 1) // 2
    first = Position.start(variant).turn
    return f"{number}." if color is first else f"{number}..."


_SQUARE = re.compile(r"[a-j](?:10|[1-9])")


def numeric_text(move_text: str, variant: Variant) -> str:
    """A move of `variant` (one with `numeric_notation`: Italian, International, English
    checkers) written by `engine.format_move` in algebraic (``b3-a4``, ``d1xb3xd5``) with
    its squares as the numbers of `variant`'s board (Italian ``21-17``; International
    1..50 and English checkers 1..32: `engine.squares_board.number_of`): the same squares
    in the same order, so the same move text as `format_move(..., numeric=True)`.
    Raises ValueError for a light square or a square off the board (no move lands on
    one)."""
    size = variant.board_size
    return _SQUARE.sub(
        lambda m: str(number_of(parse_square_on(m.group(0), size), variant)), move_text)
