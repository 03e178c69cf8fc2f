"""Opening the DuckDB file and keeping its schema current.

DuckDB lets one process at a time open a file for writing. Dagster's pool serialises the
pipeline's writers; the bounded retry here is the second line, for a `prhub sql` or another
tool that holds the file for a moment.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from importlib import resources
from pathlib import Path

import duckdb

LOCK_MESSAGE = re.compile(r"Could not set lock|Conflicting lock", re.IGNORECASE)


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


def schema_version(con: duckdb.DuckDBPyConnection) -> int:
    exists = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_migrations'"
    ).fetchone()
    if not exists or not exists[0]:
        return 0
    row = con.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
    return int(row[0]) if row else 0


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


# A connection for a user's own queries reaches nothing but the warehouse: no files (COPY ...
# TO, read_text, ATTACH), no extensions, no network, and no setting that would lift that.
SANDBOX: dict[str, str | bool | int | float | list[str]] = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
}


def _open(
    path: Path, read_only: bool, lock_timeout: float, sandboxed: bool
) -> duckdb.DuckDBPyConnection:
    deadline = time.monotonic() + lock_timeout
    delay = 0.05
    while True:
        try:
            return duckdb.connect(
                str(path), read_only=read_only, config=SANDBOX if sandboxed else {}
            )
        except duckdb.IOException as exc:
            if not LOCK_MESSAGE.search(str(exc)):
                raise WarehouseError(f"cannot open warehouse {path}: {exc}") from exc
            if time.monotonic() >= deadline:
                raise WarehouseLockedError(
                    f"warehouse {path} stayed locked by another process for {lock_timeout:.0f}s;"
                    " run writers one at a time (the Dagster pool 'prhub_warehouse' does this)"
                ) from exc
            time.sleep(delay * (1 + random.random()))
            delay = min(delay * 2, 2.0)


@contextmanager
def connect(
    path: Path, *, read_only: bool = False, lock_timeout: float = 120.0, sandboxed: bool = False
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short-lived connection: writers migrate first; readers need an existing file.
    `sandboxed` (read-only only) reaches nothing outside the warehouse (see SANDBOX)."""
    if sandboxed and not read_only:
        raise ValueError("a sandboxed connection is read-only")
    if read_only and not path.exists():
        raise WarehouseError(f"warehouse {path} does not exist yet: materialize a week first")
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    con = _open(path, read_only, lock_timeout, sandboxed)
    try:
        con.execute("SET TimeZone = 'UTC'")
        if sandboxed:
            con.execute("SET lock_configuration = true")
        if not read_only:
            migrate(con)
        yield con
    finally:
        con.close()
