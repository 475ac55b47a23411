"""A real PostgreSQL server for the tests, started from the machine's binaries.

One server per test session (`PostgresServer.start`): `initdb` in a temporary folder,
then `pg_ctl start` listening only on a unix socket in that folder (no TCP port). As
root (CI), both run as the unprivileged `postgres` account, which owns the folder:
PostgreSQL refuses to run as root. Durability settings are off (`fsync`,
`synchronous_commit`): the server's files live as long as the session. Each test gets
a fresh, empty database of its own: a new schema of the session's one database, named by
the URL's `search_path` (which asyncpg sends as a server setting), so everything the
migrations create lands in it. A schema costs about 30 ms where `CREATE DATABASE` costs
about 250 ms on this machine.

Binaries: `DAMA_POSTGRES_BIN` if set, else the newest `/usr/lib/postgresql/*/bin` with
`initdb`. Where there are none, `unavailable()` says how to enable the tests.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

REQUIRE_VAR = "DAMA_REQUIRE_POSTGRES"
BIN_VAR = "DAMA_POSTGRES_BIN"
ACCOUNT = "postgres"
DATABASE = "dama_tests"
HOW_TO_ENABLE = (
    "PostgreSQL tests need the server binaries (initdb, pg_ctl): install PostgreSQL "
    "(apt-get install postgresql) or point DAMA_POSTGRES_BIN at its bin folder; "
    f"{REQUIRE_VAR}=1 (CI) makes their absence a failure"
)


def find_binaries() -> Path | None:
    """The folder of `initdb`, `pg_ctl` and `psql`, or None."""
    given = os.environ.get(BIN_VAR, "").strip()
    if given:
        return Path(given) if (Path(given) / "initdb").exists() else None
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit()
        else 0,
    )
    return found[-1].parent if found else None


def required() -> bool:
    return os.environ.get(REQUIRE_VAR, "").strip() not in ("", "0")


@dataclass
class PostgresServer:
    """A running server: its binaries, its folder (data and socket)."""

    binaries: Path
    folder: Path
    _names: itertools.count[int]

    @classmethod
    def start(cls, binaries: Path) -> PostgresServer:
        """initdb + pg_ctl start (as `postgres` when we are root), then its one database.
        Raises `RuntimeError` with the server's log when it does not start."""
        # As root, in /tmp: the `postgres` account must reach the folder, and a TMPDIR
        # under root's home may be closed to it.
        root = os.geteuid() == 0
        folder = Path(tempfile.mkdtemp(prefix="dama-pg-", dir="/tmp" if root else None))
        server = cls(binaries, folder, itertools.count(1))
        if root:
            try:
                account = pwd.getpwnam(ACCOUNT)
            except KeyError:
                folder.rmdir()
                raise RuntimeError(
                    f"PostgreSQL refuses to run as root and there is no `{ACCOUNT}` account "
                    f"to run it as: create it (useradd --system {ACCOUNT}) or run the tests "
                    "as another user") from None
            os.chown(folder, account.pw_uid, account.pw_gid)
        try:
            server._as_owner(
                [str(binaries / "initdb"), "-D", str(folder / "data"), "-U", ACCOUNT,
                 "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
            options = (f"-k {folder} -c listen_addresses='' -c fsync=off "
                       "-c synchronous_commit=off -c full_page_writes=off "
                       "-c max_connections=300")
            server._as_owner(
                [str(binaries / "pg_ctl"), "-D", str(folder / "data"), "-l",
                 str(folder / "log"), "-o", options, "-w", "-t", "60", "start"])
            server.sql(f"CREATE DATABASE {DATABASE} TEMPLATE template0")
        except BaseException:
            log = folder / "log"
            detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            server.stop()
            if detail:
                raise RuntimeError(f"PostgreSQL did not start:\n{detail}") from None
            raise
        return server

    def _as_owner(self, command: list[str]) -> None:
        if os.geteuid() == 0:
            command = ["runuser", "-u", ACCOUNT, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")

    def url(self, database: str) -> str:
        """The URL of one of its databases (unix socket in the server's folder)."""
        return f"postgresql://{ACCOUNT}@/{database}?host={self.folder}"

    def sql(self, statement: str, database: str = "postgres") -> None:
        """Run one statement in `database` (psql)."""
        result = subprocess.run(
            [str(self.binaries / "psql"), "-h", str(self.folder), "-U", ACCOUNT, "-d",
             database, "-v", "ON_ERROR_STOP=1", "-q", "-c", statement],
            capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"psql {statement!r} failed: {result.stderr}")

    def new_database(self) -> str:
        """A fresh, empty database (a new schema; the bot creates its tables there at its
        first `Storage.open`); returns its URL."""
        schema = f"test_{next(self._names)}"
        self.sql(f"CREATE SCHEMA {schema}", DATABASE)
        return f"{self.url(DATABASE)}&search_path={schema}"

    def drop_database(self, url: str) -> None:
        """Remove a database `new_database` made, with everything in it."""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
        # A connection a failed test left inside a transaction would block the drop:
        # give up after a while (an error in the test's teardown), never hang.
        self.sql(f"SET lock_timeout = '20s'; DROP SCHEMA IF EXISTS "
                 f"{query['search_path'][0]} CASCADE", DATABASE)

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        if (self.folder / "data" / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError):
                self._as_owner([str(self.binaries / "pg_ctl"), "-D", str(self.folder / "data"),
                                "-m", "immediate", "-w", "stop"])
        shutil.rmtree(self.folder, ignore_errors=True)
