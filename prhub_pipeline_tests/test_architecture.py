"""The layering README's Development section states, checked on the package's own imports:
data flows from the sources through the warehouse to modelling and reporting, never back, and
only `defs/` speaks Dagster."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "prhub_pipeline"

# Each layer (a folder of the package, or a module at its top) and the layers of the package
# it may import; `defs` and `cli` join everything and are not listed.
ALLOWED: dict[str, set[str]] = {
    "records": set(),
    "weeks": set(),
    "paths": set(),
    "reverts": {"records"},
    "config": {"paths", "records", "weeks"},
    "warehouse": {"records", "weeks"},
    "sources": {"config", "records", "reverts", "weeks"},
    "modelling": {"config", "paths", "records", "reverts"},
    "reporting": {"config", "modelling", "paths", "records", "reverts", "weeks"},
    "stages": {
        "config",
        "modelling",
        "records",
        "reporting",
        "sources",
        "warehouse",
        "weeks",
    },
}
DAGSTER = ("dagster", "dagster_webserver")


def _layer(path: Path) -> str:
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else path.stem


def _imported(path: Path, text: str | None = None) -> list[str]:
    """The absolute module names a file (or `text` in its place) imports, wherever in the file
    (lazy imports too); a relative import (`from ..defs import x`) is resolved against the
    file's package."""
    package = ["prhub_pipeline", *path.relative_to(PACKAGE).parent.parts]
    source = path.read_text(encoding="utf-8") if text is None else text
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1]
            names.extend(
                ".".join([*base, node.module] if node.module else [*base, alias.name])
                for alias in node.names
            )
    return names


def test_relative_imports_are_resolved() -> None:
    source = "from ..defs import runner\nfrom . import sections\nfrom .wording import core\n"
    assert _imported(PACKAGE / "reporting" / "facts.py", source) == [
        "prhub_pipeline.defs",
        "prhub_pipeline.reporting.sections",
        "prhub_pipeline.reporting.wording",
    ]


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if _layer(p) != "__init__")


def test_every_layer_of_the_package_is_ruled() -> None:
    layers = {_layer(path) for path in _sources()} - {"defs", "cli"}
    assert layers == set(ALLOWED), "a new layer needs its place in ALLOWED"


@pytest.mark.parametrize(
    "path",
    [path for path in _sources() if _layer(path) not in ("defs", "cli")],  # the top: any import
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_a_module_imports_only_the_layers_below_it(path: Path) -> None:
    layer = _layer(path)
    crossing = {
        name
        for name in _imported(path)
        if name.startswith("prhub_pipeline.") and name.split(".")[1] not in ALLOWED[layer] | {layer}
    }
    assert not crossing, f"{layer} imports {sorted(crossing)}"
    dagster = {name for name in _imported(path) if name.split(".")[0] in DAGSTER}
    assert not dagster, f"only defs/ imports Dagster; {layer} imports {sorted(dagster)}"
