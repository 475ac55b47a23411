"""The tournament standings picture: its input value (`StandingsTable`) and where each
thing goes (`standings_layout`); `renderer.standings_draw` paints it.

The picture is a table on the boards' wooden frame: a title line, a line of column
headings, then one row per player, in the order given: rank, name (with a flame when the
player is on an arena streak, docs/RULES.md "Tournaments"), score, the tie-break values,
and one cell per round (the opponent, the side they had, the result). Ranks 1 to 3 sit on
a gold, silver and bronze disc and their names are bold. Every word is the caller's (the
reader's language); the renderer adds digits and symbols only. With
`TextDirection.RIGHT_TO_LEFT` (Arabic) the columns are mirrored: the rank on the right,
the first round leftmost of the rounds, each text aligned to the right.

Names are any Unicode; which font draws them, and what is written when no font can
(never boxes: the player's number "#7"), is in `renderer.fonts`. A name longer than its
column is cut, ending in an ellipsis.

Large tournaments: at most `StandingsTable.max_rows` rows are drawn (the first ones:
the top of the standings), with a note saying how many more there are, and at most
`max_rounds` round cells per row (the last ones), with a note saying which were left out.
A picture of 50 rows of 12 rounds is about 1,700 x 2,500 pixels and some hundred
kilobytes: far under Discord's 10 MiB for an attachment.
"""

from __future__ import annotations

import enum
import unicodedata
from dataclasses import dataclass
from typing import assert_never

from engine import Color
from renderer.errors import RenderError
from renderer.fonts import Font, FontChain, display_name, drawable_or, font_chain


class TextDirection(enum.Enum):
    """The reading direction of the caller's language: the columns' order and the text
    alignment follow it."""

    LEFT_TO_RIGHT = "ltr"
    RIGHT_TO_LEFT = "rtl"


class CellResult(enum.Enum):
    """What one round was for one player. A forfeit is a game not played that scores as a
    win or a loss; `BYE` is the pairing-allocated bye, `NOT_PAIRED` a round the player
    was in the tournament without a game (docs/RULES.md, "Tournaments")."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit win"
    FORFEIT_LOSS = "forfeit loss"
    BYE = "bye"
    NOT_PAIRED = "not paired"
    UNDER_WAY = "under way"


@dataclass(frozen=True, slots=True)
class RoundCell:
    """One player's round (an arena: one game).

    `opponent`: the number the reader looks the opponent up by (the rank written in this
    picture's first column, or the pairing number), None for a bye or a round without a
    game. `colour`: the side the player had (a played game or one under way), None
    otherwise. `points`: the text of the points the round scored ("2", "1", "0", "4"; the
    caller's numbers), empty to write the result's symbol instead (+, =, -).
    `doubled`: the points count double (an arena streak): the cell is lit in the flame's
    colour."""

    result: CellResult
    opponent: int | None = None
    colour: Color | None = None
    points: str = ""
    doubled: bool = False


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One player's line. `rank`: the place (players whose every tie-break is equal
    share one). `number`: the pairing number (arena: the entry order), written instead
    of a name no font can draw. `score` and `tie_breaks`: texts, in the order of
    `StandingsHeadings.tie_breaks`. `cells`: the rounds, first round first. `on_fire`:
    an arena player on a winning streak (their next win counts double)."""

    rank: int
    number: int
    name: str
    score: str
    tie_breaks: tuple[str, ...] = ()
    cells: tuple[RoundCell, ...] = ()
    on_fire: bool = False


@dataclass(frozen=True, slots=True)
class StandingsHeadings:
    """The column headings and notes, worded by the caller. `tie_breaks`: one heading per
    tie-break value (short: "Bu-1", "SB"). `more_players`: the note under a table cut at
    `max_rows`, with `{count}` for the players left out. `earlier_rounds`: the note when
    only the last `max_rounds` rounds are drawn, with `{count}` for the rounds left out
    (in an arena: of the player with the most games) and `{shown}` for `max_rounds`.
    (The placeholders are replaced as written; other braces stay.) A heading no font can
    draw is replaced by a neutral one ("#", "Σ", "1", ...)."""

    rank: str = "#"
    player: str = "Player"
    score: str = "Score"
    tie_breaks: tuple[str, ...] = ()
    more_players: str = "and {count} more"
    earlier_rounds: str = "the first {count} rounds are not shown"


MAX_ROWS = 50
MAX_ROUNDS = 12


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """The standings picture's input. `title`: one line (the tournament's name and the
    round shown). `rows`: in standing order. `round_numbers`: True to head the round
    columns with the round numbers (Swiss, round robin), False for an arena, whose cells
    are each player's games in order and line up across rows by position only.
    `max_rows` and `max_rounds`: the caps (see the module docstring)."""

    title: str
    headings: StandingsHeadings
    rows: tuple[StandingsRow, ...]
    direction: TextDirection = TextDirection.LEFT_TO_RIGHT
    round_numbers: bool = True
    max_rows: int = MAX_ROWS
    max_rounds: int = MAX_ROUNDS

    def check(self) -> None:
        """Raises RenderError when a row has a different count of tie-breaks than the
        headings, when rows have different counts of cells under round numbers (each
        round is a column: give a round without a game as `CellResult.NOT_PAIRED`), or
        when a cap is below 1."""
        if self.max_rows < 1 or self.max_rounds < 1:
            raise RenderError(f"the caps must be 1 or more, not {self.max_rows} rows and "
                              f"{self.max_rounds} rounds")
        count = len(self.headings.tie_breaks)
        for row in self.rows:
            if len(row.tie_breaks) != count:
                raise RenderError(f"row {row.rank} has {len(row.tie_breaks)} tie-break "
                                  f"values; the headings name {count}")
        rounds = {len(row.cells) for row in self.rows}
        if self.round_numbers and len(rounds) > 1:
            raise RenderError(f"under round numbers every row has a cell per round; the "
                              f"rows have {sorted(rounds)} cells")


class ColumnKind(enum.Enum):
    RANK = "rank"
    PLAYER = "player"
    SCORE = "score"
    TIE_BREAK = "tie-break"
    ROUND = "round"


@dataclass(frozen=True, slots=True)
class Column:
    """One column: its `kind`, `index` (which tie-break or round cell, 0 for the others),
    `left` edge and `width` in pixels, and its `heading` as drawn."""

    kind: ColumnKind
    index: int
    left: int
    width: int
    heading: str

    @property
    def right(self) -> int:
        return self.left + self.width


@dataclass(frozen=True, slots=True)
class PlacedRow:
    """A drawn row: the row, its `top` pixel, the `name` as written (shortened, or the
    player's number) and the `cells` drawn (the last `max_rounds`)."""

    row: StandingsRow
    top: int
    name: str
    cells: tuple[RoundCell, ...]


@dataclass(frozen=True, slots=True)
class StandingsLayout:
    """Where everything goes in a `width` x `height` picture. `columns` in reading order
    of the table (rank first); their pixel places are mirrored right to left."""

    width: int
    height: int
    direction: TextDirection
    title: str
    columns: tuple[Column, ...]
    header_top: int
    rows: tuple[PlacedRow, ...]
    notes: tuple[str, ...]
    notes_top: int

    def column(self, kind: ColumnKind, index: int = 0) -> Column:
        """The column of `kind` and `index`. Raises KeyError when there is none."""
        for column in self.columns:
            if column.kind is kind and column.index == index:
                return column
        raise KeyError(f"no {kind.value} column {index}")


FONT_PX = 26
TITLE_PX = 34
MARGIN = 24
TITLE_HEIGHT = 64
ROW_HEIGHT = 44
NOTE_HEIGHT = 38
PAD = 12
RANK_WIDTH = 64
NAME_MAX_WIDTH = 380
NAME_MIN_WIDTH = 160
FLAME_WIDTH = 26
DISC = 14
"""Sizes in pixels: type, margins, rows, the name column's bounds, the flame mark and the
side disc of a round cell."""

ELLIPSIS = "\u2026"


@dataclass(frozen=True, slots=True)
class Fonts:
    """The chains the picture writes with."""

    text: FontChain
    bold: FontChain
    title: FontChain


def fonts() -> Fonts:
    """The picture's fonts (`renderer.fonts.font_chain`)."""
    return Fonts(font_chain(FONT_PX), font_chain(FONT_PX, bold=True),
                 font_chain(TITLE_PX, bold=True))


def text_width(text: str, chain: FontChain) -> int:
    """Width in pixels of `text` in the chain's font that draws it (the first one when
    none does)."""
    font: Font = chain.pick(text) or chain.first
    return round(font.getlength(text))


def shorten(text: str, width: int, chain: FontChain) -> str:
    """`text`, or its longest beginning followed by an ellipsis, that fits in `width`
    pixels; a beginning never ends on a combining mark's base alone or on a space."""
    if text_width(text, chain) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(_cut(text, middle), chain) <= width:
            low = middle
        else:
            high = middle - 1
    return _cut(text, low)


def _cut(text: str, length: int) -> str:
    """The first `length` characters and an ellipsis, less a base whose combining marks
    would be cut off."""
    while 0 < length < len(text) and unicodedata.combining(text[length]):
        length -= 1
    return text[:length].rstrip() + ELLIPSIS


def cell_text(cell: RoundCell) -> tuple[str, str]:
    """A round cell's two texts: the opponent (empty when not given; "–" for a bye or a
    round not paired) and the result (the caller's points; for a forfeit the TRF code +
    or -, FIDE's TRF format; when no points are given, + = - for a win, draw or loss,
    "…" under way)."""
    opponent = "" if cell.opponent is None else str(cell.opponent)
    if cell.result in (CellResult.BYE, CellResult.NOT_PAIRED):
        opponent = "\u2013"
    match cell.result:
        case CellResult.FORFEIT_WIN:
            return opponent, "+"
        case CellResult.FORFEIT_LOSS:
            return opponent, "\u2212"
        case CellResult.UNDER_WAY:
            return opponent, ELLIPSIS
        case CellResult.WIN:
            return opponent, cell.points or "+"
        case CellResult.DRAW:
            return opponent, cell.points or "="
        case CellResult.LOSS:
            return opponent, cell.points or "\u2212"
        case CellResult.BYE | CellResult.NOT_PAIRED:
            return opponent, cell.points
        case _ as unreachable:
            assert_never(unreachable)


def _cell_width(cell: RoundCell, f: Fonts) -> int:
    """A round cell's width: the opponent, the side disc and the result (bold), padded."""
    opponent, result = cell_text(cell)
    return text_width(opponent, f.text) + DISC + text_width(result, f.bold) + 2 * PAD


def _headings(table: StandingsTable, chain: FontChain) -> tuple[str, str, str, list[str]]:
    h = table.headings
    return (drawable_or(h.rank, "#", chain), drawable_or(h.player, "", chain),
            drawable_or(h.score, "\u03a3", chain),
            [drawable_or(text, f"{i + 1}", chain) for i, text in enumerate(h.tie_breaks)])


def _title(text: str, chain: FontChain) -> str:
    """The title as written: as `renderer.fonts.display_name` writes a name, but empty
    where a name would become a number."""
    shown = display_name(text, 0, chain)
    return "" if shown == "#0" else shown


def _notes(table: StandingsTable, hidden_rows: int, hidden_rounds: int,
           chain: FontChain) -> tuple[str, ...]:
    notes: list[str] = []
    if hidden_rows:
        text = table.headings.more_players.replace("{count}", str(hidden_rows))
        notes.append(drawable_or(text, f"+{hidden_rows}", chain))
    if hidden_rounds:
        text = table.headings.earlier_rounds.replace("{count}", str(hidden_rounds)).replace(
            "{shown}", str(table.max_rounds))
        notes.append(drawable_or(text, f"\u22ef {hidden_rounds}", chain))
    return tuple(notes)


def standings_layout(table: StandingsTable) -> StandingsLayout:
    """Where `table`'s parts go (see the module docstring).

    Raises RenderError as `StandingsTable.check`."""
    table.check()
    f = fonts()
    shown = table.rows[:table.max_rows]
    hidden_rows = len(table.rows) - len(shown)
    longest = max((len(row.cells) for row in shown), default=0)
    hidden_rounds = max(0, longest - table.max_rounds)
    rank_h, player_h, score_h, tie_h = _headings(table, f.bold)
    names = [display_name(row.name, row.number, f.text) for row in shown]
    fire = FLAME_WIDTH + PAD if any(row.on_fire for row in shown) else 0
    name_width = max([text_width(n, f.bold) for n in names] + [text_width(player_h, f.bold)])
    name_width = min(NAME_MAX_WIDTH, max(NAME_MIN_WIDTH, name_width)) + fire
    cells = [row.cells[-table.max_rounds:] for row in shown]
    widths: list[tuple[ColumnKind, int, int, str]] = [
        (ColumnKind.RANK, 0, max(RANK_WIDTH, text_width(rank_h, f.bold) + 2 * PAD), rank_h),
        (ColumnKind.PLAYER, 0, name_width + 2 * PAD, player_h),
        (ColumnKind.SCORE, 0, 2 * PAD + max(
            [text_width(score_h, f.bold)] + [text_width(r.score, f.bold) for r in shown]),
         score_h),
    ]
    for i, heading in enumerate(tie_h):
        widths.append((ColumnKind.TIE_BREAK, i, 2 * PAD + max(
            [text_width(heading, f.bold)] + [text_width(r.tie_breaks[i], f.text)
                                              for r in shown]), heading))
    round_width = max([_cell_width(c, f) for row in cells for c in row] + [72])
    for i in range(min(longest, table.max_rounds)):
        label = str(hidden_rounds + i + 1) if table.round_numbers else ""
        widths.append((ColumnKind.ROUND, i, max(round_width, text_width(label, f.bold)),
                       label))
    table_width = sum(w for _, _, w, _ in widths)
    title = _title(table.title, f.title)
    width = max(table_width, text_width(title, f.title)) + 2 * MARGIN
    width = min(width, max(table_width + 2 * MARGIN, 1200))
    title = shorten(title, width - 2 * MARGIN, f.title)
    columns = _place(widths, width, table.direction)
    header_top = MARGIN + TITLE_HEIGHT
    placed = tuple(
        PlacedRow(row, header_top + ROW_HEIGHT * (k + 1),
                  shorten(name, name_width - fire, f.bold if row.rank <= 3 else f.text),
                  row_cells)
        for k, (row, name, row_cells) in enumerate(zip(shown, names, cells, strict=True)))
    notes = _notes(table, hidden_rows, hidden_rounds, f.text)
    notes_top = header_top + ROW_HEIGHT * (len(shown) + 1) + PAD
    height = notes_top + NOTE_HEIGHT * len(notes) + MARGIN
    return StandingsLayout(width, height, table.direction, title, columns, header_top, placed,
                           notes, notes_top)


def _place(widths: list[tuple[ColumnKind, int, int, str]], width: int,
           direction: TextDirection) -> tuple[Column, ...]:
    """The columns side by side from the left margin, mirrored for right to left."""
    columns: list[Column] = []
    x = MARGIN
    for kind, index, w, heading in widths:
        left = x if direction is TextDirection.LEFT_TO_RIGHT else width - x - w
        columns.append(Column(kind, index, left, w, heading))
        x += w
    return tuple(columns)

