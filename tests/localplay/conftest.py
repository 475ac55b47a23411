"""Fixtures: `local`, a started stand-in with the real bot process logged in to it."""

from tests.support.local_discord import local

__all__ = ["local"]
