"""A user-installed app where Discord puts it: installations and contexts, DMs and group
DMs between users, places the app is no member of, follow-up limits, token lifetime,
forced ephemeral answers and closed DMs, with a real discord.py bot (Discord developer
docs: Interactions > Receiving and Responding; Application Commands, Contexts; Topics >
Permissions)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import aiohttp
import pytest

from standin import Permission, StandIn, StandInError
from standin.directory import ChannelRef
from standin.openapi import OpenApiCheck
from tests.support.discord_spec import checked_by_spec
from tests.support.standin_probe_bot import ProbeBot, running

PRIVATE = int(Permission.ATTACH_FILES | Permission.EMBED_LINKS | Permission.MENTION_EVERYONE)


@pytest.fixture(autouse=True)
def discord_spec() -> Iterator[OpenApiCheck]:
    """discord.py's requests and the stand-in's answers both meet Discord's specification."""
    yield from checked_by_spec()


async def test_commands_carry_their_installs_and_contexts(standin: StandIn) -> None:
    async with running(standin, ProbeBot()):
        commands = {c["name"]: c for c in await standin.wait_for_commands(["anywhere"])}
    assert commands["anywhere"]["integration_types"] == [0, 1]
    assert commands["anywhere"]["contexts"] == [0, 1, 2]
    assert commands["mine"]["integration_types"] == [1]
    assert commands["rules"]["contexts"] == [0, 1]


async def test_a_user_install_answers_in_a_dm_between_users(standin: StandIn) -> None:
    async with running(standin, ProbeBot()):
        dm = standin.dm_between("alice", "bob")
        alice = standin.user("alice")
        with pytest.raises(StandInError, match="has not installed the app"):
            await standin.slash("alice", dm, "anywhere")
        standin.install_for_user("alice")
        result = await standin.slash("alice", dm, "anywhere")
        assert result.reply.content == f"private by 1={alice.id} perms={PRIVATE}"
        # bob has not installed the app, yet uses the buttons of its message in the chat
        pressed = await standin.press("bob", result.reply, "Poke")
        assert pressed.reply.content == "poked by bob"
        with pytest.raises(StandInError, match="has not installed the app"):
            await standin.slash("bob", dm, "anywhere")
        with pytest.raises(StandInError, match="contexts"):
            await standin.slash("alice", dm, "rules")
        group = standin.group_dm("alice", "bob", "carol")
        in_group = await standin.slash("alice", group, "anywhere")
        assert in_group.reply.content == f"private by 1={alice.id} perms={PRIVATE}"
        assert not standin.internal_errors


async def test_installations_decide_the_authorizing_owners(standin: StandIn) -> None:
    async with running(standin, ProbeBot()):
        dm = await standin.dm_channel("alice")
        alice, guild = standin.user("alice"), standin.guild("Dama Club")

        async def answer(where: ChannelRef, command: str) -> str:
            return (await standin.slash("alice", where, command)).reply.content

        assert (await answer("general", "anywhere")).startswith(f"guild by 0={guild.id} ")
        # the bot's DM is the guild installation's, with the guild id "0"
        assert (await answer(dm, "anywhere")).startswith("bot-dm by 0=0 ")
        with pytest.raises(StandInError, match="has not installed"):
            await answer("general", "mine")
        standin.install_for_user("alice")
        assert (await answer("general", "anywhere")).startswith(
            f"guild by 0={guild.id},1={alice.id} ")
        assert await answer("general", "mine") == f"mine by 1={alice.id}"


async def test_a_server_without_the_app(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        annex = await standin.add_guild("Annex", channels=("lobby",), bot_installed=False)
        lobby = standin.channel("lobby")
        await asyncio.sleep(0.1)
        assert bot.get_guild(annex.id) is None  # no GUILD_CREATE for it
        with pytest.raises(StandInError, match="not installed here"):
            await standin.slash("alice", lobby, "rules")
        standin.install_for_user("alice")
        result = await standin.slash("alice", lobby, "anywhere")
        assert result.reply.content == (
            f"guild by 1={standin.user('alice').id} perms={PRIVATE}")
        assert not result.reply.ephemeral
        standin.deny_external_apps(annex, "alice")
        hidden = await standin.slash("alice", lobby, "anywhere")
        assert hidden.reply.ephemeral and hidden.reply.visible_to == standin.user("alice").id
        headers = {"Authorization": f"Bot {standin.token}"}
        async with aiohttp.ClientSession(headers=headers) as http:
            url = f"{standin.rest_base}/channels/{lobby.id}/messages"
            async with http.post(url, json={"content": "hi"}) as resp:
                assert resp.status == 403 and (await resp.json())["code"] == 50001
            async with http.get(url) as resp:
                assert resp.status == 403 and (await resp.json())["code"] == 50001


async def test_the_app_cannot_post_in_a_dm_between_users(standin: StandIn) -> None:
    async with running(standin, ProbeBot()):
        standin.install_for_user("alice")
        dm = standin.dm_between("alice", "bob")
        answer = (await standin.slash("alice", dm, "anywhere")).reply
        headers = {"Authorization": f"Bot {standin.token}"}
        base = f"{standin.rest_base}/channels/{dm.id}/messages"
        async with aiohttp.ClientSession(headers=headers) as http:
            for method, url, body in (
                ("POST", base, {"content": "hi"}),
                ("GET", base, None),
                ("GET", f"{base}/{answer.id}", None),
                ("PATCH", f"{base}/{answer.id}", {"content": "changed"}),
            ):
                async with http.request(method, url, json=body) as resp:
                    assert resp.status == 403, (method, url)
                    assert (await resp.json())["code"] == 50001


async def test_five_follow_ups_for_a_user_install_only(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        standin.install_for_user("alice")
        dm = standin.dm_between("alice", "bob")
        result = await standin.slash("alice", dm, "burst", {"n": 7})
        await _until(lambda: bool(bot.followup_errors))
        # the deferred answer (the first follow-up edits it), then five follow-ups
        assert [m.content for m in standin.interaction(result.interaction_id).messages] == [
            f"follow-up {i}" for i in range(1, 7)]
        assert bot.followup_errors == [40094]
        in_guild = await standin.slash("alice", "general", "burst", {"n": 7})
        await _until(lambda: len(standin.interaction(in_guild.interaction_id).messages) == 7)
        assert bot.followup_errors == [40094]


async def _until(done: Callable[[], bool], timeout: float = 5.0) -> None:
    async def poll() -> None:
        while not done():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), timeout)


async def test_an_interaction_token_expires() -> None:
    async with StandIn(token_lifetime=60.0) as standin:
        await standin.add_guild("Dama Club", channels=("general",))
        async with running(standin, ProbeBot()):
            result = await standin.slash("alice", "general", "anywhere")
            hook = f"{standin.rest_base}/webhooks/{standin.application_id}"
            async with aiohttp.ClientSession() as http:
                url = f"{hook}/{_token(standin, result.interaction_id)}/messages/@original"
                async with http.get(url) as resp:
                    assert resp.status == 200
                standin.advance_clock(61.0)
                async with http.get(url) as resp:
                    assert resp.status == 401 and (await resp.json())["code"] == 50027


def _token(standin: StandIn, interaction_id: int) -> str:
    return standin.core.interactions[interaction_id].token


async def test_closed_dms_refuse_the_bots_messages(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        await standin.slash("alice", "general", "dmme")
        assert await asyncio.wait_for(bot.dm_results.get(), 5) == 0
        standin.close_dms("bob")
        await standin.slash("bob", "general", "dmme")
        assert await asyncio.wait_for(bot.dm_results.get(), 5) == 50007
        assert standin.dm_counts.opened == 2 and standin.dm_counts.sent == 1
