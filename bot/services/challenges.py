"""`ChallengeService`: challenges from one player to another, and their answers.

A challenge names the opponent, the variant, rated or casual, the challenger's colour and
the per-move time. Only the opponent accepts or declines; the challenger may cancel; it
expires after the configured time (`expire_due`, run by the scheduler; a new or restored
challenge publishes `DeadlinesChanged` on the game service's event bus). Accepting
starts the game through `GameService.start` (which takes the channel's lock), stored in
the same database transaction as the answer (so a double click makes one game).

A server limits the pending challenges from one player and to one player
(`bot.services.settings.ChallengeLimits`, each server's own or the environment's), and a
second pending challenge between the same two players is refused with a link to the first.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.messages import VARIANT_NAMES, Conjunction, Listing, Msg
from bot.services.errors import PlayerError, UserRef
from bot.services.events import DeadlinesChanged
from bot.services.games import Announce, GameService, GameStart
from bot.services.models import GameUpdate, MoveTime
from bot.services.settings import ChallengeLimits, PreferenceService
from engine import VARIANTS, UnknownVariantError, get_variant
from storage import (
    Challenge,
    ChallengeNotFoundError,
    ChallengeNotPendingError,
    ChallengeStatus,
    ColorChoice,
    GameRecord,
    NewChallenge,
    NewGame,
    PlaceKind,
    Seat,
    Storage,
    TimeControl,
    utc_now,
)
from storage.clock import Clock

log = logging.getLogger(__name__)

ChallengePost = Callable[[Challenge], Awaitable[int | None]]
"""Shows a new challenge (its message, with buttons); returns the message id, or None."""


@dataclass(frozen=True)
class Person:
    """A Discord user as the services see them: id, display name, whether a bot account."""

    user_id: int
    name: str | None = None
    is_bot: bool = False


def variant_key(name: str) -> str:
    """The registry key of variant `name`. Raises `PlayerError(UNKNOWN_VARIANT)`."""
    try:
        return get_variant(name).key
    except UnknownVariantError:
        raise PlayerError(
            Msg.UNKNOWN_VARIANT, name=name,
            valid=Listing(tuple(VARIANT_NAMES[key] for key in VARIANTS), Conjunction.OR),
        ) from None


CORRESPONDENCE_EXPIRY = timedelta(days=3)
"""How long a correspondence challenge stays open by default
(`DAMA_CORRESPONDENCE_CHALLENGE_EXPIRY`): an opponent who looks once a day sees it at least twice
(docs/RULES.md, "Project-wide game rules", Time)."""


class ChallengeService:
    """Create, accept, decline, cancel and expire challenges. A challenge stays open
    `expiry`, a correspondence one at least `correspondence_expiry` (`expiry_of`)."""

    def __init__(
        self,
        storage: Storage,
        games: GameService,
        *,
        expiry: timedelta = timedelta(minutes=10),
        correspondence_expiry: timedelta = CORRESPONDENCE_EXPIRY,
        clock: Clock = utc_now,
        rng: random.Random | None = None,
        settings: PreferenceService | None = None,
    ) -> None:
        self._storage = storage
        self._settings = settings
        self._creating = asyncio.Lock()
        self._games = games
        self._expiry = expiry
        self._correspondence_expiry = correspondence_expiry
        self._clock = clock
        self._rng = rng if rng is not None else random.Random()
        self._expiries: dict[int, datetime] = {}

    async def _check_limits(self, challenger: int, opponent: int, guild_id: int | None) -> None:
        """Refuse a challenge between two players who already have one pending (either
        way, with a link to it), or past the server's limits."""
        now = self._clock()
        pending = [c for c in await self._storage.challenges.pending_for_user(challenger)
                   if c.expires_at > now]
        for existing in pending:
            if existing.challenger_id == challenger and existing.challenged_id == opponent:
                raise PlayerError(Msg.CHALLENGE_DUPLICATE, opponent=UserRef(opponent),
                                  challenge=existing)
            if existing.challenger_id == opponent and existing.challenged_id == challenger:
                raise PlayerError(Msg.CHALLENGE_DUPLICATE_REVERSE, opponent=UserRef(opponent),
                                  challenge=existing)
        limits = (ChallengeLimits() if self._settings is None
                  else (await self._settings.guild(guild_id)).limits)
        sent = [c for c in pending
                if c.challenger_id == challenger and c.guild_id == guild_id]
        if len(sent) >= limits.per_challenger:
            raise PlayerError(Msg.CHALLENGE_LIMIT_CHALLENGER, count=len(sent),
                              limit=limits.per_challenger, challenge=sent[0])
        received = [c for c in await self._storage.challenges.pending_for_user(opponent)
                    if c.challenged_id == opponent and c.guild_id == guild_id
                    and c.expires_at > now]
        if len(received) >= limits.per_opponent:
            raise PlayerError(Msg.CHALLENGE_LIMIT_OPPONENT, opponent=UserRef(opponent),
                              count=len(received), limit=limits.per_opponent)

    async def create(
        self,
        *,
        challenger: Person,
        opponent: Person,
        guild_id: int | None,
        channel_id: int,
        variant: str,
        rated: bool,
        color: ColorChoice = ColorChoice.RANDOM,
        move_time: MoveTime = MoveTime.NONE,
        post: ChallengePost | None = None,
        time_control: TimeControl | None = None,
    ) -> Challenge:
        """Store a pending challenge, show it with `post` and record the message id
        `post` returns (the message is edited when the challenge closes or expires).
        Returns the challenge (with that message id). Raises `PlayerError`:
        CLOCK_WITH_MOVE_TIME (a `move_time` and a `time_control`: players' clocks replace
        the per-move time, docs/PLAYING.md "Clocks"), CHALLENGE_SELF, CHALLENGE_BOT,
        UNKNOWN_VARIANT, GAME_QUARANTINED,
        ALREADY_PLAYING_HERE, OPPONENT_PLAYING_HERE, CHANNEL_BUSY, CHALLENGE_DUPLICATE,
        CHALLENGE_DUPLICATE_REVERSE, CHALLENGE_LIMIT_CHALLENGER, CHALLENGE_LIMIT_OPPONENT;
        and what `post` raises, after cancelling the challenge nobody could see."""
        if time_control is not None and move_time is not MoveTime.NONE:
            raise PlayerError(Msg.CLOCK_WITH_MOVE_TIME)
        if challenger.user_id == opponent.user_id:
            raise PlayerError(Msg.CHALLENGE_SELF)
        if opponent.is_bot:
            raise PlayerError(Msg.CHALLENGE_BOT, user=UserRef(opponent.user_id))
        key = variant_key(variant)
        self._games.check_channel(channel_id, challenger.user_id, opponent.user_id)
        # One check and store at a time, so two quick challenges cannot both pass.
        async with self._creating:
            await self._check_limits(challenger.user_id, opponent.user_id, guild_id)
            for person in (challenger, opponent):
                await self._storage.players.upsert(person.user_id, person.name)
            challenge = await self._storage.challenges.create(
                NewChallenge(
                    challenger_id=challenger.user_id,
                    challenged_id=opponent.user_id,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    variant=key,
                    expires_at=self._clock() + self.expiry_of(move_time),
                    rated=rated,
                    color=color,
                    move_seconds=move_time.seconds,
                    time_control=time_control,
                )
            )
        self._expiries[challenge.id] = challenge.expires_at
        self._games.events.publish(DeadlinesChanged())
        if post is not None:
            try:
                message_id = await post(challenge)
            except Exception:
                await self._withdraw_unseen(challenge.id)
                raise
            if message_id is not None:
                try:
                    await self._storage.challenges.set_message(challenge.id, message_id)
                except Exception:
                    # The challenge is stored and shown; only its message id is not
                    # recorded (its buttons still work; expiry cannot edit the message).
                    log.exception("challenge %s: message %s shown but not recorded",
                                  challenge.id, message_id)
                    return challenge
                challenge = dataclasses.replace(challenge, message_id=message_id)
        return challenge

    async def _withdraw_unseen(self, challenge_id: int) -> None:
        """Cancel a challenge whose message could not be shown: nobody can answer or
        cancel it, and pending it would block the next challenge as a duplicate (and count
        against the limits) until it expires."""
        try:
            await self._close(challenge_id, ChallengeStatus.CANCELLED)
        except PlayerError:
            pass  # answered meanwhile: the message was shown after all
        except Exception:
            log.exception("challenge %s: not shown, and could not be cancelled", challenge_id)

    async def get(self, challenge_id: int) -> Challenge | None:
        """A challenge by id (any status), None if there is none."""
        return await self._storage.challenges.get(challenge_id)

    async def _pending(self, challenge_id: int) -> Challenge:
        challenge = await self._storage.challenges.get(challenge_id)
        if challenge is None:
            raise PlayerError(Msg.CHALLENGE_UNKNOWN)
        if challenge.status is ChallengeStatus.EXPIRED or (
                challenge.status is ChallengeStatus.PENDING
                and challenge.expires_at <= self._clock()):
            raise PlayerError(Msg.CHALLENGE_EXPIRED_AFTER, when=challenge.expires_at,
                              open_for=challenge.expires_at - challenge.created_at)
        if challenge.status is not ChallengeStatus.PENDING:
            raise PlayerError(Msg.CHALLENGE_CLOSED, status=challenge.status)
        return challenge

    def expiry_of(self, move_time: MoveTime) -> timedelta:
        """How long a new challenge with `move_time` stays open: the configured expiry,
        and for a correspondence game (a move time of a day or more) at least the
        correspondence expiry (docs/RULES.md, "Project-wide game rules", Time)."""
        if move_time.is_correspondence:
            return max(self._expiry, self._correspondence_expiry)
        return self._expiry

    @staticmethod
    def _closed(error: ChallengeNotPendingError) -> PlayerError:
        return PlayerError(Msg.CHALLENGE_CLOSED, status=ChallengeStatus(error.status))

    async def accept(
        self, challenge_id: int, user_id: int, *, channel_id: int,
        announce: Announce | None = None, place: PlaceKind = PlaceKind.CHANNEL,
    ) -> tuple[Challenge, GameUpdate]:
        """The challenged user accepts, from `channel_id` (the interaction's channel): the
        game starts (`GameService.start`), stored with the challenge's answer in one
        transaction, so a double click makes one game, played in a place of kind `place`
        (where it is accepted; docs/ARCHITECTURE.md, "Places"). `announce` (inside the channel's
        lock) gets a STARTED update. Raises `PlayerError`: CHALLENGE_UNKNOWN (also when
        `channel_id` is not the challenge's channel: a press no Discord client sends),
        CHALLENGE_EXPIRED_AFTER, CHALLENGE_CLOSED, CHALLENGE_OWN, CHALLENGE_NOT_FOR_YOU, and
        the channel refusals of `GameService.check_channel` (CHANNEL_BUSY,
        GAME_QUARANTINED...)."""
        first = await self._pending(challenge_id)
        closed: list[Challenge] = []

        async def vet() -> None:
            challenge = await self._pending(challenge_id)
            if challenge.channel_id != channel_id:
                raise PlayerError(Msg.CHALLENGE_UNKNOWN)
            if user_id == challenge.challenger_id:
                raise PlayerError(
                    Msg.CHALLENGE_OWN, opponent=UserRef(challenge.challenged_id or 0)
                )
            if challenge.challenged_id not in (None, user_id):
                raise PlayerError(
                    Msg.CHALLENGE_NOT_FOR_YOU, opponent=UserRef(challenge.challenged_id)
                )

        async def store(new: NewGame) -> GameRecord:
            try:
                answered, record = await self._storage.challenges.accept(
                    challenge_id, accepted_by=user_id, white=new.white, black=new.black,
                    start_fen=new.start_fen, deadline=new.deadline, place=new.place,
                )
            except ChallengeNotPendingError as error:
                raise self._closed(error) from None
            self._expiries.pop(challenge_id, None)
            closed.append(answered)
            return record

        start = GameStart(
            channel_id=first.channel_id, guild_id=first.guild_id, variant=first.variant,
            first=Seat.human(first.challenger_id), second=Seat.human(user_id),
            color=first.color, rated=first.rated, move_seconds=first.move_seconds,
            actor=user_id, time_control=first.time_control, place=place,
        )
        update = await self._games.start(start, announce=announce, vet=vet, store=store,
                                         rng=self._rng)
        return closed[0], update

    async def decline(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenged user declines. Raises `PlayerError`: CHALLENGE_UNKNOWN,
        CHALLENGE_EXPIRED_AFTER, CHALLENGE_CLOSED, CHALLENGE_OWN, CHALLENGE_NOT_FOR_YOU."""
        challenge = await self._pending(challenge_id)
        if user_id == challenge.challenger_id:
            raise PlayerError(Msg.CHALLENGE_OWN, opponent=UserRef(challenge.challenged_id or 0))
        if challenge.challenged_id not in (None, user_id):
            raise PlayerError(Msg.CHALLENGE_NOT_FOR_YOU, opponent=UserRef(challenge.challenged_id))
        return await self._close(challenge_id, ChallengeStatus.DECLINED)

    async def cancel(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws. Raises `PlayerError`: CHALLENGE_UNKNOWN,
        CHALLENGE_EXPIRED_AFTER, CHALLENGE_CLOSED, CHALLENGE_NOT_YOURS."""
        challenge = await self._pending(challenge_id)
        if user_id != challenge.challenger_id:
            raise PlayerError(
                Msg.CHALLENGE_NOT_YOURS, challenger=UserRef(challenge.challenger_id)
            )
        return await self._close(challenge_id, ChallengeStatus.CANCELLED)

    async def _close(self, challenge_id: int, status: ChallengeStatus) -> Challenge:
        try:
            closed = await self._storage.challenges.close(challenge_id, status)
        except ChallengeNotPendingError as error:
            raise self._closed(error) from None
        except ChallengeNotFoundError:
            raise PlayerError(Msg.CHALLENGE_UNKNOWN) from None
        self._expiries.pop(challenge_id, None)
        return closed

    async def expire_due(self, now: datetime | None = None) -> list[Challenge]:
        """Mark every pending challenge past its expiry as expired; returns them. Only the
        challenges of guilds this process owns (`GameService.scope`): another process
        expires and announces the others. One that was accepted, declined or cancelled
        meanwhile is left as it is."""
        moment = self._clock() if now is None else now
        scope = self._games.scope
        if scope.everything:
            expired = await self._storage.challenges.expire_due(moment)
        else:
            expired = []
            for challenge in await self._storage.challenges.pending():
                if challenge.expires_at > moment or not scope.owns(challenge.guild_id):
                    continue
                try:
                    expired.append(await self._storage.challenges.close(
                        challenge.id, ChallengeStatus.EXPIRED))
                except (ChallengeNotFoundError, ChallengeNotPendingError):
                    continue
        for challenge in expired:
            self._expiries.pop(challenge.id, None)
        return expired

    async def restore(self) -> int:
        """Load the expiry of every pending challenge this process owns (start-up;
        `GameService.scope`), so the scheduler wakes exactly when each one expires, also
        for challenges from before a restart; returns how many are pending."""
        pending = [challenge for challenge in await self._storage.challenges.pending()
                   if self._games.scope.owns(challenge.guild_id)]
        self._expiries = {challenge.id: challenge.expires_at for challenge in pending}
        self._games.events.publish(DeadlinesChanged())
        return len(self._expiries)

    def next_expiry(self) -> datetime | None:
        """The earliest expiry among the pending challenges (created since start-up or
        loaded by `restore`)."""
        return min(self._expiries.values(), default=None)
