"""What a game's page shows, in one language: a frozen value built from the stored game
(`GameRecord`, its moves, the players' names and ratings, its analysis) and its replay
(`engine.Game`). Pure (no storage, no aiohttp): bot/web/pages/game.py loads the inputs,
bot/web/templates/game.html lays the value out.

Moves are written in the game's notation (`engine.format_move`; Italian, International
and English checkers in numbers: docs/RULES.md, "Coordinates and notation"), numbered as
the Discord analysis numbers them (`bot.services.game_words.move_number`). Plies count
from 1 (storage/models.py); ply 0 is the start position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from babel.dates import format_timedelta

from bot.language import Language
from bot.messages import Msg, isolate, percent, text, variant_name
from bot.ratings import display_rating
from bot.services.game_words import (
    END_REASONS,
    JUDGEMENT_MARKS,
    JUDGEMENT_WORDS,
    move_number,
    numeric_text,
)
from bot.services.games.clock import time_control_text
from bot.services.models import ENDINGS_LEFT_UNRATED_WHEN_EARLY, EndReason, counts_for_rating
from engine import Color, Game, format_move
from engine.analysis import GameAnalysis, PlyAnalysis
from storage import GameRecord, GameResult, GameStatus, MoveRecord, Rating, Seat


@dataclass(frozen=True)
class GameInputs:
    """What a game's page is made of, as stored: the game, its moves in ply order, each
    side's display name (None: never seen, or a computer seat), each side's current
    rating in the game's variant (read for a rated game under way; None otherwise) and
    the stored analysis (None: not analysed)."""

    record: GameRecord
    moves: tuple[MoveRecord, ...]
    names: tuple[str | None, str | None]
    ratings: tuple[Rating | None, Rating | None] = (None, None)
    analysis: GameAnalysis | None = None
    inactivity_limit: timedelta | None = None
    """How long a game without a move time may wait for a move before the player to move
    loses on time (`GameRules.inactivity_limit`; None: not shown, the live updates')."""


@dataclass(frozen=True)
class MoveLine:
    """One ply of the move list: its number (``12.`` or ``12...``), the move in the
    game's notation, and the board picture's text alternative after it."""

    ply: int
    number: str
    move: str
    alt: str

    @property
    def text(self) -> str:
        """``12. c3-d4``: the move as the list shows it."""
        return f"{self.number} {self.move}"


@dataclass(frozen=True)
class SideView:
    """One side: its colour's name, the player's name, and their rating (``1516 (+16)``
    after a rated game, ``1500?`` during one; None in a casual game or for the computer)."""

    color: Color
    colour_name: str
    name: str
    rating: str | None


@dataclass(frozen=True)
class MistakeLine:
    """A judged ply of the analysis, as a sentence, and the ply it links to."""

    ply: int
    text: str


@dataclass(frozen=True)
class AnalysisView:
    """The analysis part of the page: each side's accuracy line (White's first), the
    judged plies, and the evaluation graph's text alternative."""

    summaries: tuple[str, str]
    mistakes: tuple[MistakeLine, ...]
    no_mistakes: str | None
    graph_alt: str


@dataclass(frozen=True)
class GameView:
    """A game's page in one language. `status` is what the page says under the board
    about the game as it stands (whose move, or the result); `result` the result sentence
    of an ended game (None while it goes on); `start_alt` the picture's text alternative at
    ply 0; `alt_templates` the ``{move}``/``{ply}`` templates of the text alternative
    after an even ply (the side that moved first to move) and after an odd one, for the
    plies received live (replay.js fills them)."""

    game_id: int
    title: str
    heading: str
    variant: str
    kind: str
    time_control: str | None
    white: SideView
    black: SideView
    moves: tuple[MoveLine, ...]
    start_alt: str
    status: str
    result: str | None
    over: bool
    analysis: AnalysisView | None
    alt_templates: tuple[str, str]

    @property
    def plies(self) -> int:
        return len(self.moves)

    def alt(self, ply: int) -> str:
        """The picture's text alternative at `ply` (0: the start)."""
        return self.start_alt if ply == 0 else self.moves[ply - 1].alt

    @property
    def sides(self) -> tuple[SideView, SideView]:
        return self.white, self.black


def player_name(seat: Seat, name: str | None, language: Language) -> str:
    """A seat's name on the page: the computer and its level, else the player's last known
    display name, else their user id (as the PDN export writes it)."""
    if seat.user_id is None:
        return text(Msg.COMPUTER, language.value, level=seat.computer_level)
    return name if name else str(seat.user_id)


def turn_status(record: GameRecord, names: tuple[str | None, str | None], turn: Color,
                language: Language) -> str:
    """The status line of a game under way whose side to move is `turn`: that player by
    name (`player_name` of their stored display name in `names`, White's first; isolated,
    UAX #9) and their colour."""
    seat, name = (record.white, names[0]) if turn is Color.WHITE else (record.black, names[1])
    return text(Msg.BOARD_TURN, language.value,
                player=isolate(player_name(seat, name, language)),
                color=colour_name(turn, language))


def colour_name(color: Color, language: Language) -> str:
    return text(Msg.COLOR_WHITE if color is Color.WHITE else Msg.COLOR_BLACK, language.value)


def _rating(record: GameRecord, color: Color, current: Rating | None) -> str | None:
    seat = record.white if color is Color.WHITE else record.black
    if not record.rated or seat.user_id is None:
        return None
    change = record.white_rating if color is Color.WHITE else record.black_rating
    if change is not None:
        return f"{round(change.rating_after)} ({round(change.delta):+d})"
    if current is not None:
        return display_rating(current.rating, current.deviation)
    return None if record.status is GameStatus.FINISHED else "1500?"


@dataclass(frozen=True)
class NumberedMove:
    """A ply as the move list writes it, in every language alike: ``12.`` or ``12...``
    and the move in the game's notation."""

    ply: int
    number: str
    move: str

    @property
    def text(self) -> str:
        """``12. c3-d4``: the move list's text, also what the live updates send."""
        return f"{self.number} {self.move}"


def numbered_moves(game: Game, first_ply: int = 1) -> tuple[NumberedMove, ...]:
    """The moves of `game` from ply `first_ply` on, numbered (`move_number`) and written
    in the game's notation (numbers where the variant has them: `engine.format_move`)."""
    positions = game.positions()
    variant = game.variant
    numeric = variant.numeric_notation
    return tuple(
        NumberedMove(index + 1, move_number(index + 1, positions[index].turn, variant),
                     format_move(move, positions[index], variant, numeric=numeric))
        for index, move in enumerate(game.moves) if index + 1 >= first_ply)


def _result(inputs: GameInputs, game: Game, names: tuple[str, str],
            language: Language) -> str | None:
    """The result sentence of an ended game: who won (or a draw, or no result), how it
    ended (the words of /history), and, for a rated game left unrated because it ended
    early, that it was not rated (docs/RULES.md, "Early results")."""
    record = inputs.record
    if record.status is GameStatus.ACTIVE:
        return None
    reason = next((r for r in EndReason if r.value == record.termination), None)
    how = text(END_REASONS[reason].short if reason is not None else Msg.SHORT_OTHER,
               language.value)
    locale = language.value
    match record.result:
        case None:
            sentence = text(Msg.WEB_GAME_RESULT_NONE, locale, how=how)
        case GameResult.DRAW:
            sentence = text(Msg.WEB_GAME_RESULT_DRAW, locale, how=how)
        case GameResult.WHITE_WINS | GameResult.BLACK_WINS:
            winner = names[0] if record.result is GameResult.WHITE_WINS else names[1]
            sentence = text(Msg.WEB_GAME_RESULT_WIN, locale, winner=winner,
                            score=record.result.value, how=how)
    if _unrated_early(inputs, game):
        sentence += " " + text(Msg.RESULT_UNRATED_EARLY, locale)
    return sentence


def _unrated_early(inputs: GameInputs, game: Game) -> bool:
    """Whether a rated game ended too early to be rated (docs/RULES.md, "Early
    results")."""
    record = inputs.record
    reason = next((r for r in EndReason if r.value == record.termination), None)
    return bool(record.rated and record.status is not GameStatus.ACTIVE
                and reason in ENDINGS_LEFT_UNRATED_WHEN_EARLY and record.result
                and not counts_for_rating([m.by_computer for m in inputs.moves],
                                          game.start.turn))


def _better(ply: PlyAnalysis, game: Game) -> tuple[str, str]:
    """The better move and its line of a judged ply, in the game's notation."""
    def shown(move: str) -> str:
        return numeric_text(move, game.variant) if game.variant.numeric_notation else move
    better = shown(ply.better) if ply.better is not None else "—"
    line = " ".join(shown(m) for m in ply.line) if ply.line else "—"
    return better, line


def _analysis(analysis: GameAnalysis, game: Game, moves: Sequence[MoveLine],
              names: tuple[str, str], language: Language) -> AnalysisView:
    locale = language.value
    summaries = []
    for color, name in zip((Color.WHITE, Color.BLACK), names, strict=True):
        summary = analysis.summary(color)
        accuracy = (text(Msg.ANALYSIS_NO_ACCURACY, locale) if summary.accuracy is None
                    else percent(summary.accuracy, locale))
        summaries.append(text(
            Msg.ANALYSIS_PLAYER, locale, player=name, color=colour_name(color, language),
            accuracy=accuracy, inaccuracies=summary.inaccuracies, mistakes=summary.mistakes,
            blunders=summary.blunders))
    mistakes = []
    for ply in analysis.judged():
        if ply.judgement is None or not 0 < ply.ply <= len(moves):
            continue
        line = moves[ply.ply - 1]
        better, continuation = _better(ply, game)
        mistakes.append(MistakeLine(ply.ply, text(
            Msg.WEB_GAME_MISTAKE, locale, number=line.number,
            move=line.move + JUDGEMENT_MARKS[ply.judgement],
            judgement=text(JUDGEMENT_WORDS[ply.judgement], locale), better=better,
            line=continuation)))
    return AnalysisView(
        (summaries[0], summaries[1]), tuple(mistakes),
        None if mistakes else text(Msg.ANALYSIS_NO_MISTAKES, locale),
        text(Msg.WEB_GAME_GRAPH_ALT, locale, white=names[0], black=names[1]))


def _time_control(record: GameRecord, inactivity_limit: timedelta | None,
                  language: Language) -> str | None:
    """The game's time rule in words: its clocks, its move time, else the inactivity
    limit that ends it (docs/RULES.md, "Project-wide game rules", Time)."""
    if record.time_control is not None:
        return text(Msg.WEB_GAME_CLOCKS, language.value,
                    control=time_control_text(record.time_control))
    if record.move_seconds is not None:
        return text(Msg.WEB_GAME_TIME_PER_MOVE, language.value, time=format_timedelta(
            timedelta(seconds=record.move_seconds), locale=language.value, threshold=1.0))
    if inactivity_limit is not None:
        return text(Msg.WEB_GAME_INACTIVITY_LIMIT, language.value, limit=format_timedelta(
            inactivity_limit, locale=language.value, threshold=1.0))
    return None


def game_view(inputs: GameInputs, game: Game, language: Language) -> GameView:
    """The page of `inputs`' game, whose replay is `game` (`bot.services.replay.
    replay_game` of the same record and moves), in `language`. Raises
    `engine.DamaError` (an `IllegalMoveError`) when a stored move is not legal in the
    replay, which the replay would have raised first."""
    record = inputs.record
    locale = language.value
    variant = variant_name(game.variant.key, locale)
    shown = (player_name(record.white, inputs.names[0], language),
             player_name(record.black, inputs.names[1], language))
    sides = tuple(
        SideView(color, colour_name(color, language), name,
                 _rating(record, color, current))
        for color, name, current in zip((Color.WHITE, Color.BLACK), shown, inputs.ratings,
                                        strict=True))
    # In sentences each name keeps its own direction whatever the page's (UAX #9).
    names = (isolate(shown[0]), isolate(shown[1]))
    over = record.status is not GameStatus.ACTIVE
    positions = game.positions()
    moves: list[MoveLine] = []
    written = numbered_moves(game)
    for line in written:
        ply = line.ply
        if over and ply == len(written):
            alt = text(Msg.WEB_GAME_BOARD_ALT_FINAL, locale, variant=variant,
                       move=line.text, ply=ply)
        else:
            alt = text(Msg.WEB_GAME_BOARD_ALT, locale, variant=variant, move=line.text,
                       ply=ply, color=colour_name(positions[ply].turn, language))
        moves.append(MoveLine(ply, line.number, line.move, alt))
    result = _result(inputs, game, names, language)
    status = result if result is not None else turn_status(
        record, inputs.names, game.position.turn, language)
    return GameView(
        game_id=record.id,
        title=text(Msg.WEB_GAME_TITLE, locale, white=names[0], black=names[1],
                   variant=variant, game_id=record.id),
        heading=text(Msg.WEB_GAME_HEADING, locale, white=names[0], black=names[1],
                     game_id=record.id),
        variant=variant,
        # A rated game that ended too early was not rated: its kind says what counted.
        kind=text(Msg.RATED if record.rated and not _unrated_early(inputs, game)
                  else Msg.CASUAL, locale),
        time_control=_time_control(record, inputs.inactivity_limit, language),
        white=sides[0], black=sides[1],
        moves=tuple(moves),
        start_alt=text(Msg.WEB_GAME_BOARD_ALT_START, locale, variant=variant,
                       color=colour_name(game.start.turn, language)),
        status=status, result=result, over=over,
        analysis=(None if inputs.analysis is None
                  else _analysis(inputs.analysis, game, moves, names, language)),
        alt_templates=(_alt_template(variant, game.start.turn, language),
                       _alt_template(variant, game.start.turn.opponent, language)),
    )


def _alt_template(variant: str, to_move: Color, language: Language) -> str:
    """The text alternative after a ply received live, `to_move` to move next, with
    ``{move}`` and ``{ply}`` left for replay.js to fill."""
    return text(Msg.WEB_GAME_BOARD_ALT, language.value, variant=variant, move="{move}",
                ply="{ply}", color=colour_name(to_move, language))
