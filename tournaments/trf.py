"""FIDE's Tournament Report File (TRF16, and the TRF-2026 lines bbpPairings writes): the
header lines and the player lines (001), each with its round entries: opponent, colour
and result code (FIDE Handbook C.04 Annex 2, the TRF16 description,
https://www.fide.com/FIDE/handbook/C04Annex2_TRF16.pdf; XXR and XXC as bbpPairings reads
them).

`write_trf` and `read_trf` convert between text and `TrfTournament`; `tournament_to_trf`
and `trf_rounds` convert between a `TrfTournament` and the shared values of
`tournaments.model`. What is written is read back equal.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournaments.model import Bye, ByeKind, Colour, Entrant, Game, Outcome, Round

PLAYER_TAG = "001"
NAME_TAG = "012"
ROUNDS_TAG = "XXR"
INITIAL_COLOUR_TAG = "XXC"
_FIRST_ROUND_COLUMN = 91
_ROUND_WIDTH = 10


class ResultCode(enum.Enum):
    """A round entry's result code (TRF16). Unrated results (W, D, L) are not written by
    us; the reader takes them as the played results they are."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    PAIRING_ALLOCATED_BYE = "U"
    ZERO_POINT_BYE = "Z"
    HALF_POINT_BYE = "H"
    FULL_POINT_BYE = "F"
    UNRATED_WIN = "W"
    UNRATED_DRAW = "D"
    UNRATED_LOSS = "L"
    NOT_PAIRED = " "


@dataclass(frozen=True)
class TrfEntry:
    """One round of a player line: `opponent` is the opponent's starting rank (None for
    "0000", no opponent), `colour` None for "-"."""

    opponent: int | None
    colour: Colour | None
    result: ResultCode


@dataclass(frozen=True)
class TrfPlayer:
    """A player line (001): starting rank, name, rating, points, rank and the rounds."""

    number: int
    name: str
    rating: int
    points: Fraction
    rank: int
    entries: tuple[TrfEntry, ...]


@dataclass(frozen=True)
class TrfTournament:
    """A TRF file: its header lines other than 001, in order (tag, text), then the
    players."""

    header: tuple[tuple[str, str], ...]
    players: tuple[TrfPlayer, ...]

    def header_value(self, tag: str) -> str | None:
        """The text of the first header line tagged `tag`, None when there is none."""
        return next((text for line_tag, text in self.header if line_tag == tag), None)


def _points_text(points: Fraction) -> str:
    return f"{float(points):4.1f}"


def _entry_text(entry: TrfEntry) -> str:
    opponent = f"{entry.opponent:4d}" if entry.opponent is not None else "0000"
    colour = {Colour.WHITE: "w", Colour.BLACK: "b", None: "-"}[entry.colour]
    return f"{opponent} {colour} {entry.result.value}"


def _player_text(player: TrfPlayer) -> str:
    line = (f"{PLAYER_TAG} {player.number:4d} {'':1}{'':3} {player.name[:33]:<33} "
            f"{player.rating:4d} {'':3} {'':11} {'':10} {_points_text(player.points)} "
            f"{player.rank:4d}")
    return line + "".join(f"  {_entry_text(entry)}" for entry in player.entries)


def write_trf(tournament: TrfTournament) -> str:
    """The text of `tournament`: its header lines, then its player lines, each line ended
    by a newline."""
    lines = [f"{tag} {text}" for tag, text in tournament.header]
    lines.extend(_player_text(player) for player in tournament.players)
    return "".join(line + "\n" for line in lines)


def _read_entry(text: str) -> TrfEntry:
    opponent, colour, result = text[0:4].strip(), text[5:6], text[7:8] or " "
    return TrfEntry(
        opponent=int(opponent) or None if opponent else None,
        colour={"w": Colour.WHITE, "b": Colour.BLACK}.get(colour.lower()),
        result=ResultCode(result.upper()),
    )


def _read_player(line: str) -> TrfPlayer:
    entries: list[TrfEntry] = []
    column = _FIRST_ROUND_COLUMN
    while column < len(line.rstrip()):
        entries.append(_read_entry(line[column:column + 8].ljust(8)))
        column += _ROUND_WIDTH
    rating = line[48:52].strip()
    rank = line[85:89].strip()
    return TrfPlayer(
        number=int(line[4:8]),
        name=line[14:47].strip(),
        rating=int(rating) if rating else 0,
        points=Fraction(line[80:84].strip() or "0"),
        rank=int(rank) if rank else 0,
        entries=tuple(entries),
    )


def read_trf(text: str) -> TrfTournament:
    """The tournament of a TRF text (lines ended by CR, LF or CR LF). Raises ValueError
    when a player line is malformed (a number or a result code that is not one)."""
    header: list[tuple[str, str]] = []
    players: list[TrfPlayer] = []
    for line in re.split(r"\r\n|\r|\n", text):
        if not line.strip():
            continue
        tag = line[:3]
        if tag == PLAYER_TAG:
            players.append(_read_player(line))
        else:
            header.append((tag, line[4:]))
    return TrfTournament(tuple(header), tuple(players))


_CODES: dict[Outcome, tuple[ResultCode, ResultCode]] = {
    Outcome.WHITE_WINS: (ResultCode.WIN, ResultCode.LOSS),
    Outcome.DRAW: (ResultCode.DRAW, ResultCode.DRAW),
    Outcome.BLACK_WINS: (ResultCode.LOSS, ResultCode.WIN),
    Outcome.WHITE_WINS_BY_FORFEIT: (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS),
    Outcome.BLACK_WINS_BY_FORFEIT: (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN),
    Outcome.DOUBLE_FORFEIT: (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_LOSS),
}
_OUTCOMES = {codes: outcome for outcome, codes in _CODES.items()}
_PLAYED = {ResultCode.UNRATED_WIN: ResultCode.WIN, ResultCode.UNRATED_DRAW: ResultCode.DRAW,
           ResultCode.UNRATED_LOSS: ResultCode.LOSS}
_POINTS = {ResultCode.WIN: Fraction(1), ResultCode.DRAW: Fraction(1, 2),
           ResultCode.FORFEIT_WIN: Fraction(1), ResultCode.PAIRING_ALLOCATED_BYE: Fraction(1)}


def _entries(player: int, rounds: Sequence[Round],
             number_of: Mapping[int, int]) -> tuple[TrfEntry, ...]:
    entries: list[TrfEntry] = []
    for round_ in rounds:
        entry = TrfEntry(None, None, ResultCode.NOT_PAIRED)
        for game in round_.games:
            if player in (game.white, game.black):
                colour = game.colour_of(player)
                result = ResultCode.NOT_PAIRED
                if game.outcome is not None:
                    white, black = _CODES[game.outcome]
                    result = white if colour is Colour.WHITE else black
                entry = TrfEntry(number_of[game.opponent_of(player)], colour, result)
        for bye in round_.byes:
            if bye.player == player:
                entry = TrfEntry(None, None, ResultCode(bye.kind.value))
        entries.append(entry)
    return tuple(entries)


def trf_name(name: str) -> str:
    """`name` as a TRF player line holds it: in ASCII (accents dropped, other characters
    left out, spaces squeezed), so that the line's fields keep their columns for a
    program that reads bytes as for one that reads characters (FIDE C.04 Annex 2 gives
    fixed columns); "" when nothing is left."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return " ".join("".join(c for c in folded if c.isprintable()).split())


def tournament_to_trf(name: str, entrants: Collection[Entrant], rounds: Sequence[Round],
                      total_rounds: int, names: Mapping[int, str] | None = None,
                      initial_colour: Colour = Colour.WHITE,
                      ranks: Mapping[int, int] | None = None) -> TrfTournament:
    """The TRF of a tournament: header lines 012 (`name`), 062 (the number of players),
    XXR (`total_rounds`) and XXC (`initial_colour`: "white1" or "black1"), the
    extensions bbpPairings reads; a player line per entrant by pairing
    number, named from `names` in ASCII (`trf_name`; the player's id when absent or when
    nothing of the name is ASCII), with its points (a win 1, a
    draw 1/2, the pairing-allocated bye 1; docs/RULES.md, "Swiss") and its rank: from
    `ranks` (player to rank: the standings', tie-breaks included) when given, else by
    points then pairing number."""
    number_of = {entrant.player: entrant.number for entrant in entrants}
    ordered = sorted(entrants, key=lambda entrant: entrant.number)
    entries = {entrant.player: _entries(entrant.player, rounds, number_of)
               for entrant in ordered}
    points = {player: sum((_POINTS.get(entry.result, Fraction(0)) for entry in rows),
                          Fraction(0)) for player, rows in entries.items()}
    ranking = sorted(ordered, key=lambda entrant: (-points[entrant.player], entrant.number))
    rank = {entrant.player: place for place, entrant in enumerate(ranking, 1)}
    if ranks is not None:
        rank = {player: ranks.get(player, place) for player, place in rank.items()}
    players = tuple(
        TrfPlayer(entrant.number,
                  trf_name((names or {}).get(entrant.player, "")) or str(entrant.player),
                  entrant.rating, points[entrant.player], rank[entrant.player],
                  entries[entrant.player])
        for entrant in ordered)
    header = ((NAME_TAG, name), ("062", str(len(ordered))), (ROUNDS_TAG, str(total_rounds)),
              (INITIAL_COLOUR_TAG, f"{initial_colour.value}1"))
    return TrfTournament(header, players)


def _game(round_number: int, number: int, entry: TrfEntry,
          by_number: Mapping[int, TrfPlayer]) -> Game:
    assert entry.opponent is not None
    opponent = by_number[entry.opponent].entries[round_number - 1]
    white, black = (number, entry.opponent) if entry.colour is Colour.WHITE else (
        entry.opponent, number)
    own = _PLAYED.get(entry.result, entry.result)
    theirs = _PLAYED.get(opponent.result, opponent.result)
    codes = (own, theirs) if entry.colour is Colour.WHITE else (theirs, own)
    outcome = _OUTCOMES.get(codes)
    if outcome is None and ResultCode.NOT_PAIRED not in codes:
        raise ValueError(f"round {round_number}: results {codes} do not make a game")
    return Game(round_number, 0, white, black, outcome)


def trf_rounds(tournament: TrfTournament) -> tuple[tuple[Entrant, ...], tuple[Round, ...]]:
    """The entrants and rounds of a TRF: each player's id is its starting rank (also its
    pairing number); a game per pair of entries naming each other, boards numbered in
    order of the lower starting rank; "0000" with U a pairing-allocated bye, any other
    entry without opponent a round not paired. Raises ValueError when a game's two
    results do not agree, or a player line has a code we do not model (H, F)."""
    by_number = {player.number: player for player in tournament.players}
    entrants = tuple(Entrant(player.number, player.rating, player.number)
                     for player in sorted(tournament.players, key=lambda p: p.number))
    count = max((len(player.entries) for player in tournament.players), default=0)
    rounds: list[Round] = []
    for number in range(1, count + 1):
        games: list[Game] = []
        byes: list[Bye] = []
        for player in sorted(tournament.players, key=lambda p: p.number):
            entry = (player.entries[number - 1] if number <= len(player.entries)
                     else TrfEntry(None, None, ResultCode.NOT_PAIRED))
            if entry.result in (ResultCode.HALF_POINT_BYE, ResultCode.FULL_POINT_BYE):
                raise ValueError(f"round {number}: a {entry.result.name} is not modelled")
            if entry.opponent is None:
                kind = (ByeKind.PAIRING_ALLOCATED
                        if entry.result is ResultCode.PAIRING_ALLOCATED_BYE
                        else ByeKind.NOT_PAIRED)
                byes.append(Bye(number, player.number, kind))
            elif player.number < entry.opponent:
                game = _game(number, player.number, entry, by_number)
                games.append(Game(number, len(games) + 1, game.white, game.black,
                                  game.outcome))
        rounds.append(Round(number, tuple(games), tuple(byes)))
    return entrants, tuple(rounds)
