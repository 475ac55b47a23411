"""A whole correspondence game in a DM between two players through the app each installed,
run by local play's script `localplay/examples/correspondence-dm.script` against the
real bot (docs/LOCAL_PLAY.md, "Correspondence in a DM").

The script must run without a failed line; then the transcript, the stand-in's records
and the bot's database (read-only) must show: the games stored with their move time and
place, every move and the result; each turn notification and reminder received once, as
a direct message from the bot to the player to move, in that player's language (the
texts from the catalog); closed direct messages told once, at the player's next
interaction; and nothing the bot posted by itself in a chat between users (where the
app is no member, docs/ARCHITECTURE.md, "Places"), so no 403 in the bot's log but the
one of the closed direct messages.

Slow: each `later` is noticed by the bot's notification planner at its next look at the
time (every 30 s at most), so the run takes one to two minutes."""

from __future__ import annotations

import re
from contextlib import closing
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

import localplay
from bot.messages import Msg, text
from bot.messages.durations import duration_text
from bot.services.models import MoveTime
from engine import Game, format_move, get_variant
from localplay.server import LocalDiscord
from standin import ChannelInfo, MessageOrigin, MessageRecord, shown_text
from storage import PlaceKind
from tests.support.local_discord import read_database, run_script

pytestmark = pytest.mark.slow

SCRIPT = Path(localplay.__file__).parent / "examples" / "correspondence-dm.script"
BOB_MOVES = ("22-18", "12-16", "23-19", "16-20", "24x15", "11x20")
"""The moves of the game between alice and bob, as the script plays them."""
CAROL_MOVES = ("22-18", "12-16")
"""The moves of carol's game (left under way)."""
BOARD_LINK = re.compile(r"https://discord\.com/channels/@me/(\d+)/(\d+)")






@dataclass(frozen=True)
class Stored:
    """A game as the bot stored it (the columns of `games` this test reads)."""

    id: int
    move_seconds: int | None
    place: str
    status: str
    result: str | None
    termination: str | None
    channel_id: int


def _stored_game(local: LocalDiscord, white: int, black: int) -> Stored:
    """The one game of `white` against `black`."""
    with closing(read_database(local)) as db:
        [row] = db.execute(
            "SELECT id, move_seconds, place, status, result, termination, channel_id "
            "FROM games WHERE white_user_id = ? AND black_user_id = ?",
            (white, black)).fetchall()
    return Stored(*row)


def _stored_moves(local: LocalDiscord, game_id: int) -> list[str]:
    """The game's stored moves in numeric notation (as the script typed them)."""
    with closing(read_database(local)) as db:
        stored = [m for (m,) in db.execute(
            "SELECT text FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]
    variant = get_variant("italian")
    game = Game(variant)
    numeric = []
    for move in stored:
        position = game.position
        game.play(move)
        numeric.append(format_move(game.moves[-1], position, variant, numeric=True))
    return numeric


def _bot_dm(local: LocalDiscord, name: str) -> list[MessageRecord]:
    """What the bot sent to `name`'s DM with it (none when it never opened one)."""
    standin = local.standin
    user = standin.user(name).id
    channels = [c for c in standin.world.channels.values()
                if c.guild_id is None and set(c.recipient_ids) == {user, standin.bot.id}]
    return [m for c in channels for m in standin.messages(c.id)]


def _games_answer(local: LocalDiscord, chat: ChannelInfo, user: int) -> MessageRecord:
    """The answer to `user`'s `/games` in `chat` (the script asks once there)."""
    standin = local.standin
    [answer] = [m for m in standin.messages(chat)
                if m.interaction_id is not None
                and standin.interaction(m.interaction_id).name == "/games"
                and standin.interaction(m.interaction_id).user_id == user]
    return answer


def _linked_board(local: LocalDiscord, message: str, dm: ChannelInfo, game_id: int) -> str:
    """The link in `message`, checked to point to a message of the bot in `dm` showing
    game `game_id`."""
    found = BOARD_LINK.search(message)
    assert found is not None, message
    assert int(found.group(1)) == dm.id, message
    board = local.standin.message(int(found.group(2)))
    assert board.channel_id == dm.id and board.author_id == local.standin.bot.id
    shown = [board.content, *(str(e.get("title", "")) for e in board.embeds)]
    assert any(f"#{game_id}" in part for part in shown), board
    return found.group(0)


async def test_a_correspondence_game_in_a_dm_with_its_notifications_in_two_languages(
    local: LocalDiscord, tmp_path: Path
) -> None:
    out = await run_script(local, SCRIPT.read_text(encoding="utf-8").splitlines(),
                     tmp_path / "boards")
    standin = local.standin
    alice, bob, carol = (standin.user(n).id for n in ("alice", "bob", "carol"))
    dm_bob = standin.dm_between("alice", "bob")
    dm_carol = standin.dm_between("alice", "carol")

    # The games: correspondence move times, in places where the bot only answers.
    game = _stored_game(local, alice, bob)
    assert (game.move_seconds, game.place, game.channel_id) == (
        MoveTime.DAY_1.seconds, PlaceKind.INTERACTIONS.value, dm_bob.id)
    assert (game.status, game.result, game.termination) == ("finished", "0-1", "resignation")
    assert _stored_moves(local, game.id) == list(BOB_MOVES)
    carol_game = _stored_game(local, alice, carol)
    assert (carol_game.move_seconds, carol_game.place, carol_game.status,
            carol_game.channel_id) == (MoveTime.DAYS_2.seconds, PlaceKind.INTERACTIONS.value,
                                       "active", dm_carol.id)
    assert _stored_moves(local, carol_game.id) == list(CAROL_MOVES)

    # Each notification once, by direct message, to the player to move, in their language:
    # bob (Turkish) his turn after 22-18, then a reminder with a quarter of his day left
    # after 23-19 (standing for that turn's notification); alice (English) her turn after
    # 12-16; carol nothing (her direct messages are closed).
    to_bob = [m.content for m in _bot_dm(local, "bob")]
    to_alice = [m.content for m in _bot_dm(local, "alice")]
    assert len(to_bob) == 2 and len(to_alice) == 1, (to_bob, to_alice)
    link = _linked_board(local, to_bob[0], dm_bob, game.id)
    assert to_bob[0] == text(Msg.NOTIFICATION_TURN, "tr", game=game.id, opponent=f"<@{alice}>",
                             link=link)
    link = _linked_board(local, to_bob[1], dm_bob, game.id)
    # Sent 18 hours into his day, a few seconds past the quarter's mark: "less than 6
    # hours" (the time left at sending, rounded up).
    left = duration_text(timedelta(seconds=MoveTime.DAY_1.seconds or 0) / 4, "tr")
    assert to_bob[1] == text(Msg.NOTIFICATION_REMINDER, "tr", left=left, game=game.id,
                             opponent=f"<@{alice}>", link=link)
    link = _linked_board(local, to_alice[0], dm_bob, game.id)
    assert to_alice[0] == text(Msg.NOTIFICATION_TURN, "en-US", game=game.id,
                               opponent=f"<@{bob}>", link=link)
    assert _bot_dm(local, "carol") == []
    # The transcript shows them where each player reads them.
    headers = [line for line in out if line.startswith("--- [") and "with dama-bot" in line]
    assert [h.split(" in the DM of ")[1] for h in headers] == [
        "@bob with dama-bot ---", "@alice with dama-bot ---", "@bob with dama-bot ---"]
    # Two languages: bob reads the bot in Turkish, alice in English.
    titles = {str(e.get("title")) for m in standin.messages(local.channel)
              for e in m.embeds if m.visible_to in (alice, bob)}
    assert {text(Msg.SETTINGS_TITLE, "tr"), text(Msg.SETTINGS_TITLE, "en-US")} <= titles
    assert text(Msg.SETTINGS_TITLE, "tr") != text(Msg.SETTINGS_TITLE, "en-US")

    # carol is told once, privately, at her next interaction that her DMs are closed.
    told = [m for m in standin.messages(dm_carol, visible_to="carol")
            if shown_text(m.content) == text(Msg.NOTIFICATION_DMS_CLOSED, "en-US")]
    assert [m.visible_to for m in told] == [carol]
    with closing(read_database(local)) as db:
        [(closed,)] = db.execute("SELECT dms_closed_at FROM notification_users "
                                 "WHERE user_id = ?", (carol,)).fetchall()
    assert closed is not None

    # /games: each player's games under way, in their language, the first (the player's
    # turn first) linked to its board.
    for user, locale, chat, shown in ((alice, "en-US", dm_bob, game), (bob, "tr", dm_bob, game),
                                      (carol, "en-US", dm_carol, carol_game)):
        [embed] = _games_answer(local, chat, user).embeds
        assert embed["title"] == text(Msg.GAMES_TITLE, locale)
        _linked_board(local, str(embed["description"]), chat, shown.id)

    # Nothing posted by the bot itself in a chat between users: only answers there.
    for chat in (dm_bob, dm_carol):
        posted = [m for m in standin.messages(chat) if m.author_id == standin.bot.id]
        assert posted and all(m.origin in (MessageOrigin.INTERACTION_RESPONSE,
                                           MessageOrigin.FOLLOWUP) for m in posted)
    log = local.process.log_path.read_text(encoding="utf-8", errors="replace")
    refusals = [line for line in log.splitlines()
                if re.search(r"\b403\b|50001|Missing Access", line)]
    assert all("50007" in line and str(carol) in line for line in refusals), refusals
    assert len(refusals) == 1, refusals
