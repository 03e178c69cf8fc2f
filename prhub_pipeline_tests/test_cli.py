"""The `prhub` command line: bad arguments are reported like every other error, on one line."""

from __future__ import annotations

import pytest

from prhub_pipeline.cli import main


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["materialize", "--week", "2026-05-12"],
            "prhub materialize: argument --week: week '2026-05-12' is a Tuesday;"
            " a week is named by its Monday (2026-05-11)",
        ),
        (
            ["report", "--week", "2026-05-11", "--lang", "fr"],
            "prhub report: argument --lang: invalid choice: 'fr'",
        ),
        (["ui", "--port", "x"], "prhub ui: argument --port: invalid int value: 'x'"),
    ],
)
def test_a_bad_argument_is_one_line_naming_it_and_its_value(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    # The whole message, without argparse's usage lines (Python versions word choices apart).
    assert captured.err.startswith(expected) and captured.err.count("\n") == 1
    assert not captured.out
