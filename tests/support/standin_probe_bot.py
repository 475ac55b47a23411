"""A small real discord.py bot for the stand-in tests, and a runner that checks its health.

The bot is an unmodified `commands.Bot` with default intents whose `CommandTree` covers
what the stand-in must carry: options with autocomplete and choices, a member option, a
deferral answered by a follow-up with a file, an ephemeral answer, a persistent button,
DM-capable and guild-only commands, a permission check, a slow command and a double answer.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord
from discord import app_commands
from discord.ext import commands
from discord.webhook.async_ import async_context, interaction_response_params
from PIL import Image

from bot.discord_endpoint import apply_discord_url, restore_endpoint
from standin import StandIn

MOVES = ("22-18", "21-17", "23-19", "22-19")


def board_png(width: int = 24, height: int = 16) -> bytes:
    """A real PNG of the given size (made with Pillow, checked back through the stand-in)."""
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 160, 90)).save(buffer, format="PNG")
    return buffer.getvalue()


class PokeView(discord.ui.View):
    """A persistent view: buttons with fixed custom_ids, one per way of answering a press."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Poke", custom_id="probe:poke", style=discord.ButtonStyle.primary)
    async def poke(
        self, interaction: discord.Interaction, button: discord.ui.Button[PokeView]
    ) -> None:
        await interaction.response.edit_message(content=f"poked by {interaction.user.name}")

    @discord.ui.button(label="Answer", custom_id="probe:answer")
    async def answer(
        self, interaction: discord.Interaction, button: discord.ui.Button[PokeView]
    ) -> None:
        await interaction.response.send_message(f"answer for {interaction.user.name}")
        sent = await interaction.original_response()
        assert sent.type is discord.MessageType.reply
        assert interaction.message is not None and sent.reference is not None
        assert sent.reference.message_id == interaction.message.id
        client = interaction.client
        assert isinstance(client, ProbeBot)
        client.answer_checked.set()

    @discord.ui.button(label="Slowpoke", custom_id="probe:slowpoke")
    async def slowpoke(
        self, interaction: discord.Interaction, button: discord.ui.Button[PokeView]
    ) -> None:
        await interaction.response.defer()  # a deferred update: no visible answer yet
        await interaction.edit_original_response(
            content=f"slowly poked by {interaction.user.name}", view=None
        )


    @discord.ui.button(label="Shy", custom_id="probe:shy")
    async def shy(
        self, interaction: discord.Interaction, button: discord.ui.Button[PokeView]
    ) -> None:
        await interaction.response.defer()  # a deferred update, answered privately
        await interaction.followup.send(f"only {interaction.user.name} sees this",
                                        ephemeral=True)


class NoteModal(discord.ui.Modal, title="Leave a note"):
    """A modal with one text input; the answer repeats it ephemerally."""

    text: discord.ui.TextInput[NoteModal] = discord.ui.TextInput(
        label="Note", custom_id="note:text", max_length=100
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted: {self.text.value}", ephemeral=True)


class PickView(discord.ui.View):
    """A non-persistent view: discord.py files it under the answer's message id."""

    @discord.ui.select(
        placeholder="Pick a variant",
        options=[
            discord.SelectOption(label="Italian", value="italian"),
            discord.SelectOption(label="Turkish", value="turkish"),
        ],
    )
    async def pick(
        self, interaction: discord.Interaction, select: discord.ui.Select[PickView]
    ) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class ProbeBot(commands.Bot):
    """The test bot; records what it sees so tests can check the gateway side too."""

    def __init__(
        self, *, intents: discord.Intents | None = None, guild_ready_timeout: float = 2.0
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents or discord.Intents.default(),
            guild_ready_timeout=guild_ready_timeout,
        )
        self.png = board_png()
        self.release_slow = asyncio.Event()
        self.slow_error: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.second_answer_error: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.seen: list[discord.Message] = []
        self.joined: asyncio.Queue[discord.Guild] = asyncio.Queue()
        self.answer_checked = asyncio.Event()
        self.message_seen = asyncio.Event()
        self.followup_errors: list[int] = []
        self.dm_results: asyncio.Queue[int] = asyncio.Queue()  # 0 sent, else the error code
        self._add_commands()
        add_anywhere_commands(self)

    async def setup_hook(self) -> None:
        self.add_view(PokeView())
        await self.tree.sync()

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.joined.put(guild)

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)
        self.message_seen.set()

    def _add_commands(self) -> None:
        tree = self.tree

        @tree.command(description="Play a move in this channel's game")
        @app_commands.describe(move="The move, e.g. 22-18", note="A comment")
        async def move(
            interaction: discord.Interaction, move: str, note: str | None = None
        ) -> None:
            text = f"{interaction.user.name} plays {move}" + (f" ({note})" if note else "")
            await interaction.response.send_message(text, view=PokeView())

        @move.autocomplete("move")
        async def move_choices(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=m, value=m) for m in MOVES if m.startswith(current)]

        @tree.command(description="Show the board")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            embed = discord.Embed(title="Board", description="White to move")
            embed.set_image(url="attachment://board.png")
            await interaction.followup.send(
                embed=embed, file=discord.File(io.BytesIO(self.png), "board.png")
            )

        @tree.command(description="A secret answer")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("only for you", ephemeral=True)

        @tree.command(description="Answer, read it back, edit it, follow up")
        async def chain(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("step 1", ephemeral=True)
            original = await interaction.original_response()
            await interaction.edit_original_response(content=f"step 2 of {original.id}")
            extra = await interaction.followup.send("step 3", ephemeral=True, wait=True)
            await interaction.followup.edit_message(extra.id, content="step 4")
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            await channel.send("done", reference=await channel.send("anchor"))

        @tree.command(description="Type, answer, then take the answer back")
        async def vanish(interaction: discord.Interaction) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            await channel.typing()
            await interaction.response.send_message("gone soon")
            await interaction.delete_original_response()

        @tree.command(description="Think in public, then answer privately")
        async def whisper(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.delete_original_response()
            await interaction.followup.send("only you", ephemeral=True)

        @tree.command(description="Pick a variant")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("choose", view=PickView())

        @tree.command(description="Challenge someone")
        @app_commands.describe(opponent="Who", variant="Which rules", rated="Rated game")
        @app_commands.choices(
            variant=[
                app_commands.Choice(name="Italian", value="italian"),
                app_commands.Choice(name="Turkish", value="turkish"),
            ]
        )
        @app_commands.guild_only()
        async def challenge(
            interaction: discord.Interaction,
            opponent: discord.Member,
            variant: app_commands.Choice[str],
            rated: bool = True,
        ) -> None:
            await interaction.response.send_message(
                f"{interaction.user.mention} challenges {opponent.mention} "
                f"({opponent.name}, bot={opponent.bot}) to {variant.value}, rated={rated}"
            )

        @tree.command(description="May I manage messages here?")
        @app_commands.guild_only()
        async def perm(interaction: discord.Interaction) -> None:
            perms = interaction.permissions
            await interaction.response.send_message(f"manage_messages={perms.manage_messages}")

        @tree.command(description="Moderators only")
        @app_commands.default_permissions(manage_messages=True)
        @app_commands.guild_only()
        async def sweep(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("swept")

        @tree.command(description="Rules, also in DMs")
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
        async def rules(interaction: discord.Interaction) -> None:
            where = "dm" if interaction.guild is None else "guild"
            await interaction.response.send_message(f"rules ({where})")

        @tree.command(description="Leave a note")
        async def note(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NoteModal())

        game = app_commands.Group(name="game", description="Game commands")

        @game.command(name="show", description="Show game number n")
        @app_commands.describe(n="Which game")
        async def game_show(
            interaction: discord.Interaction, n: app_commands.Range[int, 1, 9]
        ) -> None:
            await interaction.response.send_message(f"show {n} ({type(n).__name__})")

        tree.add_command(game)

        @tree.command(description="Answers too late")
        async def slow(interaction: discord.Interaction) -> None:
            await self.release_slow.wait()
            try:
                await interaction.response.send_message("late")
            except discord.HTTPException as exc:
                self.slow_error.set_result(exc.code)

        @tree.command(description="Answers twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            params = interaction_response_params(4, {"content": "second"})
            try:
                await async_context.get().create_interaction_response(
                    interaction.id, interaction.token, session=interaction._session, params=params
                )
            except discord.HTTPException as exc:
                self.second_answer_error.set_result(exc.code)


def _owners_text(interaction: discord.Interaction) -> str:
    """The installations that authorized it as Discord sent them (`authorizing_integration_
    owners`, kept by discord.py without a public name): `0=<guild id>,1=<user id>`."""
    owners = interaction._integration_owners
    return ",".join(f"{key}={owners[key]}" for key in sorted(owners)) or "none"


def _context_text(interaction: discord.Interaction) -> str:
    context = interaction.context
    if context.guild:
        return "guild"
    return "bot-dm" if context.dm_channel else "private"


def add_anywhere_commands(bot: ProbeBot) -> None:
    """Commands of both installations usable in every context (a user-installed app's),
    and one only a user installation offers."""
    tree = bot.tree

    @tree.command(description="Answer wherever the app is installed")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def anywhere(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{_context_text(interaction)} by {_owners_text(interaction)} "
            f"perms={interaction.app_permissions.value}",
            view=PokeView(),
        )

    @tree.command(description="Only for users who installed the app")
    @app_commands.allowed_installs(guilds=False, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def mine(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"mine by {_owners_text(interaction)}")

    @tree.command(description="Defer, then send n follow-ups")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def burst(interaction: discord.Interaction, n: app_commands.Range[int, 1, 9]) -> None:
        await interaction.response.defer()
        for i in range(n):
            try:
                await interaction.followup.send(f"follow-up {i + 1}")
            except discord.HTTPException as exc:
                bot.followup_errors.append(exc.code)

    @tree.command(description="Send me a direct message")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def dmme(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("on its way", ephemeral=True)
        try:
            await interaction.user.send("a note from the bot")
        except discord.HTTPException as exc:
            await bot.dm_results.put(exc.code)
        else:
            await bot.dm_results.put(0)


class ErrorLog(logging.Handler):
    """Collects ERROR records of discord.py (exceptions it logs and swallows)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@asynccontextmanager
async def running(standin: StandIn, bot: commands.Bot) -> AsyncIterator[asyncio.Task[None]]:
    """Run `bot` against `standin` (endpoint applied, then restored); yields the bot's task.

    On leaving: the task must still be running (the gateway did not die), discord.py must
    have logged no error, and closing must end the task cleanly.
    """
    errors = ErrorLog()
    logging.getLogger("discord").addHandler(errors)
    previous = apply_discord_url(standin.url)
    task = asyncio.create_task(bot.start(standin.token))
    try:
        connected = asyncio.create_task(standin.wait_until_connected(timeout=15))
        done, _ = await asyncio.wait({task, connected}, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            connected.cancel()
            task.result()
            raise AssertionError("the bot stopped before connecting")
        connected.result()
        yield task
        assert not task.done(), f"the bot's gateway task ended: {task.exception()!r}"
        assert not errors.records, [r.getMessage() for r in errors.records]
        assert not standin.internal_errors, standin.internal_errors
    finally:
        await bot.close()
        await asyncio.wait_for(task, 15)
        restore_endpoint(previous)
        logging.getLogger("discord").removeHandler(errors)
