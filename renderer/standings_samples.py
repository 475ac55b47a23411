"""Sample standings for `make gallery` (renderer.gallery): an 8-player Swiss after 4
rounds (in English, and in Arabic right to left), a 6-player round robin, and a
60-player arena with streaks (its rows and games cut by the caps).

The samples are crosstables built here from hand-written games, scored as
docs/RULES.md scores a tournament (win 2, draw 1, loss 0; a forfeit as a win or a loss;
the arena's doubled wins on a streak), ranked by score, then Buchholz cut 1, then
Sonneborn-Berger, ranks shared only when all three are equal. It is sample data for
review, not the tournaments package's computation (the renderer does not import it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from engine import Color
from renderer.standings import (
    CellResult,
    RoundCell,
    StandingsHeadings,
    StandingsRow,
    StandingsTable,
    TextDirection,
)

NAMES = ("Zoë Ångström", "Çağla Yılmaz", "علي حسن", "Łukasz Wójcik", "Giulia Esposito",
         "Kwame Mensah", "李娜", "Étienne Dupont-Lefèvre de la Rochefoucauld")
"""Accents, Turkish, Arabic, CJK (written as the player's number when no font on the
machine draws it) and a name too long for its column."""

_POINTS = {"1-0": (2, 0), "1/2": (1, 1), "0-1": (0, 2), "+/-": (2, 0), "-/+": (0, 2)}
_RESULTS = {
    "1-0": (CellResult.WIN, CellResult.LOSS),
    "1/2": (CellResult.DRAW, CellResult.DRAW),
    "0-1": (CellResult.LOSS, CellResult.WIN),
    "+/-": (CellResult.FORFEIT_WIN, CellResult.FORFEIT_LOSS),
    "-/+": (CellResult.FORFEIT_LOSS, CellResult.FORFEIT_WIN),
}

Pairing = tuple[int, int, str]
"""(white's number, black's number, outcome: "1-0", "1/2", "0-1", "+/-", "-/+")."""

SWISS_ROUNDS: tuple[tuple[Pairing, ...], ...] = (
    ((1, 5, "1-0"), (6, 2, "0-1"), (3, 7, "1/2"), (8, 4, "0-1")),
    ((2, 1, "1/2"), (4, 7, "1-0"), (3, 6, "1-0"), (5, 8, "1-0")),
    ((4, 1, "0-1"), (2, 3, "1-0"), (7, 5, "1/2"), (8, 6, "+/-")),
    ((1, 3, "1-0"), (4, 2, "1/2"), (5, 6, "0-1"), (8, 7, "0-1")),
)

ROUND_ROBIN_ROUNDS: tuple[tuple[Pairing, ...], ...] = (
    ((1, 6, "1-0"), (2, 5, "1/2"), (3, 4, "0-1")),
    ((6, 4, "1/2"), (5, 3, "1-0"), (1, 2, "1/2")),
    ((2, 6, "1-0"), (3, 1, "0-1"), (4, 5, "1/2")),
    ((6, 5, "0-1"), (1, 4, "1/2"), (2, 3, "1-0")),
    ((3, 6, "1/2"), (4, 2, "0-1"), (5, 1, "0-1")),
)
"""The Berger table of 6 players (FIDE), with made-up results."""


@dataclass
class _Record:
    cells: list[tuple[int, Color, str]]  # (opponent number, colour, outcome for white)

    def points(self) -> int:
        return sum(_points(colour, outcome) for _, colour, outcome in self.cells)


def _points(colour: Color, outcome: str) -> int:
    white, black = _POINTS[outcome]
    return white if colour is Color.WHITE else black


def crosstable(title: str, headings: StandingsHeadings, names: tuple[str, ...],
               rounds: tuple[tuple[Pairing, ...], ...],
               direction: TextDirection = TextDirection.LEFT_TO_RIGHT) -> StandingsTable:
    """The standings of `rounds` between `names` (player n is names[n - 1]), the cells
    naming the opponent's rank."""
    records = {n: _Record([]) for n in range(1, len(names) + 1)}
    for pairings in rounds:
        for white, black, outcome in pairings:
            records[white].cells.append((black, Color.WHITE, outcome))
            records[black].cells.append((white, Color.BLACK, outcome))
    score = {n: r.points() for n, r in records.items()}

    def buchholz_cut_1(n: int) -> int:
        opponents = sorted(score[o] for o, _, _ in records[n].cells)
        return sum(opponents[1:])

    def sonneborn_berger(n: int) -> Fraction:
        return sum((Fraction(_points(c, o), 2) * score[opp]
                    for opp, c, o in records[n].cells), Fraction(0))

    keys = {n: (score[n], buchholz_cut_1(n), sonneborn_berger(n)) for n in records}
    order = sorted(records, key=lambda n: (tuple(-k for k in keys[n]), n))
    rank = {n: 1 + sum(1 for m in records if keys[m] > keys[n]) for n in records}
    rows = []
    for n in order:
        cells = []
        for opponent, colour, outcome in records[n].cells:
            mine = _RESULTS[outcome][0 if colour is Color.WHITE else 1]
            cells.append(RoundCell(mine, rank[opponent], colour, str(_points(colour, outcome))))
        rows.append(StandingsRow(rank[n], n, names[n - 1], str(score[n]),
                                 (str(keys[n][1]), _decimal(keys[n][2])), tuple(cells)))
    return StandingsTable(title, headings, tuple(rows), direction)


def _decimal(value: Fraction) -> str:
    return f"{float(value):g}"


ENGLISH = StandingsHeadings("#", "Player", "Points", ("Bu-1", "SB"), "and {count} more",
                            "the first {count} rounds are not shown")
ARABIC = StandingsHeadings("#", "اللاعب", "النقاط", ("بوخهولز-1", "س-ب"),
                           "و{count} آخرون", "لا تظهر أول {count} جولات")


def swiss() -> StandingsTable:
    """An 8-player Swiss after its 4 rounds, in English."""
    return crosstable("Friday Swiss \u2014 standings after round 4", ENGLISH, NAMES,
                      SWISS_ROUNDS)


def swiss_arabic() -> StandingsTable:
    """The same Swiss worded in Arabic, right to left."""
    return crosstable("سويسري الجمعة \u2014 الترتيب بعد الجولة 4", ARABIC, NAMES,
                      SWISS_ROUNDS, TextDirection.RIGHT_TO_LEFT)


def round_robin() -> StandingsTable:
    """A 6-player single round robin after its 5 rounds."""
    return crosstable("Club round robin \u2014 final standings", ENGLISH, NAMES[:6],
                      ROUND_ROBIN_ROUNDS)


ARENA_PLAYERS = 60
ARENA_SEED = 25


def arena(players: int = ARENA_PLAYERS, seed: int = ARENA_SEED) -> StandingsTable:
    """An arena of `players` with 6 to 18 games each (seeded results): a win 2, a draw
    1, and after two wins in a row each win 4 until a game is not won, as
    docs/RULES.md counts an arena. More rows and games than the caps draw."""
    rng = random.Random(seed)
    rows = []
    for n in range(1, players + 1):
        streak, total, cells = 0, 0, []
        for _ in range(rng.randint(6, 18)):
            result = rng.choices((CellResult.WIN, CellResult.DRAW, CellResult.LOSS),
                                 (5, 2, 4))[0]
            doubled = streak >= 2 and result is CellResult.WIN
            points = {CellResult.WIN: 2, CellResult.DRAW: 1}.get(result, 0) * (2 if doubled
                                                                               else 1)
            streak = streak + 1 if result is CellResult.WIN else 0
            total += points
            cells.append(RoundCell(result, None, None, str(points), doubled))
        rows.append((total, n, tuple(cells), streak >= 2))
    rows.sort(key=lambda row: (-row[0], row[1]))
    names = [f"Player {n}" for n in range(1, players + 1)]
    names[:len(NAMES)] = NAMES
    table_rows = tuple(
        StandingsRow(1 + sum(1 for other in rows if other[0] > total), n, names[n - 1],
                     str(total), (), cells, on_fire)
        for total, n, cells, on_fire in rows)
    headings = StandingsHeadings("#", "Player", "Points", (), "and {count} more",
                                 "each player's last {shown} games")
    return StandingsTable("Sunday Arena \u2014 60 minutes", headings, table_rows,
                          round_numbers=False)
