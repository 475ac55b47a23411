"""The command language of the local play mode, one command per line.

    as bob                                   switch to user bob (created on first use)
    as alice in dm:@bob /challenge @bob      switch user and place at once, then run the
                                             command (it may be left out)
    as bob press Accept                      switch user, then run the command here
    in dm:@bob                               switch to your DM with bob, where only the
                                             app you installed answers (see `install`)
    in dm:@dama-bot                          switch to the bot's own DM with you (the
                                             app is a member: `/play italian` there)
    in group:@bob,@carol                     switch to a group DM of you, bob and carol
    install                                  install the app to your account (`install
                                             @bob`: to bob's); its commands then answer
                                             you in DMs, group DMs and any server
    close dms                                take no more direct messages from the app
                                             (`close dms @bob`: bob); `open dms` again
    in games                                 switch to channel #games (created if missing)
    in "Dama Annex#lobby"                    switch to #lobby of the server Dama Annex
    in my game                               switch to the channel or thread of your
                                             game under way (a tournament game's thread)
    in my game or skip                       the same, but when you have no game under
                                             way the lines up to the next `as`, `in` or
                                             `wait` are skipped, not failed (a script
                                             that cannot know a tournament's pairings)
    wait "Round 2" 120s                      wait until the bot has posted a message
                                             having this text after the one the previous
                                             wait found (at most 120 s; 60 without a time)
    later 18h                                time passes: the bot's and Discord's clocks
                                             move on (s, m, h or d; a correspondence game's
                                             turn notifications and reminders fall due)
    /challenge opponent:@bob variant:italian a slash command, as Discord shows it
    /challenge @bob italian                  option names may be left out, in schema order
    /move 22-18
    /tournament create name:Cup format:swiss a sub-command: its name after the command's
    press Accept                             press a button on the newest message having it
    press 3 Accept                           press it on message [3] of the transcript
    select 2 "12-15??"                       pick this option (its label, or a part of
                                             it only one option has) of the select menu
                                             on message [2]; without the number, on the
                                             newest message having such an option
    suggest /move 22                         show what autocomplete offers for the last option
    suggest /move                            ... for an empty field: every legal move
    # a comment                              (blank lines are skipped too)
    help                                     this list;  quit: the end (as the input's end)

Values with spaces are quoted: `/rating user:"Giocatore 01"`. Command and option names are
typed as registered or as a client in the session's locale shows them (`/meydan-oku
hamle-süresi:5m`, `/défi temps-par-coup:1h`, `/paramètres côté-damier:blancs`), accents
typed precomposed or as combining marks alike. An option with choices takes the value as a
player would type it: the choice's value or name in any case (`Turkish`, `everyone`), a
part of the name the locale shows that only one choice has (`marocaine` for "Dames
marocaines", as the client's list offers it) or, for a variant, any of the engine's names
for it (`dama`). `parse_line`
only splits a line; which option a bare value fills, and which choice a typed value
means, is decided by `resolve_options` against the command's registered schema.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import shlex
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


class ScriptError(ValueError):
    """A line that is not a command of the local mode; the message says what to write."""


@dataclass(frozen=True)
class InPrivate:
    """`in dm:@NAME` or `in group:@NAME,@NAME...`: act in the DM between the current user
    and `names[0]` (the bot's name: the bot's own DM with the current user, where the app
    is a member), or (`group`) in a group DM of the current user and `names`, from now
    on. The app is no member of a DM or group DM between users: only a user's
    installation of it answers there."""

    names: tuple[str, ...]
    group: bool = False


@dataclass(frozen=True)
class Install:
    """`install [@NAME]`: the current user (or NAME) installs the app to their account."""

    name: str | None = None


@dataclass(frozen=True)
class DirectMessages:
    """`close dms [@NAME]`, `open dms [@NAME]`: the current user (or NAME) stops taking
    direct messages from the app (Discord answers the bot's messages to them 403, code
    50007), or takes them again."""

    open: bool
    name: str | None = None


@dataclass(frozen=True)
class AsUser:
    """`as NAME [in PLACE] [COMMAND]`: act as this user from now on; with `where`, in
    that place from now on too; with `then`, run that command there."""

    name: str
    where: InChannel | InPrivate | InMyGame | None = None
    then: Slash | Press | Select | Install | None = None


@dataclass(frozen=True)
class InChannel:
    """`in CHANNEL` or `in SERVER#CHANNEL`: act in this text channel (of that server;
    None: the server of the current channel) from now on."""

    name: str
    server: str | None = None


@dataclass(frozen=True)
class InMyGame:
    """`in my game`: act in the channel (or thread) of the current user's game under way
    from now on. A channel's name has no spaces on Discord, so no channel is called so.

    `or_skip` (`in my game or skip`): when the user has no game under way, the commands
    up to the next `as`, `in` or `wait` are skipped instead of this line failing."""

    or_skip: bool = False


MY_GAME = "my game"
"""What `in` takes for the current user's game (`InMyGame`)."""

OR_SKIP = "or skip"
"""What follows `in my game` to skip the user's commands when they have no game."""


@dataclass(frozen=True)
class Wait:
    """`wait TEXT [SECONDS]`: wait until a message of the bot having `text` (in its text,
    embed or buttons; case does not matter) has arrived after the message the previous
    `wait` found (since the session began, for the first), for at most `seconds`."""

    text: str
    seconds: float = 60.0


@dataclass(frozen=True)
class Later:
    """`later DURATION`: time passes: the bot's clock (`localplay.clock`) and the
    stand-in's move `seconds` on at once, with no real wait."""

    seconds: float


@dataclass(frozen=True)
class Press:
    """`press [NUMBER] LABEL`: press the button with this label (or custom_id), on the
    bot's message with that number in the transcript, else on the newest having it."""

    label: str
    number: int | None = None


@dataclass(frozen=True)
class Select:
    """`select [NUMBER] OPTION`: pick the option with this label or value (or the one
    option whose label contains it) in a select menu of the bot's message with that
    number in the transcript, else of the newest message having such an option."""

    option: str
    number: int | None = None


@dataclass(frozen=True)
class Slash:
    """`/name args...`: `named` options given as `name:value`, `bare` values in order.

    With `suggest`, the bot's autocomplete suggestions for the last option are asked for
    instead of running the command.
    """

    name: str
    named: tuple[tuple[str, str], ...]
    bare: tuple[str, ...]
    suggest: bool = False


Command = (AsUser | InChannel | InPrivate | InMyGame | Install | DirectMessages | Wait | Later
           | Press | Select | Slash)

DM_PREFIX = "dm:"
GROUP_PREFIX = "group:"

def is_option_name(text: str) -> bool:
    """Whether `text` (before a colon) is an option name as Discord's names are written:
    letters of any script with their combining marks, digits, `-`, `_`, `'` (Discord's
    developer docs, Application Commands: the name's pattern), with a letter first so that
    a move such as `22:18` stays a value."""
    return bool(text) and unicodedata.category(text[0]).startswith("L") and all(
        c in "-_'" or unicodedata.category(c)[0] in "LMN" for c in text)


def _typed_name(text: str) -> str:
    """A command or option name as typed, in one Unicode form (NFC: an accent typed as a
    combining mark, `e` + U+0301, is the `é` a client shows) and lower case."""
    return unicodedata.normalize("NFC", text).lower()

HELP = __doc__.split("\n\n", 1)[1].split("\n\nValues", 1)[0] if __doc__ else ""


def parse_line(line: str) -> Command | None:
    """One line -> a command, or None for blank lines and `#` comments.

    Raises `ScriptError` for anything else that is not a command.
    """
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    head, _, rest = text.partition(" ")
    rest = rest.strip()
    keyword = head.lower()
    if keyword == "as":
        return _as(rest)
    if keyword == "install":
        name = _unquote(rest).lstrip("@").strip()
        return Install(name or None)
    if keyword in ("open", "close"):
        what, _, who = rest.partition(" ")
        if what.lower() != "dms":
            raise ScriptError(f"write `{keyword} dms` (or `{keyword} dms @NAME`)")
        return DirectMessages(keyword == "open", _unquote(who).lstrip("@").strip() or None)
    if keyword == "in":
        private = _private(rest)
        if private is not None:
            for name in private.names:
                _one_word(rest, name)
            return private
        where = _unquote(rest).strip()
        server, hash_, channel = where.rpartition("#")
        if not hash_:
            server, channel = "", where
        channel = channel.strip()
        typed = " ".join(channel.casefold().split())
        if not hash_ and typed == MY_GAME:
            return InMyGame()
        if not hash_ and typed == f"{MY_GAME} {OR_SKIP}":
            return InMyGame(or_skip=True)
        _one_word(rest, channel)
        if not channel:
            raise ScriptError("write `in CHANNEL`, e.g. `in games`, or `in SERVER#CHANNEL`, "
                              'e.g. `in "Dama Annex#lobby"`')
        return InChannel(channel, server.strip() or None)
    if keyword == "wait":
        return _wait(rest)
    if keyword == "later":
        return _later(rest)
    if keyword == "press":
        if not rest:
            raise ScriptError("write `press LABEL`, e.g. `press Accept` (or `press 3 Accept` "
                              "for message [3])")
        first, _, label = rest.partition(" ")
        if first.strip("[]#").isdigit() and label.strip():
            return Press(_unquote(label.strip()), int(first.strip("[]#")))
        return Press(_unquote(rest))
    if keyword == "select":
        if not rest:
            raise ScriptError('write `select OPTION`, e.g. `select "12-15??"` (or '
                              '`select 3 "12-15??"` for message [3])')
        first, _, option = rest.partition(" ")
        if first.strip("[]#").isdigit() and option.strip():
            return Select(_unquote(option.strip()), int(first.strip("[]#")))
        return Select(_unquote(rest))
    if keyword == "suggest":
        if not rest.startswith("/"):
            raise ScriptError("write `suggest /COMMAND ...`, e.g. `suggest /move 22`")
        command = _slash(rest)
        return Slash(command.name, command.named, command.bare, suggest=True)
    if text.startswith("/"):
        return _slash(text)
    raise ScriptError(
        f"{text[:40]!r} is not a command: write a slash command (`/move 22-18`), "
        "`as NAME`, `in CHANNEL`, `in dm:@NAME`, `in group:@NAME,@NAME`, `in my game "
        "[or skip]`, `install`, `wait TEXT`, `press LABEL`, `select OPTION` or "
        "`suggest /COMMAND ...`"
    )


def _as(rest: str) -> AsUser:
    """`as NAME [in PLACE] [COMMAND]` -> `AsUser`. The place is one word (`games`,
    `dm:@bob`, `group:@bob,@carol`, a quoted `"Dama Annex#lobby"`); the command is a
    slash command, `press`, `select` or `install` (`as bob press Accept`: in the current
    place). Raises `ScriptError` for anything else after the name."""
    usage = "write `as NAME`, e.g. `as bob`, or `as NAME [in PLACE] [COMMAND]`, e.g. " \
            "`as alice in dm:@bob /challenge @bob` or `as bob press Accept`"
    try:
        words = shlex.split(rest)
    except ValueError as error:
        raise ScriptError(f"{usage} ({error}: close the quotes)") from None
    if not words or not words[0].lstrip("@"):
        raise ScriptError(usage)
    name = words[0].lstrip("@")
    if len(words) == 1:
        return AsUser(name)
    place: InChannel | InPrivate | InMyGame | None = None
    skip = 1
    if words[1].lower() == "in":
        if len(words) < 3:
            raise ScriptError(usage)
        parsed = parse_line(f"in {shlex.quote(words[2])}")
        assert isinstance(parsed, InChannel | InPrivate | InMyGame)
        place, skip = parsed, 3
    stream = io.StringIO(rest)
    lexer = shlex.shlex(stream, posix=True)
    lexer.whitespace_split = True
    for _ in range(skip):
        lexer.get_token()
    command_text = rest[stream.tell():].strip() if len(words) > skip else ""
    if not command_text:
        return AsUser(name, place)
    try:
        then = parse_line(command_text)
    except ScriptError:
        raise ScriptError(usage) from None
    if not isinstance(then, Slash | Press | Select | Install):
        where = f" in {words[2]}" if place is not None else ""
        raise ScriptError(f"after `as {name}{where}` write a slash command, `press`, "
                          "`select` or `install`")
    return AsUser(name, place, then)


def _one_word(rest: str, name: str) -> None:
    """Raise `ScriptError` when the place's `name` in `in PLACE` has a space: a channel's
    or a person's name has none, so it is a command typed after the place."""
    if len(name.split()) > 1:
        raise ScriptError(f"`in {rest.strip()}`: a place is one word; write the command on "
                          "the next line, or `as NAME in PLACE COMMAND`")


def _private(rest: str) -> InPrivate | None:
    """`dm:@bob` or `group:@bob,@carol` -> `InPrivate`; None for another place. Raises
    `ScriptError` for a DM without its one other person, a group DM without people."""
    text = _unquote(rest).strip()
    lowered = text.lower()
    for prefix, group in ((DM_PREFIX, False), (GROUP_PREFIX, True)):
        if lowered.startswith(prefix):
            names = tuple(n.strip().lstrip("@") for n in text[len(prefix):].split(","))
            names = tuple(n for n in names if n)
            if group and names:
                return InPrivate(names, group=True)
            if not group and len(names) == 1:
                return InPrivate(names)
            raise ScriptError("write `in dm:@NAME` (one other person) or "
                              "`in group:@NAME,@NAME` (the others in the group DM)")
    return None


def _wait(rest: str) -> Wait:
    """`wait TEXT [SECONDSs]` -> `Wait` (the time ends in `s`, so `wait Round 2` waits for
    "Round 2"). Raises `ScriptError` without a text, or for a time not above 0 s and at
    most an hour."""
    usage = 'write `wait TEXT [SECONDSs]`, e.g. `wait "Round 2" 120s`'
    try:
        words = shlex.split(rest)
    except ValueError as error:
        raise ScriptError(f"{usage} ({error}: close the quotes)") from None
    seconds = _seconds(words[-1]) if len(words) > 1 else None
    if seconds is not None:
        if not 0 < seconds <= 3600:
            raise ScriptError(f"wait more than 0 s and at most 3600 s, not {words[-1]}")
        return Wait(" ".join(words[:-1]), seconds)
    if not words:
        raise ScriptError(usage)
    return Wait(" ".join(words))


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
"""The units `later` takes, in seconds."""


def _later(rest: str) -> Later:
    """`later 18h` -> `Later(64800.0)`: a number above 0 and one unit (s, m, h, d).
    Raises `ScriptError` for anything else."""
    word = rest.strip().lower()
    usage = "write `later DURATION`, a number and s, m, h or d, e.g. `later 18h`"
    unit = _UNITS.get(word[-1:])
    if unit is None:
        raise ScriptError(usage)
    try:
        amount = float(word[:-1])
    except ValueError:
        raise ScriptError(usage) from None
    if not amount > 0 or amount * unit > 366 * 86400:
        raise ScriptError(f"time moves on by more than 0 s and at most a year, not {rest!r}")
    return Later(amount * unit)


def _seconds(word: str) -> float | None:
    """`120s` -> 120.0; None for a word that is not a number of seconds."""
    if not word.lower().endswith("s"):
        return None
    try:
        return float(word[:-1])
    except ValueError:
        return None


def _unquote(text: str) -> str:
    try:
        parts = shlex.split(text)
    except ValueError:
        return text.strip()
    return " ".join(parts)


def _slash(text: str) -> Slash:
    try:
        tokens = shlex.split(text)
    except ValueError as error:
        raise ScriptError(f"cannot read {text[:40]!r}: {error} (close the quotes)") from None
    name = _typed_name(tokens[0].lstrip("/"))
    if not name:
        raise ScriptError("write the command name right after the slash, e.g. `/board`")
    named: list[tuple[str, str]] = []
    bare: list[str] = []
    for token in tokens[1:]:
        key, sep, value = token.partition(":")
        if sep and is_option_name(key):  # `move:` alone: named, its field empty
            named.append((_typed_name(key), value))
        else:
            bare.append(token)
    return Slash(name, tuple(named), tuple(bare))


def resolve_options(
    command: Slash, schema: Sequence[Mapping[str, Any]], locale: str | None = None
) -> dict[str, str]:
    """The options of `command` by name: named ones as given, bare values filling the
    options not named yet in schema order (required ones first, as Discord lists them),
    each value of an option with choices as `typed_choice` reads it (for a client in
    `locale`).

    A name that is not an option of its own is taken as a bare value (so `/move 22:18`
    still reaches the bot). A named option with nothing after the colon is left out, as
    an empty field is on Discord, except the one `suggest` asks about (the last typed).
    Raises `ScriptError` for a repeated option or extra values.
    """
    names = [str(option["name"]) for option in schema]
    given: dict[str, str] = {}
    bare = list(command.bare)
    for index, (key, value) in enumerate(command.named):
        if key not in names:
            bare.append(f"{key}:{value}")
            continue
        if not value and not (command.suggest and index == len(command.named) - 1
                              and not command.bare):
            continue
        if key in given:
            raise ScriptError(f"/{command.name}: option {key} is given twice")
        given[key] = value
    free = [name for name in names if name not in given]
    if len(bare) > len(free):
        listed = " ".join(f"{n}:..." for n in names) or "no options"
        raise ScriptError(
            f"/{command.name} takes {listed}; too many values: {' '.join(bare)}"
        )
    for name, value in zip(free, bare, strict=False):
        given[name] = value
    by_name = {str(option["name"]): option for option in schema}
    return {name: typed_choice(value, by_name[name].get("choices") or (), locale)
            for name, value in given.items()}


def _shown_names(item: Mapping[str, Any], locale: str | None) -> tuple[str, ...]:
    """The names a client in `locale` knows a command, option or choice by: the one it
    shows (its localization for `locale`) and the registered one."""
    localized = (item.get("name_localizations") or {}).get(locale) if locale else None
    return (str(item["name"]),) if not localized else (str(localized), str(item["name"]))


def canonical_command(
    command: Slash, commands: Sequence[Mapping[str, Any]], locale: str | None
) -> Slash:
    """`command` with its command, sub-command and option names as registered, typed as
    Discord shows them to a client in `locale` (their `name_localizations`) or as
    registered: `/meydan-oku rakip:bob` for a Turkish client is `/challenge opponent:bob`.
    A command with sub-commands takes their names as the next words typed
    (`/tournament create ...` is the command "tournament create"). Interactions always
    carry the registered names, whatever the client shows. Raises
    `ScriptError` for a command name none of `commands` has (naming the commands as the
    locale shows them, and the nearest one); other names it does not know are left as
    typed (the stand-in then says what is wrong), as is everything when no command is
    registered yet."""
    words = command.name.split()
    if not words:
        return command
    bare = list(command.bare)
    path: list[str] = []
    pool: Sequence[Mapping[str, Any]] = [c for c in commands if c.get("type", 1) == 1]
    options: Sequence[Mapping[str, Any]] = ()
    while words or (path and pool and bare):
        # The sub-command (and group) names are the words typed after the command's
        # (`/tournament create name:Cup`), as a client shows them: taken from the values.
        word = words.pop(0) if words else bare.pop(0)
        match = next((item for item in pool
                      if any(_same_name(word, n) for n in _shown_names(item, locale))),
                     None)
        if match is None and not path and pool:
            raise ScriptError(_unknown_command(word, pool, locale))
        if match is None:
            return command
        path.append(str(match["name"]))
        options = match.get("options") or ()
        pool = [o for o in options if o.get("type") in (1, 2)]
    named = []
    for key, value in command.named:
        option = next((o for o in options
                       if any(_same_name(key, n) for n in _shown_names(o, locale))),
                      None)
        named.append((str(option["name"]) if option is not None else key, value))
    return Slash(" ".join(path), tuple(named), tuple(bare), command.suggest)


def _same_name(typed: str, name: str) -> bool:
    """Whether `typed` is the command or option `name`, in any case (Turkish capitals
    too: `DİL` is `dil`, `SIRALAMA` is `sıralama`) and Unicode form."""
    return _name_folded(typed) == _name_folded(name)


def _name_folded(text: str) -> str:
    """`text` in one Unicode form and case, the Turkish i's as one letter: İ, I, i and ı
    all fold to i (Python's case folding makes `İ` an i with a combining dot, and `I`
    the i of every language but Turkish; no two command or option names differ only
    there)."""
    return _typed_name(text).casefold().replace("i\u0307", "i").replace("ı", "i")


def _unknown_command(word: str, pool: Sequence[Mapping[str, Any]], locale: str | None) -> str:
    """The refusal of `/word`: the commands as a client in `locale` lists them, the nearest
    first when one is near (`difflib`'s ratio of 0.6 or more)."""
    shown = sorted({_shown_names(item, locale)[0] for item in pool})
    near = difflib.get_close_matches(word, shown, n=1)
    hint = f"; did you mean /{near[0]}?" if near else ""
    return f"no slash command /{word}{hint} Commands: {', '.join('/' + n for n in shown)}"


def _folded(text: str) -> str:
    """`text` in any case and without accents, for matching what a player typed."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def typed_choice(
    text: str, choices: Sequence[Mapping[str, Any]], locale: str | None = None
) -> str:
    """The value of the choice `text` means, as a player types it: a choice's value or
    name (the name shown to a client in `locale` too), exactly or in any case (`Turkish`,
    `everyone`, `Dames turques`); for the variant choices (every value a variant key), any
    name `engine.get_variant` accepts (`dama`, `italian-draughts`); else a part of the
    names (in any case, accents aside) that only one choice has (`marocaine`, `maroc`: a
    Discord client lists the choices whose name holds what is typed, and a player picks
    the one left). Anything else is returned unchanged, for the stand-in to refuse with
    the list of choices. Without choices: `text` itself."""
    if not choices:
        return text
    values = [str(choice["value"]) for choice in choices]
    for choice in choices:
        if text in (str(choice["value"]), *_shown_names(choice, locale)):
            return str(choice["value"])
    folded = text.casefold()
    for choice in choices:
        names = (str(choice["value"]), *_shown_names(choice, locale))
        if folded in (name.casefold() for name in names):
            return str(choice["value"])
    from engine import VARIANTS, UnknownVariantError, get_variant

    if set(values) <= set(VARIANTS):
        with contextlib.suppress(UnknownVariantError):
            key = get_variant(text).key
            if key in values:
                return key
    part = _folded(text.strip())
    holding = {str(choice["value"]) for choice in choices
               if part and any(part in _folded(name) for name in _shown_names(choice, locale))}
    return holding.pop() if len(holding) == 1 else text
