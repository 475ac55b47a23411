"""Values a refusal (`bot.services.errors.PlayerError`) or a message carries that are
written in the reader's language only when shown (`bot.ui.present.param`): a list of
items (`Listing`) and an option's name (`OptionName`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.messages.formats import Conjunction


@dataclass(frozen=True)
class Listing:
    """Items shown as one list, joined as the reader's language joins a list
    (`bot.messages.join_list`); each item is shown as a parameter is (a `Msg` by its text
    in the reader's language). `conjunction`: all of them (and) or one of them (or)."""

    items: tuple[object, ...]
    conjunction: Conjunction = Conjunction.AND


@dataclass(frozen=True)
class OptionName:
    """A command option, by its key in `bot.messages.COMMAND_TEXT` (`challenge.move_time`,
    `name.sub.option` for a subcommand's): shown as the reader's client names it
    (`bot.messages.option_name`)."""

    key: str
