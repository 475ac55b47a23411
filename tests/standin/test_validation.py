"""A command's options checked as Discord checks them when a bot registers commands
(Discord docs, Application Commands: Application Command Option Structure): the error code
each mistake gets, at the path of the field at fault."""

from __future__ import annotations

from typing import Any

from standin.validation import check_command


def _codes(errors: dict[str, Any]) -> set[tuple[str, str]]:
    """Every (dotted path, code) in a nested `errors` object."""
    found: set[tuple[str, str]] = set()

    def walk(node: dict[str, Any], path: tuple[str, ...]) -> None:
        for key, value in node.items():
            if key == "_errors":
                found.update((".".join(path), error["code"]) for error in value)
            else:
                walk(value, (*path, key))

    walk(errors, ())
    return found


def _command(*options: dict[str, Any]) -> dict[str, Any]:
    return {"name": "game", "description": "A game", "options": list(options)}


def _option(name: str, kind: int = 3, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": f"The {name}", "type": kind, **extra}


def test_well_formed_options_pass() -> None:
    command = _command(
        _option("move", required=True),
        _option("variant", choices=[{"name": "Turkish", "value": "turkish"}]),
        _option("player", autocomplete=True),
    )
    assert check_command(command) == {}


def test_an_option_type_out_of_range_is_rejected_alone() -> None:
    command = _command(_option("Bad Name", kind=12))
    assert _codes(check_command(command)) == {("options.0.type", "BASE_TYPE_CHOICES")}


def test_option_names_must_be_valid_lower_case_and_unique() -> None:
    command = _command(_option("Move"), _option("colour"), _option("colour"))
    assert _codes(check_command(command)) == {
        ("options.0.name", "APPLICATION_COMMAND_INVALID_NAME"),
        ("options.2.name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"),
    }


def test_a_required_option_after_an_optional_one_is_rejected() -> None:
    command = _command(_option("colour"), _option("move", required=True))
    assert _codes(check_command(command)) == {
        ("options.1.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"),
    }


def test_choices_and_autocomplete_do_not_go_together() -> None:
    choices = [{"name": "Turkish", "value": "turkish"}]
    command = _command(_option("variant", choices=choices, autocomplete=True))
    assert _codes(check_command(command)) == {
        ("options.0.autocomplete", "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE"),
    }


def test_sub_commands_nest_at_most_in_one_group() -> None:
    leaf = _option("start", kind=1)
    group = _option("match", kind=2, options=[leaf])
    assert check_command(_command(group)) == {}
    too_deep = _option("outer", kind=2, options=[group])
    assert _codes(check_command(_command(too_deep))) == {
        ("options.0.options.0.type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID"),
        ("options.0.options.0.options.0.type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID"),
    }


def test_a_sub_commands_own_options_are_checked() -> None:
    sub = _option("start", kind=1, options=[_option("colour"), _option("move", required=True)])
    assert _codes(check_command(_command(sub))) == {
        ("options.0.options.1.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"),
    }
