"""The tournament service's outlet over discord.py (`bot/ui/tournament_posts.py`): a real
discord.py bot against the stand-in over sockets, every request checked against
Discord's specification. The sign-up post and its buttons, the tournament's thread from
that post, a game's thread under the channel, posts sent again after a crash that give
the first message back (nonces), long posts in parts."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import replace

import pytest
import pytest_asyncio

from bot.services.tournaments import (
    Cancelled,
    Ended,
    PairingView,
    RoundPaired,
    RoundResults,
    SignUp,
    Started,
    TournamentView,
)
from bot.ui.tournament_posts import SHOWN_ENTRANTS, TournamentPosts, chunks, post_nonce
from standin import ChannelType, StandIn
from standin.openapi import OpenApiCheck
from storage import TournamentStatus
from tests.support.discord_spec import checked_by_spec
from tests.support.standin_probe_bot import ProbeBot, running
from tests.support.tournament_views import (
    PLAYERS,
    arena_view,
    round_one,
    standings_after_one,
    swiss_view,
)


@pytest.fixture(autouse=True)
def discord_spec() -> Iterator[OpenApiCheck]:
    yield from checked_by_spec()


@pytest_asyncio.fixture
async def standin() -> AsyncIterator[StandIn]:
    async with StandIn() as server:
        await server.add_guild("Dama Club", channels=("general", "games"))
        yield server


def _view(standin: StandIn, **fields: object) -> TournamentView:
    channel = standin.channel("general")
    assert channel.guild_id is not None
    return replace(swiss_view(), guild_id=channel.guild_id, channel_id=channel.id,
                   **fields)  # type: ignore[arg-type]


def _labels(components: object) -> list[str]:
    return [button["label"] for row in components  # type: ignore[attr-defined]
            for button in row["components"]]


async def test_the_signup_post_and_the_tournaments_thread_from_it(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        posts = TournamentPosts(bot)
        view = _view(standin)
        message_id = await posts.post(view, SignUp())
        record = standin.message(message_id)
        assert record.channel_id == view.channel_id
        assert record.embeds[0]["title"] == "Tournament #7: Friday Swiss"
        assert _labels(record.components) == ["Join", "Leave"]
        started = replace(view, post_message_id=message_id, status=TournamentStatus.RUNNING,
                          current_round=1)
        thread_id = await posts.open_tournament_thread(started)
        # A thread started from a message has the message's id (Discord's docs).
        assert thread_id == message_id
        thread = standin.channel(thread_id)
        assert thread.kind is ChannelType.PUBLIC_THREAD and thread.name == "Friday Swiss"
        await posts.edit_signup(replace(started, thread_id=thread_id))
        record = standin.message(message_id)
        assert _labels(record.components) == ["Standings"]
        assert "Under way." in record.embeds[0]["description"]
        await posts.edit_signup(replace(started, status=TournamentStatus.FINISHED))
        assert _labels(standin.message(message_id).components) == ["Standings"]
        await posts.edit_signup(replace(view, post_message_id=message_id,
                                        status=TournamentStatus.CANCELLED))
        assert not standin.message(message_id).components


async def test_the_tournaments_thread_opened_again_after_a_crash_is_the_first(
    standin: StandIn,
) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        posts = TournamentPosts(bot)
        view = _view(standin)
        view = replace(view, post_message_id=await posts.post(view, SignUp()))
        first = await posts.open_tournament_thread(view)
        # The id was never recorded: the service asks again; Discord refuses a second
        # thread on the message (160004), and the first is the tournament's.
        assert await posts.open_tournament_thread(view) == first
    threads = [c for c in standin.world.channels.values() if c.type.is_thread]
    assert [t.id for t in threads] == [first]


async def test_each_game_has_its_own_thread_under_the_channel(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        view = _view(standin)
        thread_id = await TournamentPosts(bot).open_game_thread(view, 2, 3, PLAYERS[0],
                                                               PLAYERS[1])
    thread = standin.channel(thread_id)
    assert thread.kind is ChannelType.PUBLIC_THREAD and thread.parent_id == view.channel_id
    assert thread.name == "Friday Swiss: round 2, board 3"


async def test_a_post_sent_again_is_the_first_message(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        posts = TournamentPosts(bot)
        view = _view(standin)
        signup = await posts.post(view, SignUp())
        thread_id = await posts.open_tournament_thread(replace(view, post_message_id=signup))
        view = replace(view, post_message_id=signup, thread_id=thread_id)
        paired = RoundPaired(round_one())
        first = await posts.post(view, paired)
        assert await posts.post(view, paired) == first  # after a crash: the same message
        results = RoundResults(round_one(), standings_after_one())
        shown = await posts.post(view, results)
        assert shown != first
    messages = standin.messages(thread_id)
    assert [m.id for m in messages] == [first, shown]
    assert f"<@{PLAYERS[0]}> (White)" in messages[0].content
    assert "**2-0**" in messages[1].content
    assert messages[1].embeds[0]["title"] == "Friday Swiss: standings"
    assert _labels(messages[1].components) == ["Standings"]


async def test_a_long_post_is_sent_in_parts_each_once(standin: StandIn) -> None:
    boards = tuple(PairingView(n, 10_000 + 2 * n, 10_001 + 2 * n, 1_000_000 + n, None, None)
                   for n in range(1, 61))
    long = RoundPaired(replace(round_one(), pairings=boards, byes=()))
    bot = ProbeBot()
    async with running(standin, bot):
        posts = TournamentPosts(bot)
        view = _view(standin)
        signup = await posts.post(view, SignUp())
        thread_id = await posts.open_tournament_thread(replace(view, post_message_id=signup))
        view = replace(view, post_message_id=signup, thread_id=thread_id)
        first = await posts.post(view, long)
        assert await posts.post(view, long) == first
    parts = standin.messages(thread_id)
    assert len(parts) >= 2 and parts[0].id == first
    assert all(len(part.content) <= 2000 for part in parts)
    assert sum(part.content.count("Board ") for part in parts) == 60


def test_nonces_are_fixed_by_the_ledger_key_and_fit_discords_25_characters() -> None:
    paired = RoundPaired(round_one())
    assert post_nonce(7, paired) == post_nonce(7, paired)
    assert len({post_nonce(7, paired), post_nonce(8, paired), post_nonce(7, paired, 1),
                post_nonce(7, SignUp())}) == 4
    huge = post_nonce(2**62, RoundPaired(replace(round_one(), number=10**6)), 12)
    assert len(huge) <= 25 and huge.startswith("dt")


def test_chunks_keep_lines_whole_within_the_limit() -> None:
    assert chunks(["a" * 6, "b" * 3, "c" * 4], limit=10) == ["a" * 6 + "\n" + "b" * 3, "c" * 4]
    assert chunks(["x" * 12], limit=10) == ["x" * 10]


async def test_the_start_lists_the_players_by_number_up_to_a_limit(standin: StandIn) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        view = _view(standin, status=TournamentStatus.RUNNING)
        view = replace(view, entrants=swiss_view(status=TournamentStatus.RUNNING,
                                                 players=SHOWN_ENTRANTS + 6).entrants)
        first = await TournamentPosts(bot).post(view, Started())  # no thread yet: the channel
    lines = [line for m in standin.messages("general") for line in m.content.splitlines()]
    assert lines[0] == "**The tournament has started. The players, by pairing number:**"
    assert lines[1] == f"1. <@{PLAYERS[0]}> (1500)"
    assert lines[-1] == "…and 6 more" and len(lines) == SHOWN_ENTRANTS + 2
    assert standin.messages("general")[0].id == first


async def test_a_tournament_cancelled_before_its_thread_is_told_in_its_channel(
    standin: StandIn,
) -> None:
    bot = ProbeBot()
    async with running(standin, bot):
        await TournamentPosts(bot).post(_view(standin), Cancelled(too_few_players=True))
    [told] = standin.messages("general")
    assert told.content.startswith("The tournament was cancelled: fewer than two players")


async def test_an_early_end_says_what_becomes_of_the_games_under_way(
    standin: StandIn,
) -> None:
    """A Swiss's games under way count and the final standings wait for them; an arena's
    final standings come at once, and a game under way no longer counts (docs/RULES.md,
    "Arena")."""
    bot = ProbeBot()
    channel = standin.channel("general")
    assert channel.guild_id is not None
    async with running(standin, bot):
        posts = TournamentPosts(bot)
        running_ = TournamentStatus.RUNNING
        await posts.post(_view(standin, status=running_), Ended())
        await posts.post(replace(arena_view(status=running_), guild_id=channel.guild_id,
                                 channel_id=channel.id, id=8), Ended())
    swiss, arena = standin.messages("general")
    assert "played out, then the final standings are posted" in swiss.content
    assert "no longer counts" in arena.content
    assert "then the final standings" not in arena.content
