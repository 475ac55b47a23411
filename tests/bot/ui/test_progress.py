"""Long work shown as it goes (`bot/ui/progress.py`): the interaction's answer is sent
first, edited at most once per interval, then replaced by the result or a last line
without its buttons. A real discord.py `Interaction` of the bot, requests captured by
`FakeDiscord`."""

from __future__ import annotations

import discord

from bot.ui.analysis import progress_view
from bot.ui.progress import ProgressMessage
from tests.support.discord_harness import Harness, new_calls, slash
from tests.support.fake_discord import option


def _interaction(h: Harness) -> discord.Interaction[discord.Client]:
    payload = slash(h, "analyze", [option("game", 7, 4)])
    return discord.Interaction(data=payload, state=h.bot._connection)  # type: ignore[arg-type]


async def test_progress_is_edited_at_most_once_per_interval_then_stopped(
    harness: Harness,
) -> None:
    h = harness
    now = [100.0]
    shown = ProgressMessage(_interaction(h), interval=2.0, clock=lambda: now[0])
    since = len(h.discord.calls)
    await shown.update("before the start")  # nothing to edit yet
    assert new_calls(h, since) == [] and not shown.started
    await shown.start("ply 0 of 4", view=progress_view(7, "en-US"))
    [sent] = new_calls(h, since)
    assert sent.content == "ply 0 of 4" and sent.custom_ids == ["dama:stopanalysis:7"]
    since = len(h.discord.calls)
    now[0] += 1.0
    await shown.update("ply 1 of 4")  # within the interval: skipped
    assert new_calls(h, since) == []
    now[0] += 1.5
    await shown.update("ply 2 of 4")
    [edit] = new_calls(h, since)
    assert edit.method == "PATCH" and edit.path.endswith("/messages/@original")
    assert edit.content == "ply 2 of 4"
    since = len(h.discord.calls)
    await shown.stop("stopped")
    [last] = new_calls(h, since)
    assert last.content == "stopped" and last.body["components"] == []
