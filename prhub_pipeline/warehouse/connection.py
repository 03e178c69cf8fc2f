"""Opening the DuckDB file and keeping its schema current.

DuckDB lets one process at a time open a file for writing. Dagster's pool serialises the
pipeline's writers; the bounded retry here is the second line, for a `prhub sql` or another
tool that holds the file for a moment.
"""

from __future__ import annotations

import random
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from functools import lru_cache
from importlib import resources
from pathlib import Path

import duckdb

LOCK_MESSAGE = re.compile(r"Could not set lock|Conflicting lock", re.IGNORECASE)
# DuckDB's words for who holds the lock: `... Conflicting lock is held in /usr/bin/python3
# (PID 4242) by user ann. See also https://...`.
LOCK_HOLDER = re.compile(r"Conflicting lock is held in (?P<holder>.+?)(?:\. See also\b.*)?$", re.S)
# What DuckDB says of a file cut short (a full disk, a copy interrupted) or overwritten in part,
# at the start of its message: an error quoting data ("duplicate key 'src/checksum.py'") is none.
DAMAGE_MESSAGE = re.compile(
    r"^(?:[A-Z][A-Za-z ]* Error: )?(?:Could not read enough bytes from file|Corrupt database file)"
)
# How long a writer waits for another writer (Dagster's pool makes this rare), how long a
# user's read-only query waits (a materialize may hold the file for minutes: better said
# soon), and when a wait is first told of.
WRITER_LOCK_SECONDS = 120.0
READER_LOCK_SECONDS = 10.0
WAIT_NOTICE_SECONDS = 2.0


class WarehouseError(Exception):
    """The warehouse could not be opened, migrated or written."""


class WarehouseLockedError(WarehouseError):
    """Another process held the DuckDB file for longer than the retry budget."""


@lru_cache(maxsize=64)
def read_sql(name: str) -> str:
    """A statement from the package's `warehouse/sql/` folder."""
    return resources.files("prhub_pipeline.warehouse").joinpath("sql", name).read_text("utf-8")


def _migration_files() -> list[tuple[int, str, str]]:
    folder = resources.files("prhub_pipeline.warehouse").joinpath("sql", "migrations")
    migrations = []
    for entry in folder.iterdir():
        match = re.fullmatch(r"(\d{3})_(\w+)\.sql", entry.name)
        if match:
            migrations.append((int(match.group(1)), match.group(2), entry.read_text("utf-8")))
    migrations.sort()
    versions = [version for version, _, _ in migrations]
    if len(set(versions)) != len(versions):
        raise WarehouseError(f"two migrations share a version number: {versions}")
    return migrations


def table_exists(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """Whether the warehouse has table `name`: a reader may come before any run migrated it."""
    [(count,)] = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name]
    ).fetchall()
    return bool(count)


def schema_version(con: duckdb.DuckDBPyConnection) -> int:
    # fetchall, not fetchone: a result left unfinished keeps DuckDB from running a relation
    # (`con.sql`, which `prhub sql` uses) on the connection connect() hands out.
    [(exists,)] = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_migrations'"
    ).fetchall()
    if not exists:
        return 0
    [(version,)] = con.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchall()
    return int(version)


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """BEGIN ... COMMIT, or ROLLBACK on any error, which is then raised as it was: a COMMIT
    that failed (a full disk) ends the transaction itself, and the ROLLBACK's own "no
    transaction is active" error would hide why."""
    con.execute("BEGIN TRANSACTION")
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        with suppress(duckdb.Error):
            con.execute("ROLLBACK")
        raise


def migrate(con: duckdb.DuckDBPyConnection) -> int:
    """Apply the migrations the file has not seen, each in its own transaction."""
    con.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        "version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL)"
    )
    current = schema_version(con)
    for version, name, script in _migration_files():
        if version <= current:
            continue
        try:
            with transaction(con):
                con.execute(script)
                con.execute("INSERT INTO schema_migrations VALUES (?, ?, now())", [version, name])
        except duckdb.Error as exc:
            raise WarehouseError(f"migration {version:03d}_{name}.sql failed: {exc}") from exc
        current = version
    return current


@lru_cache(maxsize=1)
def pipeline_tables() -> frozenset[str]:
    """The tables the migrations create, found by migrating an empty in-memory database: the
    pipeline's own, which no SQL model may replace or drop."""
    with duckdb.connect() as con:
        migrate(con)
        rows = con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    return frozenset(name for (name,) in rows)


# A connection for a user's own queries reaches nothing but the warehouse: no files (COPY ...
# TO, read_text, ATTACH), no extensions, no network, and no setting that would lift that.
SANDBOX: dict[str, str | bool | int | float | list[str]] = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
}


def _tell_stderr(message: str) -> None:
    print(f"prhub: {message}", file=sys.stderr, flush=True)


# Who hears of a lock wait when `connect` is given nobody: the command's stderr, unless a
# Dagster step set its own log (lock_waits_told_to); a step's stderr is only in its raw compute
# log, and the run's event log showed nothing for the two minutes a writer waits.
_LOCK_WAIT_LISTENER: ContextVar[Callable[[str], None]] = ContextVar(
    "lock_wait_listener", default=_tell_stderr
)


@contextmanager
def lock_waits_told_to(tell: Callable[[str], None]) -> Iterator[None]:
    """Within the block, every `connect` without its own `on_wait` tells `tell` of a wait."""
    token = _LOCK_WAIT_LISTENER.set(tell)
    try:
        yield
    finally:
        _LOCK_WAIT_LISTENER.reset(token)


def _lock_holder(exc: duckdb.Error) -> str:
    """Who holds the lock, as DuckDB names it (a program and its PID), else "another process"."""
    found = LOCK_HOLDER.search(str(exc))
    return found.group("holder").strip() if found else "another process"


def _raise_if_damaged(path: Path, exc: duckdb.Error) -> None:
    """Raise WarehouseError when `exc` is DuckDB finding the file damaged (DAMAGE_MESSAGE)."""
    if DAMAGE_MESSAGE.match(str(exc)):
        raise WarehouseError(
            f"warehouse {path} is damaged: {exc}; restore it from a copy, or move it away and"
            " materialize the weeks again"
        ) from exc


# Every DuckDB file carries this magic after its header's 8-byte checksum.
DUCKDB_MAGIC = b"DUCK"
SQLITE_MAGIC = b"SQLite format 3\x00"


def _refuse_other_formats(path: Path) -> None:
    """Raise WarehouseError when `path` holds a file that is not DuckDB's. DuckDB opens a
    SQLite file through its sqlite extension, which it downloads when missing: `database`
    pointing at a SQLite file tried to download it (here: "Failed to download extension
    sqlite_scanner", no word of SQLite), and with a network it would have opened the file and
    migrated the pipeline's tables into it."""
    try:
        with path.open("rb") as file:
            header = file.read(16)
    except OSError:
        return  # a folder, an unreadable file: DuckDB's own error names it
    if len(header) < 12 or header[8:12] == DUCKDB_MAGIC:
        return  # too short to tell: DuckDB refuses it
    kind = " (it is a SQLite database)" if header.startswith(SQLITE_MAGIC) else ""
    raise WarehouseError(
        f"cannot open warehouse {path}: it is not a valid DuckDB database file{kind}; point"
        " `database` at the warehouse, or at a new file to create one"
    )


# How long after its last write a file DuckDB finds no database in may be another process's
# warehouse being created, not a broken one.
CREATION_SECONDS = 5.0
_NOT_A_DATABASE = re.compile(r"not a valid DuckDB database file", re.IGNORECASE)


def _being_created(path: Path, exc: duckdb.IOException) -> bool:
    """Whether DuckDB refused `path` as no database while another process is creating it: two
    runs starting on a new warehouse at once, one read the header the other had not written
    yet ("exists, but it is not a valid DuckDB database file"), and its week failed. Such a
    file was written just now (its size says nothing: DuckDB may size it before writing the
    header); it is waited for like a lock."""
    if not _NOT_A_DATABASE.search(str(exc)):
        return False
    try:
        stat = path.stat()
    except OSError:
        return False
    return time.time() - stat.st_mtime < CREATION_SECONDS


def _open(
    path: Path,
    read_only: bool,
    lock_timeout: float,
    sandboxed: bool,
    on_wait: Callable[[str], None],
) -> duckdb.DuckDBPyConnection:
    _refuse_other_formats(path)
    started = time.monotonic()
    deadline = started + lock_timeout
    delay = 0.05
    told = False
    while True:
        try:
            return duckdb.connect(
                str(path), read_only=read_only, config=SANDBOX if sandboxed else {}
            )
        except duckdb.IOException as exc:
            if not LOCK_MESSAGE.search(str(exc)) and not _being_created(path, exc):
                _raise_if_damaged(path, exc)
                raise WarehouseError(f"cannot open warehouse {path}: {exc}") from exc
            now = time.monotonic()
            if now >= deadline:
                if read_only:
                    raise WarehouseLockedError(
                        f"warehouse {path} is being written by {_lock_holder(exc)} and could not"
                        f" be read for {lock_timeout:.0f}s; read it again once that run has"
                        f" finished ({exc})"
                    ) from exc
                raise WarehouseLockedError(
                    f"warehouse {path} stayed locked by another process for {lock_timeout:.0f}s;"
                    " run writers one at a time (the Dagster pool 'prhub_warehouse' does this)"
                    f" ({exc})"
                ) from exc
            if not told and now - started >= WAIT_NOTICE_SECONDS:
                on_wait(f"waiting for the lock on {path} held by {_lock_holder(exc)}")
                told = True
            time.sleep(min(delay * (1 + random.random()), max(deadline - now, 0.0)))
            delay = min(delay * 2, 2.0)
        except duckdb.Error as exc:
            # A header or catalog block that fails its checksum is no IOException.
            _raise_if_damaged(path, exc)
            raise WarehouseError(f"cannot open warehouse {path}: {exc}") from exc


def latest_migration() -> int:
    return max((version for version, _, _ in _migration_files()), default=0)


def _check_file(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Refuse a schema of a newer prhub, whose tables this code would misread or migrate
    wrongly. (A file cut short opens, and fails when a query reaches its missing blocks: that
    error is turned into "damaged" where it is raised. Its size says nothing sooner: a
    connection of this process shares DuckDB's instance, whose blocks may not be written yet.)"""
    version, latest = schema_version(con), latest_migration()
    if version > latest:
        raise WarehouseError(
            f"{path} has schema version {version}; this prhub knows up to {latest}: upgrade prhub"
        )


@contextmanager
def connect(
    path: Path,
    *,
    read_only: bool = False,
    lock_timeout: float | None = None,
    sandboxed: bool = False,
    on_wait: Callable[[str], None] | None = None,
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short-lived connection: writers migrate first; readers need an existing file.
    `sandboxed` (read-only only) reaches nothing outside the warehouse (see SANDBOX): a user's
    query, which waits READER_LOCK_SECONDS for a writer unless `lock_timeout` says otherwise
    (other connections WRITER_LOCK_SECONDS). A wait past WAIT_NOTICE_SECONDS is told to
    `on_wait` once (by default whoever lock_waits_told_to names, else stderr), naming who holds
    the lock. A file of a newer schema is a WarehouseError before
    anything is read or written; a damaged one (cut short, failing its checksum) when it is
    opened or when a query in the block reaches the damage."""
    if sandboxed and not read_only:
        raise ValueError("a sandboxed connection is read-only")
    if read_only and not path.exists():
        raise WarehouseError(f"warehouse {path} does not exist yet: materialize a week first")
    if lock_timeout is None:
        lock_timeout = READER_LOCK_SECONDS if sandboxed else WRITER_LOCK_SECONDS
    if not read_only:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            # Said bare, "FileExistsError: [Errno 17] File exists: 'prhub.yaml'" named neither
            # the warehouse nor `database`.
            raise WarehouseError(
                f"cannot create warehouse {path}: its folder {path.parent} cannot be made"
                f" ({exc.strerror}: {exc.filename}); check `database`"
            ) from None
    con = _open(path, read_only, lock_timeout, sandboxed, on_wait or _LOCK_WAIT_LISTENER.get())
    try:
        try:
            con.execute("SET TimeZone = 'UTC'")
            if sandboxed:
                con.execute("SET lock_configuration = true")
            _check_file(con, path)
            if not read_only:
                migrate(con)
        except duckdb.Error as exc:
            _raise_if_damaged(path, exc)
            raise
        try:
            yield con
        except duckdb.Error as exc:
            # Blocks past the ones checked above (a bit flipped in a table's data).
            _raise_if_damaged(path, exc)
            raise
    finally:
        con.close()
