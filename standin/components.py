"""Message components as Discord stores and answers them.

Discord gives every component without an `id` one, sequentially through the message
(depth first), never reusing an id the message already has (Discord developer docs,
Components > Using Message Components, Anatomy of a Component: "If id is not specified, an
id will be generated sequentially by the API"), and answers a select menu with its
`min_values` and `max_values` (both default 1: Components > Reference, String Select).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

Json = dict[str, Any]

SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
"""Component types of select menus: string, user, role, mentionable, channel."""

_CHILD_KEYS = ("components", "accessory")


def _walk(components: list[Any]) -> Iterator[Json]:
    for component in components:
        if not isinstance(component, dict):
            continue
        yield component
        for key in _CHILD_KEYS:
            child = component.get(key)
            if isinstance(child, list):
                yield from _walk(child)
            elif isinstance(child, dict):
                yield from _walk([child])


def stored_components(components: list[Any]) -> list[Any]:
    """A copy of a message's `components` (as a request gave them, already checked) with
    the ids and select defaults Discord fills in."""
    stored = copy.deepcopy(components)
    taken = {c["id"] for c in _walk(stored) if isinstance(c.get("id"), int)}
    next_id = 1
    for component in _walk(stored):
        if component.get("id") is None:
            while next_id in taken:
                next_id += 1
            component["id"] = next_id
            taken.add(next_id)
        if component.get("type") in SELECT_TYPES:
            component.setdefault("min_values", 1)
            component.setdefault("max_values", 1)
    return stored
