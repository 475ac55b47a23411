"""Option payloads the stand-in builds from typed values (`standin/options.py`): the
refusals say what Discord would accept."""

from __future__ import annotations

from typing import Any

import pytest

from standin.errors import StandInError
from standin.options import INTEGER, Resolvers, build_options


def _unused(value: Any, resolved: Any) -> int:
    raise AssertionError("no user, channel, role or file option here")


RESOLVERS = Resolvers(_unused, _unused, _unused, _unused)


def _integer(**bounds: int) -> list[dict[str, Any]]:
    return [{"type": INTEGER, "name": "game", "description": "a game", **bounds}]


def test_an_integer_below_a_lower_bound_only_names_that_bound() -> None:
    """An option with a minimum and no maximum (like `/export game`, at least 1): the
    refusal says "at least 1", not "between 1 and None"."""
    with pytest.raises(StandInError) as refused:
        build_options("/export", _integer(min_value=1), {"game": -5}, RESOLVERS)
    assert str(refused.value) == "/export option 'game' must be at least 1, not -5"


def test_an_integer_above_an_upper_bound_only_names_that_bound() -> None:
    with pytest.raises(StandInError) as refused:
        build_options("/x", _integer(max_value=9), {"game": 10}, RESOLVERS)
    assert str(refused.value) == "/x option 'game' must be at most 9, not 10"


def test_an_integer_outside_both_bounds_names_the_range() -> None:
    with pytest.raises(StandInError, match=r"must be between 1 and 9, not 10$"):
        build_options("/x", _integer(min_value=1, max_value=9), {"game": 10}, RESOLVERS)
    assert build_options("/x", _integer(min_value=1, max_value=9), {"game": "9"}, RESOLVERS) == [
        {"type": INTEGER, "name": "game", "value": 9}
    ]
