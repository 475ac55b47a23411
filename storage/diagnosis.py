"""Why a database could not be opened or written: SQLite's error codes and the operating
system's own answer, turned into a `Cause` with advice for the operator.

SQLite reports many different situations with the same few codes: a file without write
permission, a folder where the `-wal` file cannot be created and a read-only mount all
give `SQLITE_READONLY` (or `SQLITE_CANTOPEN`), and a full disk at start-up gives
`SQLITE_IOERR_SHMSIZE` as often as `SQLITE_FULL`. So after such an error the file system is
asked directly (`diagnose_filesystem`): is the mount read-only, is there space left, can
the file be opened for writing, can a file be created in its folder. Those probes change
nothing (a probe file is removed at once).

SQLite result codes: https://www.sqlite.org/rescode.html (primary code = low 8 bits).
"""

from __future__ import annotations

import errno
import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from storage.errors import Cause, DatabaseFileError, MigrationError, StorageWriteError

SQLITE_PERM = 3
SQLITE_BUSY = 5
SQLITE_LOCKED = 6
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26

MIN_FREE_BYTES = 64 * 1024
"""Less free space than this in the database's folder counts as a full disk: SQLite needs
a 32 KiB shared-memory index and whole pages (4 KiB) to write anything."""

_OS_CAUSES = {
    errno.ENOSPC: Cause.DISK_FULL,
    errno.EDQUOT: Cause.DISK_FULL,
    errno.EROFS: Cause.READ_ONLY_FILESYSTEM,
    errno.EACCES: Cause.NOT_WRITABLE,
    errno.EPERM: Cause.NOT_WRITABLE,
    errno.EIO: Cause.IO_ERROR,
}


def primary_code(error: BaseException) -> int | None:
    """SQLite's primary result code of `error` (None if it is not an SQLite error)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


@dataclass(frozen=True)
class Finding:
    """What the operating system said: the `cause` and where (`what`, a phrase such as
    "the file refuses writing (Permission denied)")."""

    cause: Cause
    what: str


def diagnose_filesystem(path: str) -> Finding | None:
    """What keeps dama-bot from writing the database at `path`, asked of the operating
    system: `READ_ONLY_FILESYSTEM`, `DISK_FULL` (under `MIN_FREE_BYTES` free, or the
    folder refuses a new file for lack of space), `NOT_WRITABLE` (the file, an existing
    `-wal`/`-shm` file or the folder refuses writing), `IO_ERROR`; None when every probe
    succeeds (or `path` is `:memory:`). Never raises; changes nothing."""
    if path == ":memory:" or not path:
        return None
    file = Path(path)
    folder = file.parent if str(file.parent) else Path(".")
    try:
        stats = os.statvfs(folder)
    except OSError as error:
        return _finding(error, f"its folder {str(folder)!r} cannot be examined")
    if stats.f_flag & os.ST_RDONLY:
        return Finding(Cause.READ_ONLY_FILESYSTEM, "its filesystem is mounted read-only")
    free_blocks = stats.f_bfree if os.geteuid() == 0 else stats.f_bavail
    free = free_blocks * stats.f_frsize
    if free < MIN_FREE_BYTES:
        return Finding(Cause.DISK_FULL, f"its disk has {free // 1024} KiB free")
    for existing, name in ((file, "the file"), (Path(f"{file}-wal"), "its -wal file"),
                           (Path(f"{file}-shm"), "its -shm file")):
        if not existing.is_file():
            continue
        try:
            os.close(os.open(existing, os.O_RDWR))
        except OSError as error:
            return _finding(error, f"{name} refuses writing")
    try:
        handle, probe = tempfile.mkstemp(prefix=".dama-write-probe-", dir=folder)
    except OSError as error:
        return _finding(error, "its folder refuses new files")
    os.close(handle)
    os.unlink(probe)
    return None


def _finding(error: OSError, what: str) -> Finding | None:
    cause = _OS_CAUSES.get(error.errno or 0)
    return None if cause is None else Finding(cause, f"{what} ({error.strerror})")


def write_failure(error: BaseException, path: str) -> StorageWriteError | None:
    """`error` as a `StorageWriteError` when it is SQLite refusing a write for a reason
    outside dama-bot (full, read-only, locked, input/output error), else None."""
    if isinstance(error, StorageWriteError):
        return error
    if not isinstance(error, sqlite3.Error):
        return None
    code = primary_code(error)
    if code == SQLITE_FULL:
        cause = Cause.DISK_FULL
    elif code in (SQLITE_BUSY, SQLITE_LOCKED):
        cause = Cause.LOCKED
    elif code in (SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR):
        found = diagnose_filesystem(path)
        if found is not None:
            return StorageWriteError(path, found.cause, f"{found.what}; {_describe(error)}")
        cause = Cause.IO_ERROR if code == SQLITE_IOERR else Cause.NOT_WRITABLE
    else:
        return None
    return StorageWriteError(path, cause, _describe(error))


def open_failure(error: BaseException, path: str) -> DatabaseFileError | MigrationError:
    """The one-line error for anything raised while opening or checking the database at
    `path`: a `DatabaseFileError` whose `cause` says why (a `MigrationError` for a shipped
    migration that is itself wrong). Errors already explained come back unchanged."""
    if isinstance(error, DatabaseFileError):
        return error
    if isinstance(error, StorageWriteError):
        return DatabaseFileError(path, f"a test write failed: {error.detail}", error.cause)
    if isinstance(error, MigrationError):
        cause_of = error.__cause__
        if cause_of is None or _environment_cause(cause_of, path) is None:
            return error
        error = cause_of
    environment = _environment_cause(error, path)
    if environment is not None:
        return DatabaseFileError(path, f"{environment.what} ({_describe(error)})",
                                 environment.cause)
    code = primary_code(error)
    if code == SQLITE_NOTADB:
        return DatabaseFileError(path, f"SQLite does not read it as a database "
                                       f"({_describe(error)})", Cause.DAMAGED)
    if isinstance(error, sqlite3.Error):
        return DatabaseFileError(path, f"it is damaged or unreadable ({_describe(error)})",
                                 Cause.DAMAGED)
    if isinstance(error, UnicodeDecodeError):
        return DatabaseFileError(path, "it is damaged: text stored in it is not valid "
                                       f"UTF-8 ({error.reason} at byte {error.start})",
                                 Cause.DAMAGED)
    if isinstance(error, OSError):
        cause = _OS_CAUSES.get(error.errno or 0, Cause.UNREADABLE)
        if cause is Cause.NOT_WRITABLE:
            cause = Cause.UNREADABLE
        return DatabaseFileError(path, f"it cannot be read ({_describe(error)})", cause)
    return DatabaseFileError(
        path, f"checking it failed ({type(error).__name__}: {_describe(error)})",
        Cause.DAMAGED,
    )


def _environment_cause(error: BaseException, path: str) -> Finding | None:
    """The cause outside the file's content (space, permissions, mount, lock, disk), if
    `error` is of the kind such a cause produces and one is found."""
    if isinstance(error, sqlite3.Error):
        code = primary_code(error)
        if code == SQLITE_FULL:
            return Finding(Cause.DISK_FULL, "its disk is full")
        if code in (SQLITE_BUSY, SQLITE_LOCKED):
            return Finding(Cause.LOCKED, "another connection holds its write lock")
        if code in (SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR):
            found = diagnose_filesystem(path)
            if found is None and code in (SQLITE_READONLY, SQLITE_PERM):
                found = Finding(Cause.NOT_WRITABLE, "it cannot be written")
            return found
        return None
    if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS):
        return Finding(_OS_CAUSES[error.errno], "the operating system refused a write")
    return None


def _describe(error: BaseException) -> str:
    name = getattr(error, "sqlite_errorname", None)
    text = str(error) or type(error).__name__
    return f"{text}, {name}" if isinstance(name, str) and name not in text else text
