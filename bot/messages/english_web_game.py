"""The English texts of the web face's frame and its game page (`ENGLISH_WEB_GAME`), part
of `ENGLISH`: bot/web/templates/base.html and game.html (docs/ARCHITECTURE.md, "The web
face"). Terms: docs/GLOSSARY.md."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.messages.ids import Msg
from bot.messages.plural import Plural

ENGLISH_WEB_GAME: Mapping[Msg, str | Plural] = MappingProxyType({
    Msg.WEB_PAGE_LANGUAGES: "Languages",
    Msg.WEB_GAME_TITLE: "{white} vs {black} · {variant} · game #{game_id}",
    Msg.WEB_GAME_HEADING: "Game #{game_id}: {white} vs {black}",
    Msg.WEB_GAME_BOARD_ALT_START: "{variant} board, the start position: {color} to move.",
    Msg.WEB_GAME_BOARD_ALT: "{variant} board after {move} (ply {ply}): {color} to move.",
    Msg.WEB_GAME_BOARD_ALT_FINAL: "{variant} board after {move} (ply {ply}): the final "
                                  "position.",
    Msg.WEB_GAME_RESULT_WIN: "{winner} won ({score}): {how}.",
    Msg.WEB_GAME_RESULT_DRAW: "Draw (½-½): {how}.",
    Msg.WEB_GAME_RESULT_NONE: "No result: {how}.",
    Msg.WEB_GAME_CLOCKS: "clocks of {control} (minutes + seconds a move)",
    Msg.WEB_GAME_TIME_PER_MOVE: "{time} per move",
    Msg.WEB_GAME_INACTIVITY_LIMIT: "no move time; {limit} without a move loses on time",
    Msg.WEB_GAME_FIRST: "Start",
    Msg.WEB_GAME_BACK: "Back",
    Msg.WEB_GAME_FORWARD: "Forward",
    Msg.WEB_GAME_LAST: "Last move",
    Msg.WEB_GAME_FLIP: "Flip the board",
    Msg.WEB_GAME_CONTROLS: "Step through the game",
    Msg.WEB_GAME_KEYS: "Keys: ← and → step, Home and End jump to the start and the last "
                       "move, F flips the board.",
    Msg.WEB_GAME_PLAYERS: "Players",
    Msg.WEB_GAME_DETAILS: "The game",
    Msg.WEB_GAME_VARIANT: "Variant",
    Msg.WEB_GAME_KIND: "Kind",
    Msg.WEB_GAME_TIME: "Time",
    Msg.WEB_GAME_RESULT: "Result",
    Msg.WEB_GAME_UNDER_WAY: "under way",
    Msg.WEB_GAME_MOVES: "Moves",
    Msg.WEB_GAME_NO_MOVES: "No move has been played yet.",
    Msg.WEB_GAME_START: "Start position",
    Msg.WEB_GAME_DOWNLOAD_PDN: "Download the game (PDN)",
    Msg.WEB_GAME_ANALYSIS: "Analysis",
    Msg.WEB_GAME_MISTAKES: "Inaccuracies, mistakes and blunders",
    Msg.WEB_GAME_MISTAKE: "{number} {move}: {judgement}; better {better}, line: {line}",
    Msg.WEB_GAME_GRAPH_ALT: "Evaluation graph: the advantage of {white} (White, above the "
                            "middle line) or {black} (Black, below) after each ply; the "
                            "list of mistakes below says the same in words.",
})
