"""A terminal session in the fake server: run local-mode commands and print the answers.

`TerminalSession.run(command)` carries out one command of `localplay.script` as the current user
in the current place and returns whether it got an answer. Every message the bot posts
or edits is printed as it arrives by the session's `localplay.transcript.Transcript`
(numbered, so `press 3 Accept` names one). `finish()` ends a session without losing
answers still on their way.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable
from pathlib import Path

from localplay.installs import installs_path_for, keep_install, kept_installs
from localplay.render import MenuOption, select_menus
from localplay.script import (
    AsUser,
    Command,
    DirectMessages,
    InChannel,
    InMyGame,
    InPrivate,
    Install,
    Later,
    Press,
    ScriptError,
    Select,
    Slash,
    Wait,
    canonical_command,
    parse_line,
    resolve_options,
)
from localplay.server import LocalDiscord
from localplay.stored import StoredGames
from localplay.transcript import Printer, Transcript
from standin import (
    BotDidNotAnswer,
    ChannelInfo,
    InteractionResult,
    MessageRecord,
    NotInstalledError,
    StandInError,
)
from storage import StorageError


class TerminalSession:
    """Commands as one of several users; see the module docstring.

    `local`: a started `LocalDiscord`. `boards_dir`: where pictures are saved. `emit`: how
    a line is printed. `settle`: after each command, the seconds without any new bot
    message after which the answer is taken as complete (at least three times what the
    last answer took, at most 5 s; follow-ups in that time, such as the board after Accept,
    are printed before the next command). `timeout`: seconds the bot
    has to answer one interaction.
    """

    def __init__(
        self,
        local: LocalDiscord,
        *,
        boards_dir: str | Path,
        emit: Printer = print,
        user: str = "alice",
        locale: str = "en-US",
        settle: float = 0.4,
        timeout: float = 30.0,
    ) -> None:
        self.local = local
        self.standin = local.standin
        self.emit = emit
        self.user = user
        self.locale = locale
        """The Discord client locale of the users typing (`--locale`): their interactions
        carry it, and they may type command and option names as that client shows them."""
        self.where = local.channel
        """The channel commands are typed in (`in CHANNEL`, `in SERVER#CHANNEL`)."""
        self._group_dms: dict[frozenset[int], ChannelInfo] = {}
        self.settle = settle
        self.timeout = timeout
        self.failures = 0
        self.answer_times: list[float] = []
        """Seconds from sending each interaction to its complete answer, in order."""
        self.games = StoredGames(local.process.database)
        self.transcript = Transcript(local, self.games, boards_dir=boards_dir, emit=emit)
        """The printed messages (`localplay.transcript`)."""
        self._last_answer = 0.0
        self._looked_from = 0  # where in the arrived texts the next `wait` looks from
        self._skipping = False  # after `in my game or skip` found no game
        self.installs_path = installs_path_for(local.process.database, local.process.log_path)
        """Where the players who typed `install` are kept for the next run
        (`localplay.installs`)."""

    # ---- lifecycle ---------------------------------------------------------------------
    async def __aenter__(self) -> TerminalSession:
        self.standin.keep_user_installs(kept_installs(self.installs_path))
        self.standin.set_locale(self.standin.user(self.user, locale=self.locale), self.locale)
        await self.transcript.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.transcript.__aexit__(*exc)
        await self.games.close()

    # ---- places ------------------------------------------------------------------------
    def channel_name(self, channel_id: int) -> str | None:
        """The name of a channel of this run's server (None when it has none)."""
        return self.transcript.channel_name(channel_id)

    def place_of(self, channel_id: int) -> str | None:
        """A channel of this run as the transcript names it (`#general`, a DM as
        `dm:@alice,@bob`); None for one this run does not have."""
        return self.transcript.mentioned_place(channel_id)

    @property
    def channel(self) -> str:
        """The name of the channel commands are typed in."""
        return self.where.name or str(self.where.id)

    def _place(self) -> str:
        """`#general` in the first server, `Dama Annex#lobby` in another, `dm:@alice,@bob`
        in a DM between users."""
        private = self.transcript.private_place(self.where.id)
        if private is not None:
            return private
        guild = self.local.guild
        if guild is None or self.where.guild_id in (None, guild.id):
            return f"#{self.channel}"
        server = self.standin.world.guilds.get(self.where.guild_id or 0)
        return f"{server.name if server else self.where.guild_id}#{self.channel}"

    def prompt(self) -> str:
        """Who types and where: `alice in #general > `, `alice in Dama Annex#lobby > `."""
        return f"{self.user} in {self._place()} > "

    async def quiet(self, timeout: float = 10.0) -> None:
        """Wait until the bot has posted nothing for `settle` seconds and every message
        so far is printed (at most `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        # A loaded machine answers slowly, and then follow-ups come late too.
        settle = max(self.settle, min(5.0, 3 * self._last_answer))
        while time.monotonic() < deadline:
            idle = time.monotonic() - self.transcript.last_event
            if idle >= settle:
                break
            await asyncio.sleep(settle - idle)
        await self.transcript.printed(max(0.1, deadline - time.monotonic()))

    def _interactions_open(self) -> bool:
        """True while some interaction sent has no answer yet (a deferred one: no edited
        answer or follow-up yet), unless its deadline passed."""
        return any(
            (not state.answered.is_set() or state.awaiting_followup) and not state.expired
            for state in self.standin.core.interactions.values()
        )

    async def finish(self, *, settle: float = 2.0, timeout: float = 30.0) -> None:
        """End the session without losing answers on their way (the end of a script or of
        piped input comes right after the last command).

        Waits until no interaction is open and no message came for `settle` seconds (at
        least three times the last answer's time, at most 10 s) or `timeout` seconds passed,
        then stops the bot (SIGTERM: it finishes the interactions it is handling) while
        still listening, and prints everything that arrived.
        """
        deadline = time.monotonic() + timeout
        settle = max(settle, self.settle, min(10.0, 3 * self._last_answer))
        while time.monotonic() < deadline:
            idle = time.monotonic() - self.transcript.last_event
            if idle >= settle and not self._interactions_open():
                break
            await asyncio.sleep(min(0.1, max(0.01, settle - idle)))
        await self.local.process.stop()
        with contextlib.suppress(TimeoutError):
            await self.transcript.printed(max(5.0, deadline - time.monotonic()))

    # ---- commands ----------------------------------------------------------------------
    async def run_line(self, line: str) -> bool | None:
        """Parse and run one line; None for blank lines and comments, else whether it
        worked (a line that is not a command counts as failed)."""
        try:
            command = parse_line(line)
        except ScriptError as error:
            self.emit(f"! {error}")
            self.failures += 1
            return False
        if command is None:
            return None
        return await self.run(command)

    async def run(self, command: Command) -> bool:
        """Run one command; returns True when it worked and (for interactions) the bot
        answered, or when it was skipped (after an `in my game or skip` that found no
        game, until the next `as`, `in` or `wait`). Failures are printed and counted in
        `failures`."""
        if isinstance(command, AsUser | InChannel | InPrivate | InMyGame | Wait | Later):
            self._skipping = False
        elif self._skipping:
            self.emit(f"(skipped: @{self.user} has no game under way)")
            return True
        try:
            await self._run(command)
        except NotInstalledError as error:
            self.emit(f"! {error.user} has not installed the app to their account (type "
                      f"`install`), and /{error.command} is not offered here otherwise")
            self.failures += 1
            return False
        except (StandInError, ScriptError) as error:
            self.emit(f"! {error}")
            self.failures += 1
            return False
        except BotDidNotAnswer as error:
            self.emit(f"! no answer: {error}")
            self.failures += 1
            return False
        finally:
            with contextlib.suppress(TimeoutError):
                await self.quiet()
        return True

    async def _run(self, command: Command) -> None:
        if isinstance(command, Wait):
            await self._wait(command.text, command.seconds)
            return
        if isinstance(command, Later):
            self._later(command.seconds)
            return
        if isinstance(command, InMyGame):
            await self._switch_to_game(or_skip=command.or_skip)
        elif isinstance(command, AsUser):
            user = self.standin.user(command.name, locale=self.locale)
            self.standin.set_locale(user, self.locale)
            self.user = user.name
            self.emit(f"(you are @{self.transcript.name_of(self.standin.user(command.name).id)})")
            if command.where is not None:
                await self._run(command.where)
            if command.then is not None:
                await self._run(command.then)
        elif isinstance(command, InChannel):
            await self._switch_channel(command.name, command.server)
        elif isinstance(command, InPrivate):
            await self._switch_private(command)
        elif isinstance(command, Install):
            name = command.name or self.user
            self.standin.install_for_user(name)
            keep_install(self.installs_path, self.standin.user(name).id)
            who = self.transcript.name_of(self.standin.user(name).id)
            self.emit(f"(@{who} installed dama-bot to "
                      "their account: its commands answer them in DMs, group DMs and servers)")
        elif isinstance(command, DirectMessages):
            self._direct_messages(command)
        elif isinstance(command, Press):
            await self._press(command.label, command.number)
        elif isinstance(command, Select):
            await self._select(command.option, command.number)
        elif command.suggest:
            await self._suggest(self._canonical(command))
        else:
            await self._slash(self._canonical(command))

    async def _switch_channel(self, name: str, server: str | None = None) -> None:
        """Move to #`name` of `server` (None: the current channel's server), created when
        missing. Raises `ScriptError` for a server this run does not have."""
        world = self.standin.world
        if server is None:
            guild_id = self.where.guild_id
        else:
            found = [g.id for g in world.guilds.values() if g.name.casefold() == server.casefold()]
            if not found:
                names = ", ".join(g.name for g in world.guilds.values())
                raise ScriptError(f"no server {server!r} here; servers: {names}")
            guild_id = found[0]
        if guild_id is None:
            assert self.local.guild is not None
            guild_id = self.local.guild.id
        matches = [c for c in world.channels.values()
                   if c.guild_id == guild_id and c.name == name.lstrip("#")]
        if matches:
            self.where = self.standin.channel(matches[0].id)
        else:
            self.where = await self.standin.add_channel(guild_id, name.lstrip("#"))
            self.emit(f"(created {self._place()})")
        self.emit(f"(you are in {self._place()})")

    async def _switch_private(self, command: InPrivate) -> None:
        """Move to the DM between the current user and another, to the bot's DM with the
        current user (`dm:@dama-bot`, the bot's name), or to a group DM of the current
        user and others (the same group DM again for the same people, whoever of them
        asks: naming oneself among them changes nothing)."""
        bot = self.standin.bot
        if not command.group and command.names[0].casefold() == bot.name.casefold():
            self.where = await self.standin.dm_channel(self.user)
        elif not command.group:
            self.where = self.standin.dm_between(self.user, command.names[0])
        else:
            me = self.standin.user(self.user).id
            named = {self.standin.user(n).id: n for n in reversed(command.names)}
            others = [name for user_id, name in reversed(named.items()) if user_id != me]
            people = frozenset(named) | {me}
            known = self._group_dms.get(people)
            if known is None:
                known = self.standin.group_dm(self.user, *others)
                self._group_dms[people] = known
            self.where = known
        self.emit(f"(you are in {self._place()})")

    async def _switch_to_game(self, *, or_skip: bool = False) -> None:
        """Move to the channel or thread of the current user's game under way, read from
        the bot's database. Raises `ScriptError` when they have none (with `or_skip`: the
        next commands are skipped instead, see `run`), or several (then it names their
        channels, for `in CHANNEL`)."""
        user = self.standin.user(self.user)
        try:
            games = await self.games.active_for(user.id)
        except StorageError as error:
            raise ScriptError(f"cannot read the bot's games: {error}") from None
        if not games and or_skip:
            self._skipping = True
            self.emit(f"(@{self.user} has no game under way: skipping to the next `as`, "
                      "`in` or `wait`)")
            return
        if not games:
            raise ScriptError(f"@{self.user} has no game under way")
        if len(games) > 1:
            places = ", ".join(self.place_of(g.channel_id) or str(g.channel_id) for g in games)
            raise ScriptError(f"@{self.user} has {len(games)} games under way, in {places}: "
                              "write `in CHANNEL` for one of them")
        self.where = self.standin.channel(games[0].channel_id)
        self.emit(f"(you are in {self._place()}, game #{games[0].id})")

    async def _wait(self, text: str, seconds: float) -> None:
        """Return once a bot message having `text` arrived after the one the previous
        `wait` found (since the session began for the first `wait`): a cursor that
        only `wait` moves, so a post that came during any earlier command, however long
        ago, is found, and each post once (a tournament's rounds end whenever their last
        game does). Raises `ScriptError` after `seconds` without one."""
        wanted = text.casefold()
        deadline = time.monotonic() + seconds
        looked = self._looked_from
        while True:
            for index in range(looked, len(self.transcript.arrived)):
                if wanted in self.transcript.arrived[index]:
                    self._looked_from = index + 1
                    return
            looked = len(self.transcript.arrived)
            left = deadline - time.monotonic()
            if left <= 0:
                raise ScriptError(f"no message of the bot said {text!r} within {seconds:g} s")
            self.transcript.arrival.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.transcript.arrival.wait(), left)

    def _direct_messages(self, command: DirectMessages) -> None:
        """Close or open a user's direct messages to the app (`standin`'s closed DMs)."""
        name = command.name or self.user
        who = self.transcript.name_of(self.standin.user(name).id)
        if command.open:
            self.standin.open_dms(name)
            self.emit(f"(@{who} takes direct messages from dama-bot again)")
        else:
            self.standin.close_dms(name)
            self.emit(f"(@{who} closed their direct messages: dama-bot's are refused, "
                      "403 Cannot send messages to this user)")

    def _later(self, seconds: float) -> None:
        """Move the bot's clock (one file for every process, `localplay.clock`) and the
        stand-in's on by `seconds`, and say how far ahead of the real time they are."""
        if not self.local.process.movable_clock:
            raise ScriptError("`later` needs the bot's clock local play moves on; this "
                              "session's bot runs on the real time")
        ahead = self.local.process.advance_clock(seconds)
        self.standin.advance_clock(seconds)
        self.emit(f"(time passes: {_duration(seconds)} later; the clocks are "
                  f"{_duration(ahead.total_seconds())} ahead of the real time)")

    def _canonical(self, command: Slash) -> Slash:
        """`command` with the registered names, typed as the users' client shows them."""
        guild = self.standin.commands(self.local.guild) if self.local.guild is not None else []
        return canonical_command(command, [*guild, *self.standin.commands()], self.locale)

    def _options(self, command: Slash) -> dict[str, str]:
        schema = self.standin.options_of(command.name, self.where)
        return resolve_options(command, schema, self.locale)

    def _focused(self, command: Slash, options: dict[str, str]) -> str:
        """The option whose suggestions `suggest` asks for: the last one typed when it has
        suggestions, else the first option with suggestions not typed (then as an empty
        field). Raises `ScriptError` when the command has no option with suggestions."""
        schema = self.standin.options_of(command.name, self.where)
        suggesting = [str(o["name"]) for o in schema if o.get("autocomplete")]
        typed = list(options)
        if typed and typed[-1] in suggesting:
            return typed[-1]
        for name in suggesting:
            if name not in options:
                options[name] = ""
                return name
        raise ScriptError(f"/{command.name} has no option with suggestions")

    async def _timed(self, call: Awaitable[InteractionResult]) -> InteractionResult:
        started = time.monotonic()
        result = await call
        self._last_answer = time.monotonic() - started
        self.answer_times.append(self._last_answer)
        return result

    async def _slash(self, command: Slash) -> None:
        options = self._options(command)
        await self._timed(self.standin.slash(
            self.user, self.where, command.name, options, timeout=self.timeout
        ))

    async def _suggest(self, command: Slash) -> None:
        options = self._options(command)
        focused = self._focused(command, options)
        choices = await self.standin.autocomplete(
            self.user, self.where, command.name, options, focused=focused,
            timeout=self.timeout,
        )
        shown = ", ".join(choice.name for choice in choices) or "(nothing)"
        self.emit(f"(suggestions: {shown})")

    async def _press(self, label: str, number: int | None) -> None:
        """Press the button `label` on message `number` of the transcript, or without a
        number on the newest message in this channel that has it."""
        wanted = label.casefold()
        candidates = self._candidates(number)
        for message in candidates:
            for button in message.buttons:
                names = {(button.label or "").casefold(), (button.custom_id or "").casefold()}
                if wanted in names and not button.disabled and button.url is not None:
                    # A link button sends the bot nothing: a browser opens its page.
                    self.emit(f"(a link: open {button.url} in a browser)")
                    return
                if wanted in names and not button.disabled:
                    await self._timed(self.standin.press(
                        self.user, message, button.custom_id or label, timeout=self.timeout
                    ))
                    return
        if number is not None:
            labels = " ".join(f"[{b.label}]" for b in candidates[0].buttons if not b.disabled)
            raise ScriptError(f"message [{number}] has no button {label!r}"
                              + (f"; its buttons: {labels}" if labels else "; it has none"))
        shown = dict.fromkeys(f"[{b.label}]" for m in candidates for b in m.buttons
                              if b.label and not b.disabled)
        raise ScriptError(f"no message in {self._place()} has a button {label!r}"
                          + (f"; the buttons there: {' '.join(shown)}" if shown
                             else "; no message there has buttons"))

    async def _select(self, option: str, number: int | None) -> None:
        """Pick `option` (an option's label or value, or a part of the label that only one
        option of the menu has) in a select menu of message `number` of the transcript, or
        without a number of the newest message in this channel having such an option: the
        stand-in sends the bot a component interaction with the option's value.

        Raises `ScriptError` when no menu has it, or when a part of a label is ambiguous."""
        wanted = option.casefold()
        candidates = self._candidates(number)
        for message in candidates:
            for menu in select_menus(message):
                if menu.disabled:
                    continue
                picked = _pick(menu.options, wanted)
                if picked is not None:
                    await self._timed(self.standin.select(
                        self.user, message, menu.custom_id, [picked.value],
                        timeout=self.timeout))
                    return
        if number is not None:
            labels = " | ".join(o.label for m in select_menus(candidates[0]) for o in m.options)
            raise ScriptError(f"message [{number}] has no option {option!r} to select"
                              + (f"; its options: {labels}" if labels else
                                 "; it has no select menu"))
        raise ScriptError(f"no message in {self._place()} has an option {option!r} to select")

    def _candidates(self, number: int | None) -> list[MessageRecord]:
        """Message `number` of the transcript (as the only candidate), or without a number
        every message of this channel the user sees, newest first. Raises `ScriptError`
        for a number not shown or a message the user cannot see."""
        if number is not None:
            message_id = self.transcript.message_numbered(number)
            if message_id is None:
                last = self.transcript.numbered
                shown = f"they are numbered 1 to {last}" if last else "none is shown yet"
                raise ScriptError(f"no message [{number}] of dama-bot: {shown}")
            message = self.standin.message(message_id)
            if message.ephemeral and message.visible_to != self.standin.user(self.user).id:
                raise ScriptError(f"@{self.user} cannot see message [{number}]")
            return [message]
        return list(reversed(self.standin.messages(self.where, visible_to=self.user)))


def _duration(seconds: float) -> str:
    """`64800.0` -> `18 h`, `90.0` -> `1 min 30 s`: days, hours, minutes and seconds."""
    parts = []
    left = round(seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60), ("s", 1)):
        if left >= size:
            parts.append(f"{left // size} {unit}")
            left %= size
    return " ".join(parts) or "0 s"


def _pick(options: tuple[MenuOption, ...], wanted: str) -> MenuOption | None:
    """The option whose label or value is `wanted` (casefolded), else the only one whose
    label contains it; None when none or several do."""
    for option in options:
        if wanted in (option.label.casefold(), option.value.casefold()):
            return option
    partial = [option for option in options if wanted in option.label.casefold()]
    return partial[0] if len(partial) == 1 else None


