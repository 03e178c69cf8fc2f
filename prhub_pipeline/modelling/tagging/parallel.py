"""Run a few independent calls on the machine's second core, where that is safe.

Classifier training is CPU-bound Python and liblinear, both of which hold the GIL, so threads
would not help; forked processes do. A call's result comes back pickled through a pipe, so
results must be picklable (arrays, sparse matrices, pydantic models). The results are the
same as those of the calls run one after another: only the wall time differs.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Sequence
from functools import partial
from multiprocessing.connection import Connection
from typing import TypeVar

Result = TypeVar("Result")
Item = TypeVar("Item")


def can_fork() -> bool:
    """Forking is safe and useful: Linux, a second core, and no other threads in this process
    (a forked child of a threaded process may inherit a lock some other thread held); the CLI
    and `prhub materialize`'s in-process runs qualify, a threaded server does not."""
    return (
        sys.platform == "linux"
        and (os.cpu_count() or 1) > 1
        and threading.active_count() == 1
        and not multiprocessing.current_process().daemon  # a daemon may not have children
    )


def run_calls(calls: Sequence[Callable[[], Result]]) -> list[Result]:
    """Each call's result, in order: the calls after the first run in forked processes while
    this one runs the first. Where forking is not safe (`can_fork`), or a child dies (say, out
    of memory), the calls run here instead."""
    if len(calls) < 2 or not can_fork():
        return [call() for call in calls]
    context = multiprocessing.get_context("fork")
    children = []
    for call in calls[1:]:
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=_call_and_send, args=(sender, call), daemon=True)
        process.start()
        sender.close()
        children.append((process, receiver, call))
    results = [calls[0]()]
    for process, receiver, call in children:
        try:
            results.append(receiver.recv())
        except EOFError:
            results.append(call())
        finally:
            receiver.close()
            process.join()
    return results


def map_in_halves(
    function: Callable[[Sequence[Item]], list[Result]], items: Sequence[Item]
) -> list[Result]:
    """`function(items)`, computed as two halves of `items` side by side (see `run_calls`);
    `function` maps a list of items to a list of one result each."""
    middle = (len(items) + 1) // 2
    halves = [items[:middle], items[middle:]] if len(items) > 1 else [items]
    return [
        result
        for part in run_calls([partial(function, half) for half in halves])
        for result in part
    ]


def _call_and_send(sender: Connection, call: Callable[[], object]) -> None:
    sender.send(call())
    sender.close()
