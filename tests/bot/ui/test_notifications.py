"""The notifications' Discord outlet (`bot/ui/notifications.py`) through discord.py, its
requests captured by `FakeDiscord`: a DM opened and sent in the reader's language with
the board's link, a digest, a message in the game's channel mentioning the player alone,
Discord's 403 50007, other 403s and 404s, and rate limits mapped to the service's
outcomes; and the player told once, privately, that their DMs are closed."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import discord

from bot.messages import Msg, text
from bot.services.notifications import Delivery, DigestItem, Outcome, SendResult, TargetKind
from bot.services.settings import Notify
from bot.ui.notifications import DiscordNotifications
from standin import DmLimit, StandIn
from storage import NotificationKind
from tests.support.discord_harness import (
    OpenBot,
    challenge_and_accept,
    press_button,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import Call
from tests.support.services import ALICE, BOB, CHANNEL
from tests.support.standin_probe_bot import ProbeBot, running

GUILD = 500
BOARD = 9_100


class _Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "refused"


def turn(game: int, *, board: int | None = BOARD, left: timedelta | None = None,
         kind: NotificationKind = NotificationKind.TURN) -> DigestItem:
    return DigestItem(kind, game, GUILD, CHANNEL, board, ALICE, left)


def dm(*items: DigestItem) -> Delivery:
    return Delivery(BOB, TargetKind.DM, None, None, items, tuple(range(len(items))))


def sent_to(calls: list[Call], channel: int) -> list[Call]:
    return [c for c in calls if c.method == "POST" and c.path == f"/channels/{channel}/messages"]


async def test_a_dm_is_opened_and_sent_with_the_boards_link(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    outlet = DiscordNotifications(h.bot, h.bot.services.preferences)
    result = await outlet.send(dm(turn(7)))
    assert result.outcome is Outcome.SENT
    [opened] = [c for c in h.discord.calls if c.path == "/users/@me/channels"]
    assert opened.payload == {"recipient_id": BOB}
    [message] = sent_to(h.discord.calls, h.discord.dm_channels[BOB])
    link = f"https://discord.com/channels/{GUILD}/{CHANNEL}/{BOARD}"
    assert message.body["content"] == text(Msg.NOTIFICATION_TURN, "en", game=7,
                                           opponent=f"<@{ALICE}>", link=link)
    assert message.body["nonce"] == "dn0.1" and message.body["enforce_nonce"] is True
    outlet.close()


async def test_a_digest_in_the_readers_language(tmp_path: Path, open_bot: OpenBot) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    await h.bot.services.preferences.update_player(BOB, language="fr")
    outlet = DiscordNotifications(h.bot, h.bot.services.preferences)
    reminder = turn(8, board=None, left=timedelta(hours=6), kind=NotificationKind.REMINDER)
    await outlet.send(dm(turn(7), reminder))
    [message] = sent_to(h.discord.calls, h.discord.dm_channels[BOB])
    lines = message.body["content"].split("\n")
    assert lines[0] == text(Msg.NOTIFICATION_DIGEST, "fr", count=2)
    assert lines[2].startswith("- ") and f"https://discord.com/channels/{GUILD}/{CHANNEL}" \
        in lines[2] and lines[2].endswith(f"/{CHANNEL}")  # no board: the channel's link
    outlet.close()


async def test_in_the_games_channel_the_player_alone_is_mentioned(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    outlet = DiscordNotifications(h.bot, None)
    delivery = Delivery(BOB, TargetKind.CHANNEL, CHANNEL, GUILD, (turn(7),), (1,))
    assert (await outlet.send(delivery)).outcome is Outcome.SENT
    [message] = sent_to(h.discord.calls, CHANNEL)
    assert message.body["content"].startswith(f"<@{BOB}> ")
    assert [int(user) for user in message.body["allowed_mentions"]["users"]] == [BOB]
    h.discord.gone_channels.add(CHANNEL)
    assert (await outlet.send(delivery)).outcome is Outcome.UNREACHABLE
    outlet.close()


async def test_discords_refusals_become_outcomes(tmp_path: Path, open_bot: OpenBot) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    outlet = DiscordNotifications(h.bot, None)
    refusal: list[Exception] = []

    async def refuse(call: Call) -> None:
        if call.method == "POST" and call.path.endswith("/messages") and refusal:
            raise refusal.pop()

    h.discord.observers.append(refuse)
    refusal.append(discord.Forbidden(_Response(403), {
        "code": 50007, "message": "Cannot send messages to this user"}))
    assert (await outlet.send(dm(turn(7)))).outcome is Outcome.DMS_CLOSED
    refusal.append(discord.Forbidden(_Response(403), {"code": 50001,
                                                      "message": "Missing Access"}))
    assert (await outlet.send(dm(turn(7)))).outcome is Outcome.UNREACHABLE
    refusal.append(discord.RateLimited(12.5))
    limited = await outlet.send(dm(turn(7)))
    assert (limited.outcome, limited.retry_after) == (Outcome.RATE_LIMITED, 12.5)
    refusal.append(discord.HTTPException(_Response(500), "down"))
    assert (await outlet.send(dm(turn(7)))).outcome is Outcome.FAILED
    assert (await outlet.send(dm(turn(7)))).outcome is Outcome.SENT
    outlet.close()


async def test_the_429s_discord_py_waits_out_are_counted(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    outlet = DiscordNotifications(h.bot, None)

    async def limited_once(call: Call) -> None:
        if call.path.endswith("/messages") and call.method == "POST":
            # What discord.py's HTTPClient.request logs before it retries a 429 itself.
            discord.http._log.warning(
                "We are being rate limited. %s %s responded with 429. Retrying in %.2f "
                "seconds.", "POST", "https://discord.com/api/v10" + call.path, 0.5)

    h.discord.observers.append(limited_once)
    result = await outlet.send(dm(turn(7)))
    assert (result.outcome, result.waited_429) == (Outcome.SENT, 1)
    outlet.close()


async def test_a_player_whose_dms_are_closed_is_told_once_privately(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    services = h.bot.services
    await services.preferences.update_player(BOB, notify=Notify.DM.value)
    await services.storage.notifications.close_dms(BOB)
    await services.notifications.restore()
    told = text(Msg.NOTIFICATION_DMS_CLOSED, "en")

    async def notes(user: int) -> list[dict[str, Any]]:
        replies = await run(h, slash(h, "settings", user=user))
        return [r.body for r in replies if r.content == told]

    assert await notes(ALICE) == []
    [note] = await notes(BOB)
    assert note["flags"] & 64  # ephemeral
    assert await notes(BOB) == []


async def test_a_button_press_tells_the_presser_too(tmp_path: Path, open_bot: OpenBot) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    _, board = await challenge_and_accept(h)
    services = h.bot.services
    await services.storage.notifications.close_dms(BOB)
    await services.notifications.restore()
    calls = await run(h, press_button(h, board, "resign", user=BOB))
    told = [c for c in calls if c.content == text(Msg.NOTIFICATION_DMS_CLOSED, "en")]
    assert len(told) == 1 and told[0].ephemeral


# --- against the local Discord stand-in, over real sockets ---------------------------


def to(user_id: int, *items: DigestItem) -> Delivery:
    """A DM to `user_id` settling rows numbered after its games (so its nonce is its own)."""
    return Delivery(user_id, TargetKind.DM, None, None, items,
                    tuple(item.game_id for item in items))


async def test_over_the_stand_in_a_dm_a_closed_dm_and_a_429_waited_out() -> None:
    async with StandIn(dm_limit=DmLimit(opens=5, sends=1, window=0.5)) as standin:
        await standin.add_guild("Dama Club", channels=("general",))
        alice, bob = standin.user("alice"), standin.user("bob")
        standin.close_dms("bob")
        bot = ProbeBot()
        async with running(standin, bot):
            outlet = DiscordNotifications(bot, None)
            first = await outlet.send(to(alice.id, turn(7)))
            # The stand-in's DM budget (one message per half second) answers 429;
            # discord.py waits it out and retries: the outlet counts it.
            second = await outlet.send(to(alice.id, turn(8)))
            closed = await outlet.send(to(bob.id, turn(9)))
            # The first message again (a restart between its send and its record): its
            # nonce makes Discord return the message it has instead of a second one.
            again = await outlet.send(to(alice.id, turn(7)))
            outlet.close()
        assert first == SendResult(Outcome.SENT)
        assert (second.outcome, second.waited_429) == (Outcome.SENT, 1)
        assert closed.outcome is Outcome.DMS_CLOSED
        assert again.outcome is Outcome.SENT
        sent = standin.messages(await standin.dm_channel("alice"))
        assert [m.content.split(":")[0] for m in sent] == [
            f"Your turn in game #{game} against <@{ALICE}>" for game in (7, 8)]
