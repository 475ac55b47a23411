"""Checks Discord applies to what a bot sends, so a payload Discord would refuse fails here too.

Limits from Discord's developer docs: Resources > Message (Create Message: content 2000
characters, 10 embeds), Resources > Message > Embed Limits (title 256, description 4096,
25 fields, field name 256 and value 1024, footer 2048, author 256, 6000 in all),
Components > Reference (5 action rows of 5 buttons, custom_id 100, label 80),
Interactions > Application Commands (names 1-32 lowercase, descriptions 1-100, 25 options,
25 choices, required options first; Localization: `name_localizations` and
`description_localizations` keyed by a Discord locale, localized names under the same
rules as names and unique in their locale) and Receiving and Responding (modal title 45).
The sizes of select menus, choices and commands, and the 100 commands: `limits.py`.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import ApiError, JsonErrorCode, field_error, form_error, merge_errors
from .limits import check_choices as check_option_choices
from .limits import check_command_count, check_command_size, check_select

Errors = dict[str, Any]

MAX_CONTENT = 2000
MAX_NONCE_LENGTH = 25
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_CHOICES = 25
MAX_OPTIONS = 25
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
    "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru",
    "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
})
"""Discord's locales (Reference > Locales): there is no Arabic one."""

COMPONENT_ACTION_ROW = 1
COMPONENT_BUTTON = 2
COMPONENT_SELECT_TYPES = (3, 5, 6, 7, 8)
COMPONENT_TEXT_INPUT = 4
COMPONENT_LABEL = 18
BUTTON_STYLE_LINK = 5
BUTTON_STYLE_PREMIUM = 6

OPTION_SUB_COMMAND = 1
OPTION_SUB_COMMAND_GROUP = 2
OPTION_STRING = 3
OPTION_INTEGER = 4
OPTION_BOOLEAN = 5
OPTION_NUMBER = 10

_EMBED_LIMITS = {"title": 256, "description": 4096}


def _max_length(path: tuple[str | int, ...], limit: int) -> Errors:
    return field_error(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _bad_type(path: tuple[str | int, ...], wanted: str) -> Errors:
    return field_error(path, "BASE_TYPE_BAD_TYPE", f"Must be {wanted}.")


def raise_if(errors: Errors) -> None:
    """Raise 400 Invalid Form Body when `errors` holds any problem."""
    if errors:
        raise form_error(errors)


def check_embeds(embeds: Any) -> Errors:
    """Problems of an `embeds` array (None is allowed and means no change/none)."""
    errors: Errors = {}
    if embeds is None:
        return errors
    if not isinstance(embeds, list):
        return _bad_type(("embeds",), "an array")
    if len(embeds) > MAX_EMBEDS:
        merge_errors(errors, _max_length(("embeds",), MAX_EMBEDS))
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            merge_errors(errors, _bad_type(("embeds", i), "an object"))
            continue
        for key, limit in _EMBED_LIMITS.items():
            text = embed.get(key)
            if text is not None:
                total += len(str(text))
                if len(str(text)) > limit:
                    merge_errors(errors, _max_length(("embeds", i, key), limit))
        fields = embed.get("fields") or []
        if len(fields) > 25:
            merge_errors(errors, _max_length(("embeds", i, "fields"), 25))
        for j, fld in enumerate(fields):
            name, value = str(fld.get("name", "")), str(fld.get("value", ""))
            total += len(name) + len(value)
            if not name or not value:
                merge_errors(
                    errors,
                    field_error(
                        ("embeds", i, "fields", j), "BASE_TYPE_REQUIRED", "This field is required"
                    ),
                )
            if len(name) > 256:
                merge_errors(errors, _max_length(("embeds", i, "fields", j, "name"), 256))
            if len(value) > 1024:
                merge_errors(errors, _max_length(("embeds", i, "fields", j, "value"), 1024))
        footer = (embed.get("footer") or {}).get("text")
        if footer is not None:
            total += len(footer)
            if len(footer) > 2048:
                merge_errors(errors, _max_length(("embeds", i, "footer", "text"), 2048))
        author = (embed.get("author") or {}).get("name")
        if author is not None:
            total += len(author)
            if len(author) > 256:
                merge_errors(errors, _max_length(("embeds", i, "author", "name"), 256))
    if total > MAX_EMBED_TOTAL:
        merge_errors(
            errors,
            field_error(
                ("embeds",),
                "MESSAGE_EMBED_TOO_LARGE",
                f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
            ),
        )
    return errors


def _check_button(path: tuple[str | int, ...], button: dict[str, Any], ids: set[str]) -> Errors:
    errors: Errors = {}
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        merge_errors(
            errors,
            field_error(
                (*path, "style"),
                "BASE_TYPE_CHOICES",
                f"Value must be one of (1, 2, 3, 4, 5, 6), not {style!r}.",
            ),
        )
    label = button.get("label")
    if label is not None and len(str(label)) > MAX_LABEL:
        merge_errors(errors, _max_length((*path, "label"), MAX_LABEL))
    if style == BUTTON_STYLE_LINK:
        if not button.get("url"):
            merge_errors(
                errors,
                field_error((*path, "url"), "BUTTON_COMPONENT_URL_REQUIRED", "A url is required"),
            )
        if button.get("custom_id") is not None:
            merge_errors(
                errors,
                field_error(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_LINK_NO_CUSTOM_ID",
                    "A custom id cannot be specified",
                ),
            )
    elif style != BUTTON_STYLE_PREMIUM:
        errors_id = _check_custom_id(path, button.get("custom_id"), ids)
        merge_errors(errors, errors_id)
        if not label and not button.get("emoji"):
            merge_errors(
                errors,
                field_error(path, "BUTTON_COMPONENT_INVALID", "A label or emoji is required"),
            )
    return errors


def _check_custom_id(path: tuple[str | int, ...], custom_id: Any, ids: set[str]) -> Errors:
    if not isinstance(custom_id, str) or not custom_id:
        return field_error((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    if len(custom_id) > MAX_CUSTOM_ID:
        return _max_length((*path, "custom_id"), MAX_CUSTOM_ID)
    if custom_id in ids:
        return field_error(
            (*path, "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    ids.add(custom_id)
    return {}


def check_components(components: Any, *, components_v2: bool) -> Errors:
    """Problems of a message's `components` (action rows, or any layout with components v2)."""
    errors: Errors = {}
    if components is None:
        return errors
    if not isinstance(components, list):
        return _bad_type(("components",), "an array")
    ids: set[str] = set()
    if not components_v2 and len(components) > MAX_ROWS:
        merge_errors(errors, _max_length(("components",), MAX_ROWS))
    for i, comp in enumerate(components):
        path: tuple[str | int, ...] = ("components", i)
        if not isinstance(comp, dict):
            merge_errors(errors, _bad_type(path, "an object"))
            continue
        if not components_v2 and comp.get("type") != COMPONENT_ACTION_ROW:
            merge_errors(
                errors,
                field_error(
                    (*path, "type"),
                    "UNION_TYPE_CHOICES",
                    'Value of field "type" must be one of (1,).',
                ),
            )
            continue
        merge_errors(errors, _check_tree(path, comp, ids))
    return errors


def _check_tree(path: tuple[str | int, ...], comp: dict[str, Any], ids: set[str]) -> Errors:
    errors: Errors = {}
    kind = comp.get("type")
    if kind == COMPONENT_BUTTON:
        return _check_button(path, comp, ids)
    if kind in COMPONENT_SELECT_TYPES:
        merge_errors(errors, _check_custom_id(path, comp.get("custom_id"), ids))
        merge_errors(errors, check_select(path, comp))
        return errors
    children = comp.get("components")
    if kind == COMPONENT_ACTION_ROW:
        if not isinstance(children, list) or not children:
            return field_error(
                (*path, "components"), "BASE_TYPE_REQUIRED", "This field is required"
            )
        buttons = [c for c in children if isinstance(c, dict) and c.get("type") == 2]
        if len(buttons) > MAX_ROW_BUTTONS or (len(children) > 1 and len(buttons) != len(children)):
            merge_errors(errors, _max_length((*path, "components"), MAX_ROW_BUTTONS))
    for key in ("components", "items"):
        for j, child in enumerate(comp.get(key) or []):
            if isinstance(child, dict):
                merge_errors(errors, _check_tree((*path, key, j), child, ids))
    accessory = comp.get("accessory")
    if isinstance(accessory, dict):
        merge_errors(errors, _check_tree((*path, "accessory"), accessory, ids))
    return errors


def check_content(content: Any) -> Errors:
    """Problems of `content` (None allowed)."""
    if content is None:
        return {}
    if not isinstance(content, str):
        return _bad_type(("content",), "a string")
    if len(content) > MAX_CONTENT:
        return _max_length(("content",), MAX_CONTENT)
    return {}


def check_nonce(nonce: Any, enforce: Any) -> Errors:
    """Problems of `nonce` (an integer or a string of up to 25 characters; None allowed)
    and `enforce_nonce` (a boolean; None allowed)."""
    errors: Errors = {}
    if nonce is not None:
        if isinstance(nonce, bool) or not isinstance(nonce, int | str):
            merge_errors(errors, _bad_type(("nonce",), "an integer or a string"))
        elif isinstance(nonce, str) and len(nonce) > MAX_NONCE_LENGTH:
            merge_errors(errors, _max_length(("nonce",), MAX_NONCE_LENGTH))
    if enforce is not None and not isinstance(enforce, bool):
        merge_errors(errors, _bad_type(("enforce_nonce",), "a boolean"))
    return errors


def check_flags(flags: Any, allowed: int) -> Errors:
    """Problems of `flags`: only bits in `allowed` may be set."""
    if flags is None:
        return {}
    if not isinstance(flags, int) or isinstance(flags, bool):
        return _bad_type(("flags",), "an integer")
    if flags & ~allowed:
        return field_error(
            ("flags",), "MESSAGE_FLAGS_INVALID", f"Flags {flags & ~allowed} may not be set here"
        )
    return {}


def empty_message() -> ApiError:
    """50006 Cannot send an empty message."""
    return ApiError(400, JsonErrorCode.CANNOT_SEND_EMPTY_MESSAGE, "Cannot send an empty message")


def check_choices(choices: Any) -> Errors:
    """Problems of an autocomplete answer's `choices` (max 25, names 1-100 characters)."""
    if not isinstance(choices, list):
        return _bad_type(("data", "choices"), "an array")
    errors: Errors = {}
    if len(choices) > MAX_CHOICES:
        merge_errors(errors, _max_length(("data", "choices"), MAX_CHOICES))
    for i, choice in enumerate(choices):
        path: tuple[str | int, ...] = ("data", "choices", i)
        if not isinstance(choice, dict):
            merge_errors(errors, _bad_type(path, "an object"))
            continue
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            merge_errors(
                errors,
                field_error(
                    (*path, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
                ),
            )
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            merge_errors(errors, _max_length((*path, "value"), 100))
        elif not isinstance(value, (str, int, float)) or isinstance(value, bool):
            merge_errors(errors, _bad_type((*path, "value"), "a string or number"))
    return errors


def check_modal(data: Any) -> Errors:
    """Problems of a modal (custom_id 100, title 45, 1 to 5 components)."""
    if not isinstance(data, dict):
        return _bad_type(("data",), "an object")
    errors: Errors = {}
    merge_errors(errors, _check_custom_id(("data",), data.get("custom_id"), set()))
    title = data.get("title")
    if not isinstance(title, str) or not 1 <= len(title) <= 45:
        merge_errors(
            errors,
            field_error(
                ("data", "title"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length."
            ),
        )
    comps = data.get("components")
    if not isinstance(comps, list) or not 1 <= len(comps) <= 5:
        merge_errors(
            errors,
            field_error(
                ("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            ),
        )
    return errors


def _check_localizations(
    path: tuple[str | int, ...], key: str, localizations: Any, *, name: bool, lower: bool = True
) -> Errors:
    """Problems of a `name_localizations` (`name`) or `description_localizations` map."""
    if localizations is None:
        return {}
    if not isinstance(localizations, dict):
        return _bad_type((*path, key), "an object")
    errors: Errors = {}
    for locale, value in localizations.items():
        where = (*path, key, str(locale))
        if locale not in LOCALES:
            merge_errors(errors, field_error(
                where, "BASE_TYPE_CHOICES",
                f"Value must be one of {sorted(LOCALES)}, not {locale!r}."))
        elif name and (not isinstance(value, str) or not COMMAND_NAME.match(value)
                       or (lower and value != value.lower())):
            merge_errors(errors, field_error(
                where, "APPLICATION_COMMAND_INVALID_NAME", f"Name is invalid: {value!r}"))
        elif not name and (not isinstance(value, str) or not 1 <= len(value) <= 100):
            merge_errors(errors, field_error(
                where, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
    return errors


def _localized_names(item: dict[str, Any]) -> dict[str, str]:
    """Each locale's name of a command or option: its localization, else its name."""
    names = item.get("name_localizations")
    return {str(k): str(v) for k, v in names.items()} if isinstance(names, dict) else {}


def _check_unique_localized(
    items: list[Any], path: tuple[str | int, ...], code: str
) -> Errors:
    """Two items (commands of one type, or options of one command) with the same name in
    one locale (its localization, or the default name where it has none)."""
    errors: Errors = {}
    for locale in LOCALES:
        seen: set[tuple[Any, str]] = set()
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            shown = (item.get("type", 1) if code.startswith("APPLICATION_COMMANDS") else 0,
                     _localized_names(item).get(locale, str(item.get("name"))))
            if shown in seen:
                merge_errors(errors, field_error(
                    (*path, i, "name_localizations", locale), code,
                    f"Names must be unique in each locale ({shown[1]!r} in {locale})"))
            seen.add(shown)
    return errors


def check_commands(commands: Any) -> Errors:
    """Problems of a bulk-overwrite list of application commands."""
    if not isinstance(commands, list):
        return _bad_type((), "an array")
    errors: Errors = {}
    seen: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            merge_errors(errors, _bad_type((i,), "an object"))
            continue
        kind = cmd.get("type", 1)
        name = cmd.get("name")
        key = (kind, str(name))
        if key in seen:
            merge_errors(
                errors,
                field_error(
                    (i, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique ({name})",
                ),
            )
        seen.add(key)
        merge_errors(errors, check_command(cmd, (i,)))
    merge_errors(errors, check_command_count(commands))
    if not errors:
        merge_errors(errors, _check_unique_localized(
            commands, (), "APPLICATION_COMMANDS_DUPLICATE_NAME"))
    return errors


def check_command(cmd: dict[str, Any], path: tuple[str | int, ...] = ()) -> Errors:
    """Problems of one application command."""
    errors: Errors = {}
    kind = cmd.get("type", 1)
    if kind not in (1, 2, 3, 4) or isinstance(kind, bool):
        return field_error(
            (*path, "type"),
            "BASE_TYPE_CHOICES",
            f"Value must be one of (1, 2, 3, 4), not {kind!r}.",
        )
    name = cmd.get("name")
    if (
        not isinstance(name, str)
        or not COMMAND_NAME.match(name)
        or (kind == 1 and name != name.lower())
    ):
        merge_errors(
            errors,
            field_error(
                (*path, "name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name is invalid: {name!r}",
            ),
        )
    merge_errors(errors, _check_localizations(
        path, "name_localizations", cmd.get("name_localizations"), name=True, lower=kind == 1))
    if kind == 1:
        merge_errors(errors, _check_description(path, cmd.get("description")))
        merge_errors(errors, _check_localizations(
            path, "description_localizations", cmd.get("description_localizations"),
            name=False))
        merge_errors(errors, _check_options(path, cmd.get("options") or [], depth=0))
    merge_errors(errors, check_command_size(path, cmd))
    return errors


def _check_description(path: tuple[str | int, ...], description: Any) -> Errors:
    if not isinstance(description, str) or not 1 <= len(description) <= 100:
        return field_error(
            (*path, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )
    return {}


def _check_options(path: tuple[str | int, ...], options: list[Any], depth: int) -> Errors:
    """The errors of a command's (or sub-command's) `options` at `path`, `depth` levels of
    sub-commands down: their count, each option, and names unique in every locale."""
    errors: Errors = {}
    if len(options) > MAX_OPTIONS:
        merge_errors(errors, _max_length((*path, "options"), MAX_OPTIONS))
    names: set[str] = set()
    seen_optional = False
    for j, opt in enumerate(options):
        opath = (*path, "options", j)
        if not isinstance(opt, dict):
            merge_errors(errors, _bad_type(opath, "an object"))
            continue
        if opt.get("type") not in range(1, 12) or isinstance(opt.get("type"), bool):
            merge_errors(errors, _option_error(
                opath, "type", "BASE_TYPE_CHOICES", "Value must be an option type from 1 to 11."))
            continue
        merge_errors(errors, _check_option_name(opath, opt.get("name"), names))
        names.add(str(opt.get("name")))
        merge_errors(errors, _check_option_texts(opath, opt))
        if opt.get("type") in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP):
            merge_errors(errors, _check_sub_command(opath, opt, depth))
            continue
        if not opt.get("required"):
            seen_optional = True
        elif seen_optional:
            merge_errors(errors, _option_error(
                opath, "required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options"))
        merge_errors(errors, _check_option_choices(opath, opt))
    if not errors:
        merge_errors(errors, _check_unique_localized(
            options, (*path, "options"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"))
    return errors


def _option_error(opath: tuple[str | int, ...], key: str, code: str, message: str) -> Errors:
    """One error on the field `key` of the option at `opath`."""
    return field_error((*opath, key), code, message)


def _check_option_name(opath: tuple[str | int, ...], name: Any, names: set[str]) -> Errors:
    """An option name's errors: a valid lower-case command name, not among `names` (the
    option names before it)."""
    errors: Errors = {}
    if not isinstance(name, str) or not COMMAND_NAME.match(name) or name != name.lower():
        merge_errors(errors, _option_error(
            opath, "name", "APPLICATION_COMMAND_INVALID_NAME", f"Option name is invalid: {name!r}"))
    if name in names:
        merge_errors(errors, _option_error(
            opath, "name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
            "Option names must be unique"))
    return errors


def _check_option_texts(opath: tuple[str | int, ...], opt: dict[str, Any]) -> Errors:
    """An option's description and its name and description localizations."""
    errors: Errors = {}
    merge_errors(errors, _check_description(opath, opt.get("description")))
    merge_errors(errors, _check_localizations(
        opath, "name_localizations", opt.get("name_localizations"), name=True))
    merge_errors(errors, _check_localizations(
        opath, "description_localizations", opt.get("description_localizations"), name=False))
    return errors


def _check_sub_command(opath: tuple[str | int, ...], opt: dict[str, Any], depth: int) -> Errors:
    """A sub-command or group at `depth`: nested no deeper than Discord allows (a group at
    the top, a sub-command at most in a group), and its own options."""
    errors: Errors = {}
    if depth >= 2 or (opt.get("type") == OPTION_SUB_COMMAND_GROUP and depth >= 1):
        merge_errors(errors, _option_error(
            opath, "type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
            "Sub-commands nested too deeply"))
    merge_errors(errors, _check_options(opath, opt.get("options") or [], depth + 1))
    return errors


def _check_option_choices(opath: tuple[str | int, ...], opt: dict[str, Any]) -> Errors:
    """An option's choices: their name localizations, count and values, and no choices
    beside `autocomplete`."""
    errors: Errors = {}
    choices = opt.get("choices") or []
    for c, choice in enumerate(choices):
        if isinstance(choice, dict):
            merge_errors(errors, _check_localizations(
                (*opath, "choices", c), "name_localizations",
                choice.get("name_localizations"), name=False))
    if len(choices) > MAX_CHOICES:
        merge_errors(errors, _max_length((*opath, "choices"), MAX_CHOICES))
    merge_errors(errors, check_option_choices((*opath, "choices"), choices))
    if choices and opt.get("autocomplete"):
        merge_errors(errors, _option_error(
            opath, "autocomplete", "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE",
            "Autocomplete cannot be set with choices"))
    return errors
