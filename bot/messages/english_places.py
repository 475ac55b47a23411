"""The English texts of the places a game is played in (`ENGLISH_PLACES`), part of
`ENGLISH`: where the app only answers interactions (docs/ARCHITECTURE.md, "Places"), the
move select of its boards and the refusal where every answer would be private."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.messages.ids import Msg
from bot.messages.plural import Plural

ENGLISH_PLACES: Mapping[Msg, str | Plural] = MappingProxyType({
    Msg.EXTERNAL_APPS_OFF: "This server does not let you use external apps here, so only "
                           "you would see my answers and no one could follow a game. Play "
                           "in direct messages instead: /play in your direct messages with "
                           "me for a game against the computer, or /challenge your friend "
                           "in your direct messages with them.",
    Msg.MOVE_SELECT: "Play a move",
    Msg.MOVE_SELECT_TOO_MANY: "More legal moves than this list can hold: play yours with "
                              "/move",
})
