"""`PressTargets`: what a component's `custom_id` names (a game, a challenge, a
tournament), checked
before any handler acts on a press.

A `custom_id` comes from the client, so it may name anything: another server's game, a
game that never existed, a challenge of another channel. Every press is checked here
first (by the component router, `bot.ui.components`), and a target the presser may not
act on is refused exactly as a missing one, so its existence is not revealed and no
message is changed (docs/ARCHITECTURE.md, "Buttons and other components").
"""

from __future__ import annotations

from bot.messages import Msg
from bot.services.errors import PlayerError
from bot.services.visibility import Requester, can_see
from storage import GameRecord, Storage

ID_LIMIT = 2**63
"""Game and challenge ids are below 2^63 (both databases store them as signed 64-bit
integers: SQLite's INTEGER, PostgreSQL's BIGINT); a `custom_id` may carry any number of
digits, and a larger one names nothing."""


class PressTargets:
    """Reads the games and challenges a press names (plain values, no discord)."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage

    async def game(self, requester: Requester, game_id: int, *,
                   channel_id: int | None = None) -> GameRecord:
        """Game `game_id` as `requester` may act on it through a component. `channel_id`:
        the component sits on a message of the game's own channel (a board and its
        buttons), so the game must be that channel's.

        Raises `PlayerError`: UNKNOWN_GAME when there is no such game or `requester` may
        not see it (`bot.services.visibility.can_see`: told alike), GAME_ELSEWHERE
        when it is visible but played in another channel than `channel_id`."""
        record = await self._storage.games.get(game_id) if 0 < game_id < ID_LIMIT else None
        if record is None or not can_see(requester, record):
            raise PlayerError(Msg.UNKNOWN_GAME, game_id=game_id)
        if channel_id is not None and record.channel_id != channel_id:
            raise PlayerError(Msg.GAME_ELSEWHERE, game_id=game_id)
        return record

    async def challenge(self, challenge_id: int, channel_id: int | None) -> None:
        """Check that challenge `challenge_id` exists and was sent in channel
        `channel_id` (its message is there). Raises `PlayerError(CHALLENGE_UNKNOWN)`
        otherwise."""
        challenge = (await self._storage.challenges.get(challenge_id)
                     if 0 < challenge_id < ID_LIMIT else None)
        if challenge is None or challenge.channel_id != channel_id:
            raise PlayerError(Msg.CHALLENGE_UNKNOWN)

    async def tournament(self, tournament_id: int, guild_id: int | None,
                         channel_id: int | None) -> None:
        """Check that tournament `tournament_id` is server `guild_id`'s and that the press
        comes from its channel (the sign-up post) or its thread (the results' Standings).
        Raises `PlayerError(TOURNAMENT_UNKNOWN)` otherwise: another server's tournament
        is told as a missing one."""
        record = (await self._storage.tournaments.get(tournament_id)
                  if 0 < tournament_id < ID_LIMIT else None)
        if (record is None or record.guild_id != guild_id
                or channel_id not in (record.channel_id, record.thread_id)):
            raise PlayerError(Msg.TOURNAMENT_UNKNOWN, tournament_id=tournament_id)
