"""`TournamentSignUp`: creating a tournament, and its players joining, leaving and being
removed (docs/RULES.md, "Tournaments"; the limits are `values`'). Each refusal is a
`PlayerError` raised before anything is stored; the sign-up post is then shown anew."""

from __future__ import annotations

import random
from typing import assert_never

from bot.messages import Msg
from bot.ratings.glicko2 import CENTRE
from bot.services.errors import PlayerError, UserRef
from bot.services.tournaments.control import require_not_over, require_organiser
from bot.services.tournaments.core import Snapshot, TournamentCore
from bot.services.tournaments.posting import TournamentPosts
from bot.services.tournaments.values import PlayerRemoved, TournamentSettings, post_key
from engine import get_variant
from storage import (
    EntrantStatus,
    EntryRefusal,
    EntryRefusedError,
    NewTournament,
    TournamentChannelBusyError,
    TournamentRecord,
    TournamentStatus,
)
from tournaments.model import Format

SEED_BITS = 63
"""A tournament's seed (its colour draws) is a non-negative signed 64-bit integer."""


class TournamentSignUp:
    """Creates tournaments and keeps their entrants."""

    def __init__(self, core: TournamentCore, posts: TournamentPosts, *,
                 rng: random.Random | None = None) -> None:
        self._core = core
        self._posts = posts
        self._rng = rng if rng is not None else random.SystemRandom()

    async def create(self, guild_id: int, channel_id: int, organiser_id: int,
                     settings: TournamentSettings, may_organise: bool) -> TournamentRecord:
        """Store a new tournament in sign-up (`TournamentService.create`)."""
        if not may_organise:
            raise PlayerError(Msg.TOURNAMENT_NOT_ORGANISER)
        settings.check(self._core.now())
        repo = self._core.repo
        existing = await repo.in_channel(channel_id)
        if existing is not None:
            raise _channel_busy(existing)
        rounds = {Format.SWISS: settings.rounds, Format.ROUND_ROBIN: settings.cycles,
                  Format.ARENA: None}[settings.format]
        duration = (None if settings.format is not Format.ARENA or settings.duration is None
                    else int(settings.duration.total_seconds()))
        try:
            return await repo.create(NewTournament(
                guild_id=guild_id, channel_id=channel_id, organiser_id=organiser_id,
                name=settings.name.strip(), format=settings.format.value,
                variant=get_variant(settings.variant).key, rounds=rounds,
                duration_seconds=duration, move_seconds=settings.move_seconds,
                rated=settings.rated, seed=self._rng.getrandbits(SEED_BITS),
                starts_at=settings.starts_at, player_limit=settings.player_limit,
                role_id=settings.role_id,
            ))
        except TournamentChannelBusyError:
            other = await repo.in_channel(channel_id)
            if other is None:
                raise
            raise _channel_busy(other) from None

    async def join(self, snapshot: Snapshot, user_id: int, role_ids: frozenset[int],
                   display_name: str | None) -> None:
        """Enter `user_id` (`TournamentService.join`)."""
        record = snapshot.record
        view = snapshot.view
        if record.role_id is not None and record.role_id not in role_ids:
            raise PlayerError(Msg.TOURNAMENT_ROLE_REQUIRED)
        entrant = view.entrant(user_id)
        if entrant is not None and entrant.status is EntrantStatus.ACTIVE:
            raise PlayerError(Msg.TOURNAMENT_ALREADY_IN)
        if entrant is not None and entrant.status is EntrantStatus.REMOVED:
            raise PlayerError(Msg.TOURNAMENT_REMOVED)
        arena_under_way = record.format == Format.ARENA.value and record.status in (
            TournamentStatus.RUNNING, TournamentStatus.PAUSED)
        if record.status is not TournamentStatus.SIGNUP and not arena_under_way:
            require_not_over(record)
            raise PlayerError(Msg.TOURNAMENT_SIGNUP_CLOSED)
        limit = view.settings.most_players
        if limit is not None and len(view.active_entrants) >= limit:
            raise PlayerError(Msg.TOURNAMENT_FULL, limit=limit)
        rating = None
        if arena_under_way:
            # Numbered at once, with their rating now, as the entrants were at the start.
            stored = await self._core.storage.ratings.get(user_id, record.variant)
            rating = round(stored.rating if stored is not None else CENTRE)
        try:
            await self._core.repo.join(record.id, user_id, display_name, self._core.now(),
                                       rating=rating)
        except EntryRefusedError as error:
            raise _refusal(error.reason, limit) from None

    async def leave(self, snapshot: Snapshot, user_id: int) -> None:
        """Take `user_id` out (`TournamentService.leave`)."""
        require_not_over(snapshot.record)
        if user_id not in snapshot.active:
            raise PlayerError(Msg.TOURNAMENT_NOT_ENTERED)
        await self._core.repo.leave(snapshot.record.id, user_id)

    async def remove(self, snapshot: Snapshot, by: int, user_id: int,
                     may_organise: bool) -> None:
        """The organiser takes `user_id` out for good (`TournamentService.remove`)."""
        record = snapshot.record
        require_organiser(record, by, may_organise)
        require_not_over(record)
        if user_id not in snapshot.active:
            raise PlayerError(Msg.TOURNAMENT_PLAYER_NOT_ENTERED, user=UserRef(user_id))
        if record.status is TournamentStatus.SIGNUP:
            await self._core.repo.remove(record.id, user_id)
            return
        # The notice is claimed with the removal, so a kill between them loses neither.
        notice = PlayerRemoved(user_id)
        key = post_key(notice)
        await self._core.repo.remove(record.id, user_id, claim=(key.kind.value, key.key))
        await self._posts.post(snapshot.view, notice)


def _channel_busy(existing: TournamentRecord) -> PlayerError:
    """The refusal of a second tournament in a channel, naming the first."""
    title = existing.name
    return PlayerError(Msg.TOURNAMENT_CHANNEL_BUSY, name=title)


def _refusal(reason: EntryRefusal, limit: int | None) -> PlayerError:
    """The player's refusal for the repository's (a race the checks above lost)."""
    match reason:
        case EntryRefusal.FULL:
            return PlayerError(Msg.TOURNAMENT_FULL, limit=limit)
        case EntryRefusal.CLOSED:
            return PlayerError(Msg.TOURNAMENT_SIGNUP_CLOSED)
        case EntryRefusal.REMOVED:
            return PlayerError(Msg.TOURNAMENT_REMOVED)
        case _:
            assert_never(reason)
