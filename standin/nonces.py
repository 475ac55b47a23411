"""Message nonces and `enforce_nonce`, as Discord documents them for Create Message
(https://discord.com/developers/docs/resources/message#create-message, JSON params):

- `nonce` (integer or string, up to 25 characters: `validation.check_nonce`) "can be used
  to verify a message was sent"; its value appears in the message and its MESSAGE_CREATE
  event.
- `enforce_nonce`: "If true and nonce is present, it will be checked for uniqueness in
  the past few minutes. If another message was created by the same author with the same
  nonce, that message will be returned and no new message will be created."
- discord.py (`Messageable.send`, which sends a random nonce with `enforce_nonce` on every
  message) documents the remaining case: a nonce of a message "explicitly deleted
  shortly earlier" gives 404 (Unknown Message).

"A few minutes" is not given exactly; the stand-in keeps nonces for `DEFAULT_WINDOW`
seconds (configurable), and compares them as text (`5` and `"5"` are the same nonce).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .model import Message

DEFAULT_WINDOW = 120.0
"""Seconds a nonce is remembered: two minutes, the short end of "a few minutes"."""


class NonceRegistry:
    """The nonces of messages created with `enforce_nonce`, per author, for `window`
    seconds of `clock` (monotonic seconds)."""

    def __init__(self, window: float = DEFAULT_WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if window < 0:
            raise ValueError(f"the nonce window must be 0 seconds or more, not {window}")
        self.window = window
        self.clock = clock
        self._seen: dict[tuple[int, str], tuple[float, Message]] = {}

    def earlier(self, author_id: int, nonce: int | str) -> Message | None:
        """The message `author_id` created with `nonce` within the window (deleted ones
        included: the caller answers 404 for those), else None."""
        self._forget_old()
        entry = self._seen.get((author_id, str(nonce)))
        return None if entry is None else entry[1]

    def remember(self, author_id: int, nonce: int | str, msg: Message) -> None:
        """Record that `author_id` created `msg` with `nonce` now."""
        self._seen[(author_id, str(nonce))] = (self.clock(), msg)

    def _forget_old(self) -> None:
        oldest = self.clock() - self.window
        for key in [key for key, (at, _) in self._seen.items() if at < oldest]:
            del self._seen[key]
