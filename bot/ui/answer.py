"""`Answer`: replies to one interaction, deferring it when the answer is slow.

Discord wants an interaction answered within 3 seconds. An `Answer` starts a watchdog:
if nothing was sent `defer_after` seconds (default 2) after the interaction arrived, it
defers (the user sees "thinking..."). `send` then uses whichever route is right: the
initial response, the deferred response (edited), or a follow-up. An ephemeral answer
after a public deferral deletes the "thinking" message and sends an ephemeral follow-up,
so a player's mistake is never shown to the channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import discord

KEY = "dama_answer"
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)


DEFER_AFTER = 2.0
"""Seconds after arrival when an unanswered interaction is deferred."""

TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction's token lets the app answer it (Discord's documentation,
"Receiving and Responding": tokens are valid for 15 minutes)."""
TOKEN_MARGIN = 30.0
"""Seconds before its end when a token is no longer used: a message sent then might
arrive after it."""

FOLLOW_UPS = 5
"""The most follow-up messages one interaction may send (Discord's documentation,
"Receiving and Responding", followup messages)."""


class Answer:
    """The replies of one interaction. Get it with `Answer.of(interaction)`."""

    def __init__(
        self, interaction: discord.Interaction[Any], *, defer_after: float | None = None
    ) -> None:
        self.interaction = interaction
        self._lock = asyncio.Lock()
        self._deferred = False
        self._deferred_update = False
        self._original_used = False
        self.arrived = time.monotonic()
        """When the interaction arrived (`time.monotonic()`): its token's clock."""
        self._defer_after = DEFER_AFTER if defer_after is None else defer_after
        self._watchdog: asyncio.Task[None] | None = None
        self.follow_ups = 0
        """How many follow-up messages this interaction has sent (Discord allows
        `FOLLOW_UPS`)."""

    @classmethod
    def of(cls, interaction: discord.Interaction[Any], *, watch: bool = True) -> Answer:
        """The interaction's `Answer` (created on first use; with `watch`, its deferral
        watchdog is started)."""
        answer = interaction.extras.get(KEY)
        if not isinstance(answer, Answer):
            answer = cls(interaction)
            interaction.extras[KEY] = answer
        if watch:
            answer.watch()
        return answer

    def watch(self) -> None:
        """Start the deferral watchdog (not for autocomplete, which cannot be deferred)."""
        if self.interaction.type is discord.InteractionType.autocomplete:
            return
        if self._watchdog is None and not self.interaction.response.is_done():
            self._watchdog = asyncio.create_task(self._defer_later(), name="dama-answer")

    async def _defer_later(self) -> None:
        await asyncio.sleep(max(0.0, self._defer_after - (time.monotonic() - self.arrived)))
        async with self._lock:
            if not self.interaction.response.is_done():
                with contextlib.suppress(discord.HTTPException):
                    if self.interaction.type is discord.InteractionType.component:
                        # A button press: acknowledge without a "thinking" message (it would
                        # stay when the answer only edits the pressed message); later
                        # messages are follow-ups.
                        await self.interaction.response.defer()
                        self._deferred_update = True
                    else:
                        await self.interaction.response.defer(thinking=True)
                        self._deferred = True

    def _stop_watchdog(self) -> None:
        if self._watchdog is not None and not self._watchdog.done():
            self._watchdog.cancel()

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def send(
        self,
        content: str | None = None,
        *,
        embed: discord.Embed | None = None,
        embeds: list[discord.Embed] | None = None,
        file: discord.File | None = None,
        view: discord.ui.View | None = None,
        ephemeral: bool = False,
    ) -> int | None:
        """Send a message as this interaction's answer; returns its id (None if unknown)."""
        all_embeds = embeds if embeds is not None else ([embed] if embed is not None else [])
        files = [file] if file is not None else []
        extra: dict[str, Any] = {} if view is None else {"view": view}
        async with self._lock:
            self._stop_watchdog()
            interaction = self.interaction
            if not interaction.response.is_done():
                response = await interaction.response.send_message(
                    content, embeds=all_embeds, files=files, ephemeral=ephemeral,
                    allowed_mentions=MENTIONS, **extra,
                )
                return response.message_id
            if self._deferred and not self._original_used:
                self._original_used = True
                if ephemeral:
                    with contextlib.suppress(discord.HTTPException):
                        await interaction.delete_original_response()
                else:
                    message = await interaction.edit_original_response(
                        content=content, embeds=all_embeds, attachments=files,
                        allowed_mentions=MENTIONS, **extra,
                    )
                    return message.id
            sent = await interaction.followup.send(
                content or discord.utils.MISSING, embeds=all_embeds, files=files,
                ephemeral=ephemeral, allowed_mentions=MENTIONS, wait=True, **extra,
            )
            self.follow_ups += 1
            return sent.id

    @property
    def can_follow_up(self) -> bool:
        """Whether this interaction may still send a message: answered already (a later
        message is a follow-up), fewer than `FOLLOW_UPS` follow-ups sent, its token
        valid for `TOKEN_MARGIN` more."""
        return (self.interaction.response.is_done() and self.follow_ups < FOLLOW_UPS
                and self.token_valid())

    def token_valid(self) -> bool:
        """Whether the interaction's token is good for a message or an edit: less than
        `TOKEN_LIFETIME` less `TOKEN_MARGIN` seconds since it arrived."""
        return time.monotonic() - self.arrived < TOKEN_LIFETIME - TOKEN_MARGIN

    async def update_message(
        self, content: str | None = None, *, embed: discord.Embed | None = None,
        view: discord.ui.View | None = None, file: discord.File | None = None,
    ) -> None:
        """Edit the message whose component was pressed (its content, embed, components:
        `view=None` removes them; `file`: its attachment replaced by this one)."""
        files: dict[str, Any] = {} if file is None else {"attachments": [file]}
        async with self._lock:
            self._stop_watchdog()
            interaction = self.interaction
            if not interaction.response.is_done():
                await interaction.response.edit_message(content=content, embed=embed,
                                                        view=view, **files)
            elif self._deferred_update:
                # Deferred as an update: the original response is the pressed message,
                # edited through the interaction's webhook (no channel permission needed).
                await interaction.edit_original_response(content=content, embed=embed,
                                                         view=view, **files)
            elif interaction.message is not None:
                await interaction.message.edit(content=content, embed=embed, view=view,
                                               **files)

