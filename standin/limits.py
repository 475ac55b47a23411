"""Discord's documented size limits of select menus, command choices and commands, refused as
Discord refuses them: 400 Invalid Form Body (50035) with the `errors` tree naming the field.

Sources (Discord developer docs):
- Components > Reference, String Select: at most 25 `options`; `placeholder` at most 150
  characters; `min_values` 0 to 25, `max_values` 1 to 25. Select Option Structure:
  `label`, `value` and `description` at most 100 characters.
- Interactions > Application Commands, Application Command Option Choice Structure: a
  choice's `name` 1 to 100 characters, a string `value` at most 100 characters.
- Interactions > Application Commands, Registering a Command: "the combined sum of
  characters in name, description, and value properties" of a command, its options
  (sub-commands and groups included) and choices at most 8,000, where of a localized field
  only its longest localization (the default value included) counts; and at most 100
  CHAT_INPUT commands, global or per guild.
"""

from __future__ import annotations

from typing import Any

from .errors import ApiError, JsonErrorCode, field_error, merge_errors

Errors = dict[str, Any]
Path = tuple[str | int, ...]

MAX_SELECT_OPTIONS = 25
MAX_SELECT_OPTION_TEXT = 100
"""Characters of a select option's label, value and description."""
MAX_PLACEHOLDER = 150
MAX_SELECT_VALUES = 25
MAX_CHOICE_TEXT = 100
"""Characters of a command choice's name and of a string value."""
MAX_COMMAND_SIZE = 8000
MAX_CHAT_INPUT_COMMANDS = 100
"""CHAT_INPUT commands an application may have, globally or in one guild."""

CHAT_INPUT = 1
STRING_SELECT = 3


def _too_long(path: Path, limit: int) -> Errors:
    return field_error(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _text_over(path: Path, value: Any, limit: int) -> Errors:
    return _too_long(path, limit) if isinstance(value, str) and len(value) > limit else {}


def check_select(path: Path, select: dict[str, Any]) -> Errors:
    """Problems of a select menu's sizes at `path` (its custom id is checked elsewhere)."""
    errors: Errors = {}
    merge_errors(errors, _text_over((*path, "placeholder"), select.get("placeholder"),
                                    MAX_PLACEHOLDER))
    for key, low in (("min_values", 0), ("max_values", 1)):
        value = select.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not low <= value <= MAX_SELECT_VALUES):
            merge_errors(errors, field_error(
                (*path, key), "NUMBER_TYPE_MAX" if isinstance(value, int) else
                "NUMBER_TYPE_COERCE",
                f"int value should be between {low} and {MAX_SELECT_VALUES}."))
    if select.get("type") != STRING_SELECT:
        return errors
    options = select.get("options")
    if not isinstance(options, list) or not options:
        merge_errors(errors, field_error((*path, "options"), "BASE_TYPE_REQUIRED",
                                         "This field is required"))
        return errors
    if len(options) > MAX_SELECT_OPTIONS:
        merge_errors(errors, _too_long((*path, "options"), MAX_SELECT_OPTIONS))
    for i, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        for key in ("label", "value", "description"):
            merge_errors(errors, _text_over((*path, "options", i, key), option.get(key),
                                            MAX_SELECT_OPTION_TEXT))
    return errors


def check_choices(path: Path, choices: list[Any]) -> Errors:
    """Problems of a command option's `choices` at `path`: names 1 to 100 characters,
    string values at most 100."""
    errors: Errors = {}
    for i, choice in enumerate(choices):
        if not isinstance(choice, dict):
            continue
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_CHOICE_TEXT:
            merge_errors(errors, field_error(
                (*path, i, "name"), "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_CHOICE_TEXT} in length."))
        merge_errors(errors, _text_over((*path, i, "value"), choice.get("value"),
                                        MAX_CHOICE_TEXT))
    return errors


def _longest(item: dict[str, Any], key: str) -> int:
    """Characters of a field as the size limit counts it: its longest localization."""
    value = item.get(key)
    lengths = [len(str(value))] if value is not None else [0]
    localizations = item.get(f"{key}_localizations")
    if isinstance(localizations, dict):
        lengths += [len(str(text)) for text in localizations.values() if text is not None]
    return max(lengths)


def command_size(command: dict[str, Any]) -> int:
    """The characters of a command counted against the 8,000 limit: name, description and
    value of the command, its options at every depth and their choices."""
    size = _longest(command, "name") + _longest(command, "description")
    for option in command.get("options") or []:
        if isinstance(option, dict):
            size += command_size(option)
    for choice in command.get("choices") or []:
        if isinstance(choice, dict):
            size += _longest(choice, "name") + _longest(choice, "value")
    return size


def check_command_size(path: Path, command: dict[str, Any]) -> Errors:
    """The 8,000-character rule for one command at `path`."""
    size = command_size(command)
    if size <= MAX_COMMAND_SIZE:
        return {}
    return field_error(path, "APPLICATION_COMMAND_TOO_LARGE",
                       f"Command exceeds maximum size ({MAX_COMMAND_SIZE}); it has {size}")


def chat_input_count(commands: list[Any]) -> int:
    """The CHAT_INPUT commands among `commands` (a missing type is CHAT_INPUT)."""
    return sum(1 for c in commands
               if isinstance(c, dict) and c.get("type", CHAT_INPUT) == CHAT_INPUT)


def check_command_count(commands: list[Any]) -> Errors:
    """A bulk overwrite of more than 100 CHAT_INPUT commands (the list's own error)."""
    if chat_input_count(commands) > MAX_CHAT_INPUT_COMMANDS:
        return _too_long((), MAX_CHAT_INPUT_COMMANDS)
    return {}


def too_many_commands() -> ApiError:
    """Creating a command beyond the 100: 400 with code 30032 (Discord developer docs,
    Topics > Opcodes and Status Codes, JSON Error Codes: "Maximum number of application
    commands reached")."""
    return ApiError(400, JsonErrorCode.MAX_APPLICATION_COMMANDS,
                    f"Maximum number of application commands reached "
                    f"({MAX_CHAT_INPUT_COMMANDS})")
