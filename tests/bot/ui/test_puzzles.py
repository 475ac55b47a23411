"""The puzzle card's texts in the reader's language (bot/ui/puzzles.py): the variant's name
in the title and where the puzzle comes from, as every other text of the card is."""

from __future__ import annotations

import dataclasses

from bot.services.puzzles import PuzzleView
from bot.ui.puzzles import puzzle_embed, source_text
from engine import Color, Position, get_variant
from puzzles import PuzzleSource
from tests.support.puzzles import SHOT, shot_puzzle

SELF_PLAY = dataclasses.replace(shot_puzzle(),
                                source=PuzzleSource("self-play", "level 2 seed 43", 22, ""))


def _view(found: int = 0) -> PuzzleView:
    italian = get_variant("italian")
    return PuzzleView(shot_puzzle(), italian, Position.from_fen(SHOT, italian), Color.WHITE,
                      None, None, found, 2)


def test_the_source_is_written_in_the_readers_language() -> None:
    assert source_text(SELF_PLAY, "en-US") == (
        "a game the computer played against itself (level 2, seed 43, after ply 22)")
    french = source_text(SELF_PLAY, "fr")
    assert french == ("une partie de l'ordinateur contre lui-même (niveau 2, graine 43, "
                      "après le demi-coup 22)")
    assert "yarım hamle" in source_text(SELF_PLAY, "tr")
    recorded = source_text(shot_puzzle(), "it")
    assert recorded == ("una partita registrata (a test position, hand-made.pdn#1, "
                        "dopo la semimossa 1)")


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
    assert task + " (1 of 2 moves found)." in (puzzle_embed(_view(1), "en-US").description
                                               or "")
    done = puzzle_embed(_view(2), "en-US", note="**c4-d5**: solved!").description or ""
    assert "Find the shot" not in done and "moves found" not in done
    assert done.startswith("**c4-d5**: solved!\nPuzzle rating 1200. From a recorded game")
