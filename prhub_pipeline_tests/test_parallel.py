from __future__ import annotations

import os
from collections.abc import Sequence

import pytest

from prhub_pipeline.modelling.tagging import parallel
from prhub_pipeline.modelling.tagging.parallel import map_in_halves, run_calls


@pytest.fixture(params=[True, False], ids=["forked", "here"])
def forking(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    monkeypatch.setattr(parallel, "can_fork", lambda: request.param)
    return bool(request.param)


def test_results_come_back_in_call_order(forking: bool) -> None:
    calls = [lambda n=n: [n] * n for n in range(1, 5)]
    assert run_calls(calls) == [[1], [2, 2], [3, 3, 3], [4, 4, 4, 4]]


def test_calls_after_the_first_run_in_other_processes_when_forking() -> None:
    if not parallel.can_fork():
        pytest.skip("this machine or process cannot fork (one core, or other threads)")
    here = os.getpid()
    first, second = run_calls([os.getpid, os.getpid])
    assert first == here
    assert second != here


def test_a_call_whose_process_dies_runs_here_instead(forking: bool) -> None:
    parent = os.getpid()

    def dies_in_a_child() -> str:
        if os.getpid() != parent:
            os._exit(1)  # as a child killed for memory would
        return "ran here"

    assert run_calls([lambda: "first", dies_in_a_child]) == ["first", "ran here"]


def test_map_in_halves_keeps_the_items_order(forking: bool) -> None:
    def squares(items: Sequence[int]) -> list[int]:
        return [item * item for item in items]

    assert map_in_halves(squares, list(range(7))) == [n * n for n in range(7)]
    assert map_in_halves(squares, [3]) == [9]
    assert map_in_halves(squares, []) == []
