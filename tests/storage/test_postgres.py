"""`storage.postgres`'s plain functions: which `DAMA_DATABASE` values are PostgreSQL, and
that a URL's password never reaches a message or the log; the pool's size. (The backend
itself is tested by the whole contract suite in this folder, run on a real server.)"""

from __future__ import annotations

import asyncio

import pytest

from storage import (
    MAX_POOL_SIZE,
    Cause,
    DatabaseFileError,
    StorageUnavailableError,
    StorageWriteError,
    database_secrets,
    is_postgresql,
    redact_url,
)
from storage.postgres import PostgresDatabase
from tests.support.postgres import PostgresServer


@pytest.mark.parametrize(("target", "expected"), [
    ("postgresql://dama:pw@db:5432/dama", True),
    ("postgres://dama@db/dama", True),
    ("  PostgreSQL://dama@/dama?host=/run/postgresql", True),
    ("data/dama.sqlite3", False),
    (":memory:", False),
    ("postgresql.sqlite3", False),
    ("/srv/postgresql/dama.sqlite3", False),
])
def test_a_url_means_postgresql_a_path_sqlite(target: str, expected: bool) -> None:
    assert is_postgresql(target) is expected


def test_the_password_is_hidden() -> None:
    assert redact_url("postgresql://dama:s3cr%40t@db.example:5433/dama?sslmode=require") == (
        "postgresql://dama:***@db.example:5433/dama?sslmode=require")
    assert redact_url("postgresql://dama@db/dama") == "postgresql://dama@db/dama"
    assert database_secrets("postgresql://dama:s3cr%40t@db/dama") == ["s3cr%40t", "s3cr@t"]
    assert database_secrets("postgresql://dama@db/dama") == []
    assert database_secrets("data/dama.sqlite3") == []


@pytest.mark.parametrize("url", [
    "postgresql://dama:s3cr/et@db:5432/dama",  # '/', '#', '?' not percent-encoded
    "postgresql://dama:s3cr#et@db/dama",
    "postgresql://dama:s3cr?et@db/dama",
    "postgresql://dama:s3cret@db:x/dama",  # a port that is not a number
])
async def test_a_malformed_url_is_a_one_line_error_without_the_password(url: str) -> None:
    assert "s3cr" not in redact_url(url)
    with pytest.raises(DatabaseFileError) as caught:
        await PostgresDatabase.open(url)
    assert "s3cr" not in str(caught.value) and "malformed" in str(caught.value)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


@pytest.mark.parametrize(("url", "secret"), [
    ("postgresql://dama:s3cr/et@db:5432/dama", "s3cr/et"),
    ("postgresql://dama:s3cr#et@db/dama", "s3cr#et"),
    ("postgresql://dama:s3cret@[db/dama", "s3cret"),  # urlsplit raises (bad IPv6 host)
])
def test_a_malformed_urls_password_is_still_a_secret(url: str, secret: str) -> None:
    # The log's redaction gets the password even when the URL does not parse.
    assert secret in database_secrets(url)
    assert secret not in redact_url(url)


async def test_the_pool_holds_as_many_transactions_at_once_as_its_size(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.new_database()
    db = await PostgresDatabase.open(url, pool_size=2)
    try:
        assert db.pool_size == 2
        release = asyncio.Event()
        inside: list[int] = []

        async def hold(n: int) -> None:
            async with db.transaction() as conn:
                inside.append(await conn.fetchval("SELECT $1::int", n))
                await release.wait()

        holders = [asyncio.create_task(hold(n)) for n in (1, 2, 3)]
        await asyncio.sleep(0.5)
        assert len(inside) == 2  # the third waits for a connection
        release.set()
        await asyncio.wait_for(asyncio.gather(*holders), timeout=10)
        assert sorted(inside) == [1, 2, 3]
    finally:
        await db.close()
        postgres_server.drop_database(url)


@pytest.mark.parametrize("size", [0, MAX_POOL_SIZE + 1])
async def test_a_pool_size_out_of_range_is_refused_before_connecting(size: int) -> None:
    with pytest.raises(ValueError, match="pool size"):
        await PostgresDatabase.open("postgresql://dama@/nowhere?host=/nonexistent",
                                    pool_size=size)



async def test_a_session_ended_by_the_server_is_a_write_error_whenever_it_happens(
    postgres_server: PostgresServer,
) -> None:
    # The server ends a transaction's session (pg_terminate_backend: what its fast
    # shutdown does to every session) at moments spread over the transaction's last
    # statement and its COMMIT. asyncpg then raises one of three errors depending on the
    # moment (the connection closed; closed in the middle of an operation; its protocol
    # unable to go on, "cannot switch to state"): each is a `StorageWriteError` with the
    # cause UNREACHABLE. Every transaction that returned is stored (one that failed during
    # its COMMIT may be too: the server may have committed it before ending the session).
    url = postgres_server.new_database()
    db = await PostgresDatabase.open(url, pool_size=2)
    insert = ("INSERT INTO guild_settings (guild_id, name, value, updated_at) "
              "VALUES (5, $1, 'x', 0)")
    committed: list[str] = []
    try:
        async with db.connection() as killer:
            for attempt in range(60):
                name = f"attempt-{attempt}"
                ended: asyncio.Future[object] | None = None
                try:
                    async with db.transaction() as conn:
                        await conn.execute(insert, name)
                        pid = int(await conn.fetchval("SELECT pg_backend_pid()"))
                        ended = asyncio.ensure_future(
                            killer.fetchval("SELECT pg_terminate_backend($1)", pid))
                        await asyncio.sleep(0.0005 * (attempt % 10))
                    committed.append(name)
                except StorageWriteError as error:
                    assert error.cause is Cause.UNREACHABLE, error
                finally:
                    if ended is not None:
                        await ended
        # The pool replaces the lost connections.
        async with db.read() as conn:
            stored = await conn.fetch("SELECT name FROM guild_settings WHERE guild_id = 5")
        assert set(committed) <= {row["name"] for row in stored}
        assert len(committed) < 60
    finally:
        await db.close()
        postgres_server.drop_database(url)


async def test_a_read_whose_session_the_server_ends_says_the_database_is_unavailable(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.new_database()
    db = await PostgresDatabase.open(url, pool_size=2)
    try:
        async with db.connection() as killer:
            with pytest.raises(StorageUnavailableError) as caught:
                async with db.read() as conn:
                    pid = int(await conn.fetchval("SELECT pg_backend_pid()"))
                    assert await killer.fetchval("SELECT pg_terminate_backend($1)", pid)
                    while await killer.fetchval(
                            "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid):
                        await asyncio.sleep(0.01)  # the session has ended
                    await conn.fetchval("SELECT count(*) FROM games")
        error = caught.value
        assert not isinstance(error, StorageWriteError)  # nothing was being written
        assert error.cause is Cause.UNREACHABLE
        assert error.explanation.startswith(f"cannot read the database {db.name!r}")
        async with db.read() as conn:  # the pool connects again
            assert await conn.fetchval("SELECT count(*) FROM games") == 0
    finally:
        await db.close()
        postgres_server.drop_database(url)
