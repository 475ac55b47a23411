"""Fixtures: `local`, a started stand-in with the real bot process logged in to it; and
every stand-in of these tests checked against Discord's OpenAPI specification (a request
or answer that does not meet it fails the test: `tests/support/discord_spec.py`)."""

from collections.abc import Iterator

import pytest

from standin.openapi import OpenApiCheck
from tests.support.discord_spec import checked_by_spec
from tests.support.local_discord import local

__all__ = ["local"]


@pytest.fixture(autouse=True)
def discord_spec() -> Iterator[OpenApiCheck]:
    """Every stand-in made in the test checks its traffic against Discord's specification."""
    yield from checked_by_spec()
