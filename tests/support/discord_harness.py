"""The real `DamaBot` logged in against `FakeDiscord`, and the moves of a test driving it:
slash commands and button presses as gateway payloads, the requests they caused."""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from bot.client import DamaBot
from bot.config import Config
from storage import Eligibility
from tests.support.clock import FakeClock
from tests.support.fake_discord import Call, FakeDiscord, option, user_option
from tests.support.services import ALICE, BOB, CAROL, CHANNEL

BOT_TASKS = ("CommandTree", "discord-ui", "discord.py", "dama-answer", "dama-background")
PNG = b"\x89PNG\r\n\x1a\n"
PATIENCE = 60.0
"""Seconds a test waits for the computer before failing (a hang guard, not a measure)."""


@dataclass
class Harness:
    bot: DamaBot
    discord: FakeDiscord
    clock: FakeClock

    async def dispatch(self, payload: dict[str, Any]) -> None:
        """Hand an INTERACTION_CREATE payload to discord.py and wait until the bot is done."""
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()

    async def settle(self) -> None:
        for _ in range(50):
            pending = [t for t in asyncio.all_tasks()
                       if not t.done() and t.get_name().startswith(BOT_TASKS)]
            if not pending:
                return
            await asyncio.wait(pending, timeout=5)
        names = [t.get_name() for t in asyncio.all_tasks() if not t.done()]
        raise AssertionError(f"the bot did not finish: {names}")


def settings_for(path: Path, **overrides: Any) -> Config:
    """Settings for a bot on the database at `path` (leaderboard after one rated game)."""
    values: dict[str, Any] = dict(
        token="fake-token", database=str(path),
        eligibility=Eligibility(min_games=1, max_deviation=500.0),
    )
    values.update(overrides)
    return Config(**values)


def slash(h: Harness, name: str, options: list[dict[str, Any]] | None = None, *,
          user: int = ALICE, resolved: dict[str, Any] | None = None,
          channel: int = CHANNEL, **kwargs: Any) -> dict[str, Any]:
    """A slash command's INTERACTION_CREATE payload."""
    data: dict[str, Any] = {"id": "1", "name": name, "type": 1, "options": options or []}
    if resolved:
        data["resolved"] = resolved
    return h.discord.interaction(2, data, user_id=user, channel_id=channel, **kwargs)


def press(h: Harness, message_id: int, custom_id: str, *, user: int,
          snapshot: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
    """A button press on a message (as stored, or as `snapshot` shows it); `kwargs` as
    `FakeDiscord.interaction` takes them (the guild, context...)."""
    message = snapshot if snapshot is not None else h.discord.messages[message_id]
    channel = int(message["channel_id"])
    return h.discord.interaction(3, {"custom_id": custom_id, "component_type": 2},
                                 user_id=user, channel_id=channel, message=message, **kwargs)


def pick(h: Harness, message_id: int, custom_id: str, value: str, *, user: int,
         snapshot: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
    """A value picked in a message's string select `custom_id` (the message as stored, or
    as `snapshot` shows it); `kwargs` as `press`."""
    message = snapshot if snapshot is not None else h.discord.messages[message_id]
    channel = int(message["channel_id"])
    data = {"custom_id": custom_id, "component_type": 3, "values": [value]}
    return h.discord.interaction(3, data, user_id=user, channel_id=channel, message=message,
                                 **kwargs)


def button_id(message: dict[str, Any], action: str) -> str:
    """The custom_id of `message`'s button for `action` ("resign", "draw", ...), as the
    bot drew it (a board's carries its game and ply)."""
    for row in message.get("components") or []:
        for component in row.get("components", []):
            custom_id = str(component.get("custom_id") or "")
            if custom_id.startswith(f"dama:{action}:"):
                return custom_id
    raise AssertionError(f"no {action} button on message {message.get('id')}")


def press_button(h: Harness, message_id: int, action: str, *, user: int,
                 snapshot: dict[str, Any] | None = None) -> dict[str, Any]:
    """A press of the `action` button of a message (as stored, or as `snapshot` shows
    it), with the custom_id that message carries."""
    message = snapshot if snapshot is not None else h.discord.messages[message_id]
    return press(h, message_id, button_id(message, action), user=user, snapshot=snapshot)


async def resign(h: Harness, *, user: int, board: int | None = None,
                 channel: int = CHANNEL) -> list[Call]:
    """`user` resigns as a player does: `/resign` (or the Resign button of board message
    `board`) asks privately, then the question's Resign confirms. Returns the requests
    of the confirmation."""
    payload = (press_button(h, board, "resign", user=user) if board is not None
               else slash(h, "resign", user=user, channel=channel))
    [question] = await run(h, payload)
    assert question.ephemeral, question.content
    confirm = question.custom_ids[0]
    assert confirm.startswith("dama:resignyes:"), question.custom_ids
    return await run(h, press(h, response_message_id(h, question), confirm, user=user))


async def play_plies(h: Harness, count: int, *, channel: int = CHANNEL) -> None:
    """Play `count` plies of the channel's game between two people with `/move`, each by
    the player to move (the first legal move): e.g. 4, so a rated game counts for
    ratings (docs/RULES.md, "Early results")."""
    import engine

    for _ in range(count):
        state = h.bot.services.games.current(channel)
        move = engine.legal_moves(state.position, state.variant)[0]
        text = engine.format_move(move, state.position, state.variant)
        user = state.to_move.user_id
        assert user is not None
        calls = await run(h, slash(h, "move", [option("move", text)], user=user,
                                   channel=channel))
        assert not calls[0].ephemeral, calls[0].content


def new_calls(h: Harness, since: int) -> list[Call]:
    return h.discord.calls[since:]


async def run(h: Harness, payload: dict[str, Any]) -> list[Call]:
    """Dispatch `payload`; the requests the bot made until it was done."""
    since = len(h.discord.calls)
    await h.dispatch(payload)
    await h.bot.services.announcer.drain()
    return new_calls(h, since)


def only_answer(calls: list[Call]) -> Call:
    """The one answer to an interaction among `calls` (its callback or its follow-up
    webhook); fails when there is not exactly one."""
    [answer] = [c for c in calls if c.callback_type is not None or "/webhooks/" in c.path]
    return answer


def embed_description(call: Call) -> str:
    """The first embed's description of the message `call` sent."""
    return str(call.body["embeds"][0]["description"])


def response_message_id(h: Harness, call: Call) -> int:
    """The id FakeDiscord gave the message a callback or webhook call created."""
    ids = [int(m["id"]) for m in h.discord.messages.values()
           if m["content"] == (call.body.get("content") or "")
           and m["embeds"] == (call.body.get("embeds") or [])]
    return ids[-1]


async def challenge_and_accept(h: Harness, variant: str = "turkish",
                               rated: bool = True) -> tuple[int, int]:
    """Alice (White) challenges Bob, Bob accepts; returns (challenge message, board message)."""
    opponent, resolved = user_option("opponent", BOB)
    calls = await run(h, slash(h, "challenge", [
        opponent, option("variant", variant), option("color", "white"),
        option("rated", rated, 5)], resolved=resolved))
    [answer] = calls
    assert answer.callback_type == 4 and not answer.ephemeral
    challenge_id = answer.custom_ids[0].split(":")[2]
    assert answer.custom_ids == [f"dama:accept:{challenge_id}", f"dama:decline:{challenge_id}",
                                 f"dama:cancel:{challenge_id}"]
    assert f"<@{BOB}>" in answer.content
    message_id = response_message_id(h, answer)
    calls = await run(h, press(h, message_id, f"dama:accept:{challenge_id}", user=BOB))
    update, board = calls
    assert update.callback_type == 7 and update.custom_ids == []
    assert "accepted" in update.embeds[0]["description"]
    assert board.method == "POST" and board.path.startswith("/webhooks/")
    return message_id, response_message_id(h, board)


async def computer_done(h: Harness) -> None:
    """Wait until the computer has made its moves and the bot has answered."""
    turns = h.bot.services.computer_turns
    assert turns is not None, "the bot always has the computer's turns"
    await asyncio.wait_for(turns.idle(), PATIENCE)
    await h.bot.services.announcer.drain()


def channel_posts(calls: list[Call]) -> list[Call]:
    """The messages posted to the channel (not as interaction answers)."""
    return [c for c in calls if c.method == "POST" and c.path == f"/channels/{CHANNEL}/messages"]


class OpenBot(Protocol):
    """What the `open_bot` fixture gives: a real `DamaBot` with `settings`, logged in
    against the test's one `FakeDiscord` (shared by every bot the test opens, as across a
    restart), on `clock` (default: a new `FakeClock`); `options` go to `DamaBot`
    (`run_scheduler` defaults to False). Every bot it opened is closed when the test ends."""

    async def __call__(
        self, settings: Config, *, clock: FakeClock | None = None, **options: Any
    ) -> Harness: ...


OTHER_GUILD, OTHER_CHANNEL = 777, 778
"""A server and channel apart from the test's own (`GUILD`, `CHANNEL`)."""
DAVE = 1004


async def challenge_elsewhere(h: Harness) -> tuple[int, int]:
    """Carol challenges Dave in another server; returns (the challenge's id, its message
    id): a message with buttons, in a channel where the presser may act."""
    opponent, resolved = user_option("opponent", DAVE)
    [answer] = await run(h, slash(h, "challenge", [opponent, option("variant", "turkish")],
                                  user=CAROL, resolved=resolved, guild_id=OTHER_GUILD,
                                  channel=OTHER_CHANNEL))
    return int(answer.custom_ids[0].split(":")[2]), response_message_id(h, answer)


def forged_press(h: Harness, message_id: int, custom_id: str, *, user: int,
            guild_id: int | None, values: list[str] | None = None) -> dict[str, Any]:
    """A press of `custom_id` on message `message_id`, as a hostile client sends it: the
    message as the payload shows it carries that component (discord.py dispatches only
    a component the message has), though the stored message does not."""
    message = copy.deepcopy(h.discord.messages[message_id])
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
    component: dict[str, Any] = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
    if values is not None:
        data.update(component_type=3, values=values)
        component = {"type": 3, "custom_id": custom_id, "min_values": 1, "max_values": 1,
                     "options": [{"label": v, "value": v} for v in values]}
    message["components"] = [{"type": 1, "components": [component]}]
    return h.discord.interaction(3, data, user_id=user, channel_id=int(message["channel_id"]),
                                 guild_id=guild_id, message=message)
