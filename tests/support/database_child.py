"""A child process that opens a database and reports what happened, as one JSON line.

`python -m tests.support.database_child open PATH` opens `Storage.open(PATH)` and closes
it; `... fill PATH FILLER` opens it, then fills its disk by writing FILLER until the
operating system says the disk is full, and then creates a game. It prints
`{"ok": true}` or `{"error": class name, "cause": Cause value, "message": str(error),
"traceback": bool}`. With `--no-privileges` first, it drops every Linux capability before
doing anything (when running as root), so that file permissions apply to it as they do to
an ordinary user: root's CAP_DAC_OVERRIDE otherwise writes through any permission bits.
Used by `tests/support/restricted.py`.
"""

from __future__ import annotations

import asyncio
import ctypes
import json
import os
import sys
import traceback


def drop_capabilities() -> None:
    """Drop every capability of this thread (threads started later inherit the empty
    sets): capset(2) with version 3 and all-zero sets. Does nothing when not root."""
    if os.geteuid() != 0:
        return

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                    ("inheritable", ctypes.c_uint32)]

    libc = ctypes.CDLL(None, use_errno=True)
    header = Header(0x20080522, 0)
    data = (Data * 2)()
    if libc.capset(ctypes.byref(header), data) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))


def fill(path: str) -> None:
    """Write zeros to `path` until the disk is full (ENOSPC)."""
    chunk = bytes(4096)
    with open(path, "wb", buffering=0) as file:
        while True:
            try:
                file.write(chunk)
            except OSError:
                return


async def main(args: list[str]) -> dict[str, object]:
    from storage import NewGame, Seat, Storage, StorageError

    command, path = args[0], args[1]
    try:
        storage = await Storage.open(path)
        try:
            if command == "fill":
                fill(args[2])
                await storage.games.create(NewGame("italian", 1, 1, Seat.human(1),
                                                   Seat.human(2), "W:W21:B12"))
        finally:
            await storage.close()
    except StorageError as error:
        cause = getattr(error, "cause", None)
        return {"error": type(error).__name__, "cause": None if cause is None else cause.value,
                "message": str(error), "traceback": False}
    except Exception as error:
        return {"error": type(error).__name__, "cause": None, "message": str(error),
                "traceback": True, "detail": traceback.format_exc()}
    return {"ok": True}


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[0] == "--no-privileges":
        drop_capabilities()
        arguments = arguments[1:]
    print(json.dumps(asyncio.run(main(arguments))))
