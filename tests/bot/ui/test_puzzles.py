"""The puzzle card (bot/ui/puzzles.py): the variant's name in the reader's language in the
title and where the puzzle comes from, no task left on a finished puzzle, the Hint
button's warning on a rated attempt, both arrows after a right move, and a recorded
game's date with only its known parts."""

from __future__ import annotations

import dataclasses

import discord

from bot.locales import DOMAINS
from bot.messages import Msg, text
from bot.services.puzzles import PuzzleState
from bot.ui.puzzles import (
    puzzle_embed,
    puzzle_view,
    render_puzzle,
    solving_move,
    source_text,
)
from engine import Color, Position, get_variant
from puzzles import PuzzleSource
from renderer import render_png
from tests.support.puzzles import SHOT, shot_puzzle

SELF_PLAY = dataclasses.replace(shot_puzzle(),
                                source=PuzzleSource("self-play", "level 2 seed 43", 22, ""))


def _view(found: int = 0) -> PuzzleState:
    italian = get_variant("italian")
    return PuzzleState(shot_puzzle(), italian, Position.from_fen(SHOT, italian), Color.WHITE,
                      None, None, found, 2)


def test_the_source_is_written_in_the_readers_language() -> None:
    french = source_text(SELF_PLAY, "fr")
    assert french.startswith("une partie de l'ordinateur contre lui-même (")
    assert french.endswith(", après le demi-coup 22)"), french
    # The bank's "level 2 seed 43" keeps its level, in the reader's words; the seed of
    # the self-play run means nothing to a player and is left out.
    assert french == ("une partie de l'ordinateur contre lui-même (niveau 2, "
                      "après le demi-coup 22)")
    assert "2. seviye, 22. yarım" in source_text(SELF_PLAY, "tr")
    assert "level" not in source_text(SELF_PLAY, "ar")
    assert source_text(SELF_PLAY) == (
        "a game the computer played against itself (level 2, after ply 22)")
    for locale in ("en-US", "tr", "ar", "it", "fr"):
        assert "43" not in source_text(SELF_PLAY, locale), locale
    hand_named = dataclasses.replace(
        shot_puzzle(), source=PuzzleSource("self-play", "an old run", 5, ""))
    assert source_text(hand_named, "it") == (
        "una partita del computer contro se stesso (an old run, dopo la semimossa 5)")
    assert source_text(shot_puzzle(), "it") == (
        "una partita registrata (a test position, hand-made.pdn#1, dopo la semimossa 1)")


def test_the_title_names_the_variant_in_the_readers_language() -> None:
    assert puzzle_embed(_view(), "en-US").title == (
        "Puzzle italian-0000000001 (Italian draughts)")
    french = puzzle_embed(_view(), "fr")
    assert french.title == "Problème italian-0000000001 (Dames italiennes)"
    assert "a game" not in (french.description or "")
    assert "partie enregistrée" in (french.description or "")


def test_a_solved_or_revealed_puzzle_asks_for_no_more_moves() -> None:
    # Seen in local play: "22x13: solved!" above "Find the shot: answer with /solve (2 of 2
    # moves found)", and the same under a revealed solution.
    task = "White to move and win material. Find the shot: answer with /solve"
    assert task + " (moves found: 1/2)." in (puzzle_embed(_view(1), "en-US").description
                                                or "")
    done = puzzle_embed(_view(2), "en-US", note="**c4-d5**: solved!").description or ""
    assert "Find the shot" not in done and "moves found" not in done
    assert done.startswith("**c4-d5**: solved!\nPuzzle rating ") and "From a recorded game" in done


def _labels(rated: bool, locale: str) -> dict[str, str | None]:
    view = puzzle_view(1001, locale, shot_puzzle().id, rated=rated)
    labels: dict[str, str | None] = {}
    for child in view.children:
        assert isinstance(child, discord.ui.DynamicItem)
        button = child.item
        assert isinstance(button, discord.ui.Button) and button.custom_id is not None
        labels[button.custom_id.split(":")[1]] = button.label
    return labels


def test_the_buttons_of_a_rated_puzzle_say_that_a_hint_or_a_reveal_counts_as_a_loss() -> None:
    for locale in ("en-US", *DOMAINS["messages"]):
        rated, unrated = _labels(True, locale), _labels(False, locale)
        assert rated["phint"] == text(Msg.PUZZLE_BUTTON_HINT_RATED, locale), locale
        assert unrated["phint"] == text(Msg.PUZZLE_BUTTON_HINT, locale), locale
        assert rated["phint"] != unrated["phint"]
        assert rated["preveal"] == text(Msg.PUZZLE_BUTTON_REVEAL_RATED, locale), locale
        assert unrated["preveal"] == text(Msg.PUZZLE_BUTTON_REVEAL, locale), locale
        assert rated["preveal"] != unrated["preveal"]


def test_the_count_of_moves_found_reads_right_for_one_move_to_find() -> None:
    # "(0 of 1 moves found)" put a plural after 1: the count is written as a label.
    one = dataclasses.replace(_view(0), total=1)
    assert "(moves found: 0/1)." in (puzzle_embed(one, "en-US").description or "")
    assert "(mosse trovate: 0/1)." in (puzzle_embed(one, "it").description or "")
    assert "(coups trouvés : 0/1)." in (puzzle_embed(one, "fr").description or "")
    assert "(bulunan hamle: 0/1)." in (puzzle_embed(one, "tr").description or "")


def _after_first_right_move() -> PuzzleState:
    """The view after the solver's right first move c4-d5 and the defence's c6xe4."""
    puzzle = shot_puzzle()
    [_, (after_solving, defence), (now, _)] = puzzle.line()
    return PuzzleState(puzzle, get_variant("italian"), now, Color.WHITE, defence,
                      after_solving, 1, 2)


def test_after_a_right_move_the_picture_shows_the_solvers_move_and_the_defences_reply() -> None:
    view = _after_first_right_move()
    [(start, solving), _, _] = view.puzzle.line()
    assert solving_move(view) == solving
    assert view.before is not None and view.last_move is not None
    both = render_png(view.position, view.variant, last_move=view.last_move,
                      before=view.before, numbers=True, earlier_move=solving)
    defence_only = render_png(view.position, view.variant, last_move=view.last_move,
                              before=view.before, numbers=True)
    assert both != defence_only
    assert render_puzzle(view) == both
    # Before any move, and when the last move is the solver's own (the puzzle solved),
    # there is no earlier move to show.
    assert solving_move(_view()) is None
    solved = dataclasses.replace(view, position=view.before, before=start, last_move=solving)
    assert solving_move(solved) is None


def _recorded(detail: str) -> str:
    puzzle = dataclasses.replace(
        shot_puzzle(), source=PuzzleSource("pdn", "assoluto.pdn#3", 12, detail))
    return source_text(puzzle)


def test_a_recorded_games_date_shows_only_its_known_parts() -> None:
    players = "Giocatore 03 - Giocatore 04 - 69° ASSOLUTO 1° TURNO"
    assert _recorded(f"{players} - 2005.??.??") == (
        f"a recorded game ({players} - 2005, assoluto.pdn#3, after ply 12)")
    assert "2005.03," in _recorded(f"{players} - 2005.03.??")
    assert "2005.03.14," in _recorded(f"{players} - 2005.03.14")
    assert _recorded(f"{players} - ????.??.??") == (
        f"a recorded game ({players}, assoluto.pdn#3, after ply 12)")
    assert _recorded("????.??.??") == "a recorded game (assoluto.pdn#3, after ply 12)"
    for locale in ("en-US", "tr", "ar", "it", "fr"):
        assert "?" not in source_text(dataclasses.replace(shot_puzzle(), source=PuzzleSource(
            "pdn", "assoluto.pdn#3", 12, f"{players} - 2005.??.??")), locale), locale
