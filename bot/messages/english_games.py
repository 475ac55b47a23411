"""The English texts of `/games` (`ENGLISH_GAMES`), part of `ENGLISH`: a player's games
under way everywhere (`bot/ui/games_list.py` builds the answer), and the refusal of a
challenge pressed after it expired. Terms: docs/GLOSSARY.md."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.messages.ids import Msg
from bot.messages.plural import Plural

ENGLISH_GAMES: Mapping[Msg, str | Plural] = MappingProxyType({
    Msg.GAMES_TITLE: "Your games under way",
    Msg.GAMES_NONE: "You have no game under way. /challenge a player, or /play against the "
                    "computer.",
    Msg.GAMES_LINE: "[#{game_id}]({link}) · {variant} · vs {opponent} · {place}\n"
                    "{turn} · {time}",
    Msg.GAMES_YOUR_TURN: "**your turn**",
    Msg.GAMES_THEIR_TURN: "waiting for {opponent}",
    Msg.GAMES_TURN_UNKNOWN: "the game cannot be read (its board shows what happened)",
    Msg.GAMES_DEADLINE: "time runs out {when}",
    Msg.GAMES_IN_SERVER: "in {server}",
    Msg.GAMES_IN_A_SERVER: "in a server",
    Msg.GAMES_IN_DIRECT_MESSAGES: "in direct messages",
    Msg.GAMES_MORE: Plural("…and {count} more game, less urgent than these.",
                           "…and {count} more games, less urgent than these."),
    Msg.CHALLENGE_EXPIRED_AFTER: "This challenge expired {when}, after {open_for} without an "
                                 "answer. Send a new one with /challenge.",
})
