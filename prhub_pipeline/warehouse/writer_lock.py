"""The writer's lock: one run at a time decides which weeks of a warehouse to store and stores
them. DuckDB's own lock is held for a connection, seconds at a time, so two `prhub materialize`
started at once on the same weeks took turns at the file and both read and analysed every
week, the later replacing the earlier's rows. Held on a file beside the warehouse with
flock(2), which the system lets go of when its process ends, killed or not."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from prhub_pipeline.warehouse.connection import WAIT_NOTICE_SECONDS

POLL_SECONDS = 0.25
# Each lock file a thread of this process holds, with how many blocks hold it: `prhub
# materialize` holds the lock for a repository's whole run, and the Dagster steps it runs in
# its thread take it again (flock refuses a second descriptor, of this process too, which is
# what another thread waits on).
_HELD: dict[tuple[Path, int], int] = {}


def writer_lock_path(database: Path) -> Path:
    return database.with_name(f"{database.name}.writer.lock")


def _holder(path: Path) -> str:
    try:
        said = path.read_text("utf-8").strip()
    except OSError:
        said = ""
    return said or "another prhub run"


@contextmanager
def writer_lock(database: Path, holder: str, on_wait: Callable[[str], None]) -> Iterator[None]:
    """Hold the writer's lock of `database` within the block, as `holder` (what a waiting run
    is told), waiting for as long as another process holds it: told to `on_wait` once the wait
    passes WAIT_NOTICE_SECONDS, naming that process's run. Reentrant within a thread."""
    path = writer_lock_path(database).resolve()
    held = (path, threading.get_ident())
    if held in _HELD:
        _HELD[held] += 1
        try:
            yield
        finally:
            _HELD[held] -= 1
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        started = time.monotonic()
        told = False
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not told and time.monotonic() - started >= WAIT_NOTICE_SECONDS:
                    on_wait(f"waiting for {_holder(path)} to finish writing {database}")
                    told = True
                time.sleep(POLL_SECONDS)
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{holder}\n".encode(), 0)
        _HELD[held] = 1
        try:
            yield
        finally:
            del _HELD[held]
            os.ftruncate(descriptor, 0)
    finally:
        os.close(descriptor)  # lets go of the lock
