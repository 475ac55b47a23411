"""`ProgressMessage`: long work shown as it goes, in the interaction's own answer.

The answer is sent first (`start`, through the interaction's `Answer`, so the deferral
watchdog is honoured), edited as the work advances (`update`, at most once every
`interval` seconds: Discord limits edits of one message) and replaced by the result
(`finish`). An edit that Discord refuses is skipped (the work goes on; the result edit
is the one that matters). The analysis (`bot.cogs.analysis`) is its first user; any
other long work shows its progress the same way.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.ui.answer import Answer

PROGRESS_INTERVAL = 2.0
"""Fewest seconds between two edits of a progress message."""


class ProgressMessage:
    """The progress of one interaction's long work (see the module docstring). `clock`
    is for tests."""

    def __init__(self, interaction: discord.Interaction[Any], *,
                 interval: float = PROGRESS_INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._interaction = interaction
        self._interval = interval
        self._clock = clock
        self._last: float | None = None

    @property
    def started(self) -> bool:
        """Whether the progress message was sent."""
        return self._last is not None

    async def start(self, content: str, *, view: discord.ui.View | None = None) -> int | None:
        """Send the progress message (`view`: its buttons, as a Cancel); returns its id
        (None when Discord did not say)."""
        message_id = await Answer.of(self._interaction).send(content, view=view)
        self._last = self._clock()
        return message_id

    async def update(self, content: str) -> None:
        """Show `content` if the message was started and `interval` seconds passed since
        its last edit; otherwise nothing (the next update shows newer progress)."""
        now = self._clock()
        if self._last is None or now - self._last < self._interval:
            return
        self._last = now
        with contextlib.suppress(discord.HTTPException):
            await self._interaction.edit_original_response(content=content)

    async def stop(self, content: str) -> None:
        """Replace the progress with `content` and remove its buttons (cancelled,
        failed); an edit Discord refuses is skipped."""
        with contextlib.suppress(discord.HTTPException):
            await self._interaction.edit_original_response(content=content, view=None)

    async def finish(self, *, embed: discord.Embed, attachments: Sequence[discord.File],
                     view: discord.ui.View | None) -> None:
        """Replace the progress with the result: `embed`, its `attachments`, `view` (None:
        no components). Raises `discord.HTTPException` when Discord refuses it."""
        await self._interaction.edit_original_response(
            content=None, embed=embed, attachments=list(attachments), view=view)
