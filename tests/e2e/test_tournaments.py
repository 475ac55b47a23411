"""Whole small tournaments in the real bot process against the local stand-in. A Swiss:
an organiser creates it with two rounds, four players join by the sign-up post's button,
the organiser starts it (the bot holding exactly the permissions of its invite); each game
is played in its own thread under the channel, the round's posts appear in the
tournament's thread once each, and the export is a FIDE TRF file. An arena: open while it
runs, paired again as the players come free, ended early."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import INVITE_PERMISSIONS
from localplay.server import LocalDiscord
from standin import ChannelInfo, EventKind, MessageEvent, MessageRecord, Permission, UserInfo
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT
from tests.support.standin_play import resign, wait_board

PATIENCE = 60.0
"""Seconds to wait for the tournament's next post (a hang guard, not a measure)."""

PAIRING = re.compile(r"Board (\d+): <@(\d+)> \(White\) – <@(\d+)> \(Black\): <#(\d+)>")


async def _posted(local: LocalDiscord, channel_id: int, since: int, starts: str
                  ) -> MessageRecord:
    """The first message created in `channel_id` after event mark `since` whose content
    starts with `starts`."""

    def wanted(event: MessageEvent) -> bool:
        message = event.message
        return (event.kind is EventKind.CREATE and message.channel_id == channel_id
                and message.content.startswith(starts))

    return (await local.standin.wait_for_message(wanted, since=since, timeout=PATIENCE)).message


async def _play_round(local: LocalDiscord, players: dict[int, UserInfo], pairings: str
                      ) -> list[int]:
    """Each game of a round's pairings post ended by White's resignation in its thread;
    the games' threads."""
    threads = []
    for _, white, _, thread in PAIRING.findall(pairings):
        channel = local.standin.channel(int(thread))
        assert channel.parent_id == local.channel.id
        await wait_board(local, channel, since=0)
        resigned = await resign(local, players[int(white)], channel)
        assert "resigned" in resigned.reply.text()
        threads.append(int(thread))
    return threads


@pytest.fixture
async def invited(tmp_path: Path) -> AsyncIterator[LocalDiscord]:
    """The stand-in and the real bot process, the bot's role holding exactly the
    permissions of its invite (`bot.app.INVITE_PERMISSIONS`) and @everyone only seeing
    channels and using commands: what a server that invited it has."""
    permissions = INVITE_PERMISSIONS.value
    async with LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                            ready_timeout=READY_TIMEOUT, bot_permissions=permissions) as local:
        assert local.guild is not None
        guild = local.standin.world.guilds[local.guild.id]
        assert [r.permissions for r in guild.roles.values() if r.managed] == [permissions]
        guild.roles[guild.id].permissions = int(Permission.VIEW_CHANNEL
                                                | Permission.USE_APPLICATION_COMMANDS)
        yield local
        assert not local.standin.internal_errors
    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log and "Missing Permissions" not in log, log[-4000:]


async def test_a_small_swiss_from_signup_to_the_final_standings(invited: LocalDiscord) -> None:
    local = invited
    standin = local.standin
    assert local.guild is not None
    channel: ChannelInfo = local.channel
    alice = standin.user("alice")
    admins = await standin.add_role(local.guild, "admins", int(Permission.MANAGE_GUILD))
    await standin.give_role(local.guild, alice, admins)
    created = await standin.slash(alice, channel, "tournament create", {
        "name": "Club Swiss", "format": "swiss", "variant": "turkish", "rounds": 2,
        "move_time": "5m"}, timeout=ANSWER_TIMEOUT)
    assert created.ephemeral and "is created" in created.reply.text(), created.reply.text()
    [post] = [m for m in standin.messages(channel) if m.buttons]
    assert [b.label for b in post.buttons] == ["Join", "Leave"]

    players = {user.id: user for user in
               (standin.user(name) for name in ("bob", "carol", "dave", "erin"))}
    for user in players.values():
        joined = await standin.press(user, post, "Join", timeout=ANSWER_TIMEOUT)
        assert joined.ephemeral and "You joined Club Swiss" in joined.reply.text()
    assert all(f"<@{user}>" in standin.message(post.id).text() for user in players)

    mark = standin.event_count
    started = await standin.slash(alice, channel, "tournament start", {},
                                  timeout=ANSWER_TIMEOUT)
    assert started.ephemeral and "has started" in started.reply.text(), started.reply.text()
    thread = post.id  # the tournament's thread, started from the sign-up post
    first = await _posted(local, thread, mark, "**Round 1: the pairings**")
    under_way = standin.message(post.id)
    assert "Under way." in under_way.text()
    assert [b.label for b in under_way.buttons] == ["Standings"]
    [info] = (await standin.slash(alice, channel, "tournament info", {},
                                  timeout=ANSWER_TIMEOUT)).reply.embeds
    assert "Under way: round 1 of 2." in info["description"]
    assert f"<#{thread}>" in info["description"]
    games = await _play_round(local, players, first.content)
    second = await _posted(local, thread, mark, "**Round 2: the pairings**")
    games += await _play_round(local, players, second.content)
    final = await _posted(local, thread, mark, "**Club Swiss is over.")

    assert len(set(games)) == 4  # each game in its own thread
    for game_thread in games:
        titles = [m.embeds[0].get("title", "") for m in standin.messages(game_thread)
                  if m.attachments and m.embeds]
        assert len({re.findall(r"#(\d+)", title)[0] for title in titles}) == 1  # one game
    heads = [m.content.splitlines()[0] for m in standin.messages(thread) if m.content]
    for head in ("**The tournament has started.", "**Round 1: the pairings**",
                 "**Round 1: the results**", "**Round 2: the pairings**",
                 "**Round 2: the results**", "**Club Swiss is over."):
        assert sum(h.startswith(head) for h in heads) == 1, (head, heads)
    assert final.embeds[0]["title"] == "Club Swiss: standings"
    assert [a.filename for a in final.attachments] == ["standings.png"]  # the picture
    assert [b.label for b in final.buttons] == ["Standings"]
    finished = standin.message(post.id)
    assert [b.label for b in finished.buttons] == ["Standings"]
    assert "Finished." in finished.text()

    # Over, it is still this channel's tournament for the commands that read it.
    exported = await standin.slash(next(iter(players.values())), channel,
                                   "tournament export", {}, timeout=ANSWER_TIMEOUT)
    [trf] = exported.reply.attachments
    assert trf.filename.endswith(".trf")
    lines = trf.data.decode("utf-8").splitlines()
    assert sum(line.startswith("001") for line in lines) == 4  # one line per player
    standings = await standin.slash(alice, channel, "tournament standings", {},
                                    timeout=ANSWER_TIMEOUT)
    assert [a.filename for a in standings.reply.attachments] == ["standings.png"]
    history = await standin.slash(alice, channel, "tournament history", {},
                                  timeout=ANSWER_TIMEOUT)
    [winner] = re.findall(r"<@(\d+)>", final.content.splitlines()[1])  # the gold medal
    assert "Club Swiss · Swiss system, 2 rounds · " in history.reply.text()
    assert f"won by <@{winner}>" in history.reply.text()


async def test_an_arena_pairs_again_as_players_come_free_and_ends_early(
    local: LocalDiscord,
) -> None:
    standin = local.standin
    assert local.guild is not None
    channel = local.channel
    alice = standin.user("alice")
    admins = await standin.add_role(local.guild, "admins", int(Permission.MANAGE_GUILD))
    await standin.give_role(local.guild, alice, admins)
    await standin.slash(alice, channel, "tournament create", {
        "name": "Blitz", "format": "arena", "variant": "turkish", "duration": "10m"},
        timeout=ANSWER_TIMEOUT)
    [post] = [m for m in standin.messages(channel) if m.buttons]
    players = {user.id: user for user in (standin.user("bob"), standin.user("carol"))}
    for user in players.values():
        await standin.press(user, post, "Join", timeout=ANSWER_TIMEOUT)
    mark = standin.event_count
    await standin.slash(alice, channel, "tournament start", {}, timeout=ANSWER_TIMEOUT)
    running = standin.message(post.id)
    assert [b.label for b in running.buttons] == ["Join", "Leave", "Standings"]
    first = await _posted(local, post.id, mark, "**New games**")
    # Joining and leaving while it runs (alone, a late player waits for an opponent).
    dave = standin.user("dave")
    joined = await standin.press(dave, post, "Join", timeout=ANSWER_TIMEOUT)
    assert joined.reply.text().startswith("You joined Blitz.")
    left = await standin.press(dave, post, "Leave", timeout=ANSWER_TIMEOUT)
    assert left.reply.text().startswith("You left Blitz: you are paired no more.")
    later = standin.event_count
    [game] = await _play_round(local, players, first.content)
    again = await _posted(local, post.id, later, "**New games**")
    assert again.id != first.id  # both free again: paired again at once
    [(_, _, _, second)] = PAIRING.findall(again.content)
    assert int(second) != game  # a new game, in a thread of its own
    ended = await standin.slash(alice, channel, "tournament end", {}, timeout=ANSWER_TIMEOUT)
    assert "ends" in ended.reply.text()
    await _play_round(local, players, again.content)  # the game under way is played out
    final = await _posted(local, post.id, mark, "**Blitz is over.")
    assert final.embeds[0]["title"] == "Blitz: standings"
    assert [b.label for b in standin.message(post.id).buttons] == ["Standings"]


async def test_in_a_finished_tournaments_thread_the_commands_read_that_tournament(
        invited: LocalDiscord) -> None:
    """A tournament's thread names it even once it is over, before another tournament
    open elsewhere in the server (docs/PLAYING.md, "Tournaments": "the one of the channel
    or thread you are in, else the server's only open one")."""
    local = invited
    standin = local.standin
    assert local.guild is not None
    alice = standin.user("alice")
    admins = await standin.add_role(local.guild, "admins", int(Permission.MANAGE_GUILD))
    await standin.give_role(local.guild, alice, admins)
    await standin.slash(alice, local.channel, "tournament create", {
        "name": "Club A", "format": "swiss", "variant": "turkish", "rounds": 1},
        timeout=ANSWER_TIMEOUT)
    [post] = [m for m in standin.messages(local.channel) if m.buttons]
    players = {user.id: user for user in (standin.user("bob"), standin.user("carol"))}
    for user in players.values():
        await standin.press(user, post, "Join", timeout=ANSWER_TIMEOUT)
    mark = standin.event_count
    await standin.slash(alice, local.channel, "tournament start", {}, timeout=ANSWER_TIMEOUT)
    paired = await _posted(local, post.id, mark, "**Round 1: the pairings**")
    await _play_round(local, players, paired.content)
    await _posted(local, post.id, mark, "**Club A is over.")
    other = standin.channel("games")
    await standin.slash(alice, other, "tournament create", {
        "name": "Club B", "format": "arena", "variant": "turkish"}, timeout=ANSWER_TIMEOUT)
    thread = standin.channel(post.id)  # Club A's thread
    shown = await standin.slash(alice, thread, "tournament standings", {},
                                timeout=ANSWER_TIMEOUT)
    assert shown.reply.embeds[0]["title"] == "Club A: standings"
