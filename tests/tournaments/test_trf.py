"""FIDE's TRF (tournaments/trf.py): read, written and read back; the shared values
converted to it and back."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from tournaments.model import Bye, ByeKind, Colour, Entrant, Game, Outcome, Round
from tournaments.trf import (
    ResultCode,
    TrfEntry,
    read_trf,
    tournament_to_trf,
    trf_rounds,
    write_trf,
)

BBP_FILE = Path(__file__).resolve().parents[1] / "data" / "pairings" / "dutch-045p-08r.trf"


def _bbp_text() -> str:
    return BBP_FILE.read_bytes().decode("utf-8")


def test_a_bbppairings_file_is_read_player_by_player() -> None:
    tournament = read_trf(_bbp_text())
    assert len(tournament.players) == 45
    assert tournament.header_value("012") is not None
    first = tournament.players[0]
    assert first.number == 1 and first.rating > 0 and len(first.entries) == 8
    assert all(entry.result is not ResultCode.NOT_PAIRED
               for player in tournament.players for entry in player.entries)


def test_player_lines_are_written_in_the_columns_they_were_read_from() -> None:
    text = _bbp_text()
    original = [line.rstrip() for line in re.split(r"\r\n|\r|\n", text)
                if line.startswith("001")]
    written = [line for line in write_trf(read_trf(text)).splitlines()
               if line.startswith("001")]
    assert written == original


def test_what_is_written_is_read_back_equal() -> None:
    tournament = read_trf(_bbp_text())
    assert read_trf(write_trf(tournament)) == tournament


def test_a_bbppairings_file_gives_the_rounds_it_records() -> None:
    entrants, rounds = trf_rounds(read_trf(_bbp_text()))
    assert [entrant.number for entrant in entrants] == list(range(1, 46))
    assert len(rounds) == 8
    for round_ in rounds:
        players = [p for game in round_.games for p in (game.white, game.black)]
        players += [bye.player for bye in round_.byes]
        assert sorted(players) == list(range(1, 46))
    forfeits = [game for round_ in rounds for game in round_.games
                if game.outcome is not None and not game.outcome.played]
    assert forfeits
    assert any(bye.kind is ByeKind.NOT_PAIRED for round_ in rounds for bye in round_.byes)


def test_a_tournament_exported_and_read_back_has_the_same_rounds() -> None:
    entrants = (Entrant(501, 1900, 1), Entrant(502, 1800, 2), Entrant(503, 1700, 3),
                Entrant(504, 1600, 4))
    rounds = (
        Round(1, (Game(1, 1, 501, 503, Outcome.WHITE_WINS),),
              (Bye(1, 502, ByeKind.PAIRING_ALLOCATED), Bye(1, 504, ByeKind.NOT_PAIRED))),
        Round(2, (Game(2, 1, 502, 501, Outcome.DRAW),
                  Game(2, 2, 504, 503, Outcome.BLACK_WINS_BY_FORFEIT))),
    )
    trf = tournament_to_trf("Club Swiss", entrants, rounds, 5, {501: "Ada"})
    assert trf.header_value("012") == "Club Swiss" and trf.header_value("XXR") == "5"
    assert trf.header_value("XXC") == "white1"
    ada = trf.players[0]
    assert ada.name == "Ada" and ada.points == Fraction(3, 2) and ada.rank == 1
    assert ada.entries == (TrfEntry(3, Colour.WHITE, ResultCode.WIN),
                           TrfEntry(2, Colour.BLACK, ResultCode.DRAW))
    assert trf.players[1].points == Fraction(3, 2) and trf.players[1].rank == 2
    read = read_trf(write_trf(trf))
    assert read == trf
    numbered = {entrant.number: entrant.player for entrant in entrants}
    _, back = trf_rounds(read)
    renamed = tuple(
        Round(round_.number,
              tuple(Game(g.round, g.board, numbered[g.white], numbered[g.black], g.outcome)
                    for g in round_.games),
              tuple(Bye(b.round, numbered[b.player], b.kind) for b in round_.byes))
        for round_ in back)
    assert renamed == rounds


def test_results_of_a_game_that_disagree_are_refused() -> None:
    text = write_trf(tournament_to_trf(
        "T", (Entrant(1, 1900, 1), Entrant(2, 1800, 2)),
        (Round(1, (Game(1, 1, 1, 2, Outcome.WHITE_WINS),)),), 1))
    assert "   1 b 0" in text
    broken = text.replace("   1 b 0", "   1 b 1")
    with pytest.raises(ValueError, match="do not make a game"):
        trf_rounds(read_trf(broken))


def test_player_lines_keep_their_columns_in_bytes_whatever_the_names() -> None:
    """TRF's fields are fixed columns (FIDE C.04 Annex 2); programs that read a line's
    bytes (bbpPairings) must find the rating, points and rounds where a reader of
    characters finds them, so a name is written in ASCII: accents dropped, a name with
    no Latin letter replaced by the player's id."""
    entrants = (Entrant(501, 1900, 1), Entrant(502, 1800, 2), Entrant(503, 1700, 3))
    rounds = (Round(1, (Game(1, 1, 501, 502, Outcome.WHITE_WINS),),
                    (Bye(1, 503, ByeKind.PAIRING_ALLOCATED),)),)
    names = {501: "Şükrü Çelik", 502: "محمد", 503: "😀 Zoë\u202e"}
    text = write_trf(tournament_to_trf("Kış Turnuvası", entrants, rounds, 1, names))
    lines = [line for line in text.splitlines() if line.startswith("001")]
    for line, rating in zip(lines, ("1900", "1800", "1700"), strict=True):
        raw = line.encode("utf-8")
        assert raw.isascii()
        assert raw[48:52].decode() == rating
    assert [player.name for player in read_trf(text).players] == ["Sukru Celik", "502", "Zoe"]
