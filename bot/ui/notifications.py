"""The turn notifications' Discord outlet (`bot.services.notifications.NotificationOutlet`
over discord.py; docs/ARCHITECTURE.md, "Notifications"): the words of a message
(`notification_text`), in the reader's language, with a link to each board
(`bot.ui.links`), sent to the player's direct messages (opened with POST
/users/@me/channels) or to the game's channel with a mention of them alone, Discord's
answers mapped to the service's `Outcome`: 403 with code 50007 (Cannot send messages to
this user) is closed DMs, another 403 or a 404 a channel out of reach, a `RateLimited`
(a 429 longer than the client's `max_ratelimit_timeout`) or a 429 raised is
`RATE_LIMITED`. discord.py waits out shorter 429s itself (its `HTTPClient.request`
retries them, logging "We are being rate limited" on the `discord.http` logger): those
are counted from that log, for the service's backoff (`SendResult.waited_429`).

The reader's language: their `/settings language`, else the locale of their last
interaction seen by this process (`remember`), else the server's language for a message
in its channel, else English (`bot.language.resolve`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Iterator
from datetime import timedelta
from typing import Any, Protocol

import discord

from bot.language import resolve
from bot.messages import Msg, text
from bot.messages.durations import duration_text
from bot.services.notifications import Delivery, DigestItem, Outcome, SendResult, TargetKind
from bot.services.settings import Notify, PlayerSettings
from bot.ui.languages import LanguageChoices
from bot.ui.links import channel_link, message_link
from bot.ui.present import mention
from bot.ui.reading import locale_of
from storage import NotificationKind

log = logging.getLogger(__name__)

CANNOT_SEND_TO_USER = 50007
"""Discord's JSON error code for a direct message the user does not accept (API v10,
"JSON Error Codes")."""

_RATE_LIMITED = "We are being rate limited."
"""How discord.py's `discord.http` logger starts a 429 it waits out (discord/http.py)."""


def _link(item: DigestItem) -> str:
    if item.board_message_id is None:
        return channel_link(item.guild_id, item.channel_id)
    return message_link(item.guild_id, item.channel_id, item.board_message_id)


def _opponent(item: DigestItem, locale: str | None) -> str:
    if item.opponent_id is not None:
        return mention(item.opponent_id)
    return text(Msg.COMPUTER, locale, level=item.opponent_level or 1)


def rounded_up(left: timedelta) -> timedelta:
    """`left` rounded up to whole hours from an hour, to whole minutes from a minute (so
    a reminder's "less than" stays true and reads as people say it)."""
    for unit in (timedelta(hours=1), timedelta(minutes=1)):
        if left >= unit:
            return -(-left // unit) * unit
    return timedelta(seconds=math.ceil(left.total_seconds()))


def item_line(item: DigestItem, locale: str | None) -> str:
    """One game's line: whose turn it is, or how little time is left (`rounded_up`),
    with the link."""
    if item.kind is NotificationKind.REMINDER and item.left is not None:
        return text(Msg.NOTIFICATION_REMINDER, locale,
                    left=duration_text(rounded_up(item.left), locale),
                    game=item.game_id, opponent=_opponent(item, locale), link=_link(item))
    return text(Msg.NOTIFICATION_TURN, locale, game=item.game_id,
                opponent=_opponent(item, locale), link=_link(item))


def notification_text(delivery: Delivery, locale: str | None) -> str:
    """A message's words in `locale`: one line per game, under a digest's title when it
    names several; in a channel, the player's mention first."""
    lines = [item_line(item, locale) for item in delivery.items]
    if len(lines) > 1:
        lines = [text(Msg.NOTIFICATION_DIGEST, locale, count=len(lines)),
                 *(f"- {line}" for line in lines)]
    if delivery.target is TargetKind.CHANNEL:
        lines[0] = f"{mention(delivery.user_id)} {lines[0]}"
    return "\n".join(lines)


def notification_nonce(delivery: Delivery) -> str:
    """The message nonce of `delivery`: the same for every attempt to send the same
    owed notifications (its smallest row id and their count), at most 25 characters
    (Discord's limit)."""
    return f"dn{min(delivery.ids, default=0)}.{len(delivery.ids)}"[:25]


class _RateLimitLog(logging.Handler):
    """Collects the URLs of the 429s discord.py waits out, while `counting`."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.urls: list[str] | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if self.urls is not None and str(record.msg).startswith(_RATE_LIMITED):
            args = record.args if isinstance(record.args, tuple) else ()
            self.urls.append(str(args[1]) if len(args) > 1 else "")


class DiscordNotifications:
    """Sends the notification messages through `client` (a `NotificationOutlet`).
    `choices`: the stored languages (`PreferenceService`)."""

    def __init__(self, client: discord.Client, choices: LanguageChoices | None) -> None:
        self._client = client
        self._choices = choices
        self._locales: dict[int, str] = {}
        self._log = _RateLimitLog()
        logging.getLogger("discord.http").addHandler(self._log)

    def remember(self, interaction: discord.Interaction[Any]) -> None:
        """Keep the locale of the user's interaction (their language for later
        messages, when they chose none)."""
        self._locales[interaction.user.id] = str(interaction.locale)

    async def _locale(self, delivery: Delivery) -> str:
        chosen = server = None
        if self._choices is not None:
            with contextlib.suppress(Exception):
                chosen = await self._choices.player_language(delivery.user_id)
                if delivery.target is TargetKind.CHANNEL and delivery.guild_id is not None:
                    server = await self._choices.guild_language(delivery.guild_id)
        return resolve(chosen=chosen, client_locale=self._locales.get(delivery.user_id),
                       server_choice=server, guild_locale=None).value

    @contextlib.contextmanager
    def _counting(self) -> Iterator[list[str]]:
        urls: list[str] = []
        self._log.urls = urls
        try:
            yield urls
        finally:
            self._log.urls = None

    async def _channel(self, delivery: Delivery) -> discord.abc.Messageable:
        if delivery.target is TargetKind.DM:
            return await self._client.create_dm(discord.Object(delivery.user_id))
        assert delivery.channel_id is not None
        # A partial channel: the message is sent without reading the channel first.
        return self._client.get_partial_messageable(delivery.channel_id,
                                                    guild_id=delivery.guild_id)

    async def send(self, delivery: Delivery) -> SendResult:
        """Send `delivery`; every failure is an `Outcome` (never raises)."""
        content = notification_text(delivery, await self._locale(delivery))
        mentions = discord.AllowedMentions(users=[discord.Object(delivery.user_id)],
                                           everyone=False, roles=False)
        with self._counting() as limited:
            try:
                channel = await self._channel(delivery)
                # discord.py sends `enforce_nonce` with a nonce: a message sent again
                # after a kill (the same rows) within Discord's window returns the first.
                await channel.send(content, allowed_mentions=mentions,
                                   nonce=notification_nonce(delivery))
                outcome = SendResult(Outcome.SENT, waited_429=len(limited))
            except discord.RateLimited as error:
                outcome = SendResult(Outcome.RATE_LIMITED, error.retry_after, len(limited))
            except discord.Forbidden as error:
                outcome = SendResult(Outcome.DMS_CLOSED if error.code == CANNOT_SEND_TO_USER
                                     and delivery.target is TargetKind.DM
                                     else Outcome.UNREACHABLE, waited_429=len(limited))
            except discord.NotFound:
                outcome = SendResult(Outcome.UNREACHABLE, waited_429=len(limited))
            except discord.HTTPException as error:
                retry = _retry_after(error)
                outcome = (SendResult(Outcome.RATE_LIMITED, retry, len(limited))
                           if error.status == 429 else SendResult(Outcome.FAILED))
            except Exception:
                log.exception("a notification to %s failed", delivery.user_id)
                outcome = SendResult(Outcome.FAILED)
        return outcome

    def close(self) -> None:
        """Stop counting discord.py's rate limits (the handler is removed)."""
        logging.getLogger("discord.http").removeHandler(self._log)


def _retry_after(error: discord.HTTPException) -> float:
    """The wait a 429 asks for: its `Retry-After` header, else a second."""
    header = getattr(error.response, "headers", {}).get("Retry-After")
    try:
        return float(header) if header is not None else 1.0
    except ValueError:
        return 1.0


# --- the player's activity ---------------------------------------------------------

TELL_WITHIN = 15.0
"""Seconds a private note about closed DMs waits for the interaction's own answer
(a follow-up needs it; `bot.ui.answer.Answer` defers within 2 seconds)."""

_telling: set[asyncio.Task[None]] = set()


class Activity(Protocol):
    """Who hears of each interaction's user (`NotificationService.seen`)."""

    async def seen(self, user_id: int, *, can_tell: bool = True) -> bool: ...


class NotifyChoice(Protocol):
    """A player's stored preferences (`PreferenceService.player`)."""

    async def player(self, user_id: int) -> PlayerSettings: ...


async def report_seen(interaction: discord.Interaction[Any], activity: Activity,
                      outlet: DiscordNotifications | None,
                      preferences: NotifyChoice | None = None) -> None:
    """Report the interaction's user as active (quiet while active), keep their locale
    for later messages, and when the service says so tell them privately, once, that
    their DMs are closed and what stopped (a follow-up after the interaction's own
    answer; not to an autocomplete, which takes no follow-up: the next interaction is
    told): NOTIFICATION_DMS_CLOSED_CHANNEL to a player who chose `channel` (read from
    `preferences`: only their messages where the bot cannot post stopped), else
    NOTIFICATION_DMS_CLOSED. Never raises: a failure is logged."""
    if outlet is not None:
        outlet.remember(interaction)
    can_tell = interaction.type is not discord.InteractionType.autocomplete
    try:
        told = await activity.seen(interaction.user.id, can_tell=can_tell)
    except Exception:
        log.exception("recording the activity of %s failed", interaction.user.id)
        return
    if told:
        note = Msg.NOTIFICATION_DMS_CLOSED
        if preferences is not None:
            with contextlib.suppress(Exception):
                if (await preferences.player(interaction.user.id)).notify is Notify.CHANNEL:
                    note = Msg.NOTIFICATION_DMS_CLOSED_CHANNEL
        task = asyncio.create_task(_tell_closed(interaction, note),
                                   name="dama-background-dms-closed")
        _telling.add(task)
        task.add_done_callback(_telling.discard)


async def _tell_closed(interaction: discord.Interaction[Any], note: Msg) -> None:
    waited = 0.0
    while not interaction.response.is_done() and waited < TELL_WITHIN:
        await asyncio.sleep(0.1)
        waited += 0.1
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text(note, locale_of(interaction)),
                                            ephemeral=True)
        else:
            await interaction.response.send_message(text(note, locale_of(interaction)),
                                                    ephemeral=True)
    except discord.HTTPException:
        log.warning("telling %s that their DMs are closed failed", interaction.user.id)
