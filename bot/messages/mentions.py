"""Commands named as the reader's Discord client shows them.

The templates name commands as registered, in English: `/play`, `/settings language:`,
`/analyze game:{game_id}` (a command, optionally followed by one of its options and a
colon; `/name sub` for a subcommand, whose key in `COMMAND_TEXT` is `name.sub`); a
template of a language whose command names are translated may write an option by its
name in that language (`/settings lingua:`). Before a
template is filled in (`bot.messages.text`), `name_commands` rewrites each such reference
for the reader:

- in a language whose command names are translated (`Language.commands_translated`:
  Turkish, Italian, French), the command and option names the client in that language
  shows, from the commands catalog (`bot/locales/commands/<language>.po`): `/ayarlar
  dil:`, `/analizza partita:42`;
- otherwise (English; Arabic, which Discord has no locale for, so its readers' clients show
  the registered names) a command mention, `</settings:1234>` (`</name sub:1234>` for a
  subcommand, with its command's id), which every client shows as the name written in it
  and which opens the command when clicked (Discord's developer docs, Reference >
  Message Formatting), followed by the option's registered name. Without the command ids
  (`CommandIds`, learned from Discord at start-up by `bot.sync.learn_command_ids` and
  installed by the client; none in tests without a bot or before they are known) the
  plain `/name` stays.

Why not a mention for every language: a Discord client shows a command mention exactly as
its name is written, never in the reader's language, and a mention written with a
localized name does not open the command (docs/LANGUAGES.md, "Command names in texts",
gives Discord's own word on it). A Turkish reader would read `/play`,
which their command list shows as `/oyna`; the localized plain name is what they can find
and type.

Inside code spans (`` `...` ``) and URLs nothing is rewritten; a word after a slash that
is not a registered command stays as it is; the values filled into a template are never
touched (the rewriting is done on the template)."""

from __future__ import annotations

import functools
import gettext
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bot.messages.commands import COMMAND_TEXT

COMMAND_KEYS: frozenset[str] = frozenset(
    key for key in COMMAND_TEXT if not key.startswith("choice."))
"""The registered commands, subcommands and options by key: `name`, `name.sub`,
`name.option`, `name.sub.option` (the keys of `COMMAND_TEXT` but the choices)."""


@dataclass(frozen=True)
class CommandIds:
    """The ids Discord gave the registered top-level commands, by name (`play`,
    `server-settings`); a subcommand is mentioned with its command's id."""

    ids: tuple[tuple[str, int], ...] = ()

    @staticmethod
    def of(ids: Mapping[str, int]) -> CommandIds:
        """The value holding `ids` (command name -> id)."""
        return CommandIds(tuple(sorted(ids.items())))

    def id_of(self, name: str) -> int | None:
        """The id of the top-level command `name`; None when it is not known."""
        return self.by_name.get(name)

    @functools.cached_property
    def by_name(self) -> Mapping[str, int]:
        """The ids by command name."""
        return MappingProxyType(dict(self.ids))


NO_COMMAND_IDS = CommandIds()
"""No ids known: commands stay written as plain `/name`."""

_installed = [NO_COMMAND_IDS]


def install_command_ids(ids: CommandIds) -> None:
    """Make `ids` the command ids every text is written with from now on (the client, once
    it has learned them; `NO_COMMAND_IDS` when it closes)."""
    _installed[0] = ids


def installed_command_ids() -> CommandIds:
    """The command ids installed by `install_command_ids` (`NO_COMMAND_IDS` before)."""
    return _installed[0]


_REFERENCE = re.compile(
    r"(?<![\w/:<.\-])/(?P<name>[a-z][a-z0-9_-]*)(?![\w-])"
    r"(?:(?P<sub> [a-z][a-z0-9_-]*)(?![\w:-]))?"
    r"(?:(?P<option> [^\W\d_][\w'-]*):)?"
)
"""A command reference: `/name`, then a subcommand (a word not followed by a colon) and
an option (a word followed by a colon), each optional and checked against `COMMAND_KEYS`.
A slash after a letter, a digit, a slash, a colon, `<` or a dot (a URL, a path, a
mention) starts none."""

_UNTOUCHED = re.compile(r"(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)|\b[a-z][a-z0-9+.-]*://\S+")
"""Code spans and URLs: nothing inside them is rewritten. A code span (and a code block)
opens with a run of backticks and closes at the next run of as many (CommonMark, "Code
spans", which Discord's markdown follows): ``` ``a ` b`` ``` is one span; a backtick that
no run of its length closes opens nothing."""


def references(template: str) -> list[re.Match[str]]:
    """The command references of `template` outside code spans and URLs: every `/word`
    (not only the registered ones), with the word after it as `sub` and an option name
    before a colon as `option` (either may be None), as `name_commands` reads them."""
    untouched = [m.span() for m in _UNTOUCHED.finditer(template)]
    return [m for m in _REFERENCE.finditer(template)
            if not any(start <= m.start() < end for start, end in untouched)]


def name_commands(
    template: str,
    ids: CommandIds,
    catalog: gettext.NullTranslations | None,
    keys: frozenset[str] = COMMAND_KEYS,
) -> str:
    """`template` with its command references written for the reader (see the module
    docstring). `catalog`: the commands catalog of the reader's language when its command
    names are translated, else None (registered names: mentions with `ids`). `keys`: the
    registered commands, subcommands and options (`COMMAND_KEYS`). A reference to a
    command that `keys` lacks stays as it is; so does a sub or option word that is not one
    of that command's (it is read as the sentence's next word). Cached: the templates
    and the installed ids are few."""
    return _named(template, ids, catalog, keys)


@functools.lru_cache(maxsize=4096)
def _named(
    template: str,
    ids: CommandIds,
    catalog: gettext.NullTranslations | None,
    keys: frozenset[str],
) -> str:
    out: list[str] = []
    last = 0
    for match in references(template):
        name = match["name"]
        if name not in keys:
            continue
        path = [name]
        sub = (match["sub"] or "").strip()
        if sub and f"{name}.{sub}" in keys:
            path.append(sub)
            end = match.end("sub")
        else:
            end = match.end("name")
        found = option_key(path, (match["option"] or "").strip(), catalog, keys)
        option = ""
        if found is not None and (not sub or len(path) == 2):
            option = found.rpartition(".")[2]  # its registered name
            end = match.end("option") + 1
        out.append(template[last:match.start()])
        out.append(_written(path, option, ids, catalog))
        last = end
    out.append(template[last:])
    return "".join(out)


def option_key(
    path: list[str],
    option: str,
    catalog: gettext.NullTranslations | None,
    keys: frozenset[str] = COMMAND_KEYS,
) -> str | None:
    """The key (`settings.language`) of the option `option` of the command `path`
    (["settings"]) as a template writes it: by its registered name, or by its name in
    `catalog` (the commands catalog of the template's language, when its command names
    are translated: `lingua`, `langue`); None when it is neither."""
    if not option:
        return None
    key = ".".join([*path, option])
    if key in keys:
        return key
    if catalog is None:
        return None
    prefix = ".".join(path) + "."
    return next((k for k in sorted(keys) if k.startswith(prefix) and "." not in
                 k.removeprefix(prefix) and catalog.pgettext(f"name:{k}", k.rpartition(".")[2])
                 == option), None)


def _written(path: list[str], option: str, ids: CommandIds,
             catalog: gettext.NullTranslations | None) -> str:
    """One reference as the reader's client shows it: `/name sub option:` localized, or
    the mention and the registered option name."""
    if catalog is not None:
        keys = [".".join(path[:depth]) for depth in range(1, len(path) + 1)]
        if option:
            keys.append(".".join([*path, option]))
        words = [catalog.pgettext(f"name:{key}", key.rpartition(".")[2]) for key in keys]
        head = "/" + " ".join(words[:len(path)])
        return f"{head} {words[-1]}:" if option else head
    ident = ids.id_of(path[0])
    head = "/" + " ".join(path) if ident is None else f"</{' '.join(path)}:{ident}>"
    return f"{head} {option}:" if option else head
