"""Which requirements a dependency manifest declares, so a PR's dependency change can be named.

"Changes dependency files: pyproject.toml" cries wolf: most edits of `pyproject.toml` are tool
settings, and most edits of `setup.py` are build logic. Reading the declared requirements before
and after says which dependency was added, removed or re-pinned (`torch ==2.7.1 -> ==2.8.0`),
and says nothing when none was.

Each manifest becomes settings in the form `config_diff` compares: the key is the normalised
project name, behind its group when it has one (`dev: pytest`, `build: setuptools`) and with
its environment marker when it has one, the value its version specifier or URL (empty when
unpinned). A uv or Poetry lock file gives each locked package under `locked` (`locked: torch`
at `==2.8.0`), so a re-lock names what moved rather than "changes uv.lock". Other lock files and
conda environments are not read: the line-count rule judges them.
"""

from __future__ import annotations

import ast
import configparser
import json
import re
import tomllib
from collections.abc import Iterable
from pathlib import PurePosixPath
from typing import Any, NamedTuple

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from prhub_pipeline.records import SettingChange

# Manifests whose requirements are read, by file name (requirements files also by folder).
_REQUIREMENTS_TXT = re.compile(r"(?:requirements|constraints)[\w.-]*\.(?:txt|in)", re.IGNORECASE)
_READ_NAMES = ("pyproject.toml", "setup.py", "setup.cfg", "package.json", "uv.lock", "poetry.lock")
# The group a lock file's packages are keyed under.
LOCKED = "locked"
# `-r base.txt`, `--extra-index-url URL`: options of a requirements file, kept as they are.
_OPTION = re.compile(r"^-{1,2}\w")
# The value of a line kept whole: it is there or not, and has no version of its own.
LISTED = "listed"
# The value of `dependencies` (or `optional-dependencies`) in a pyproject.toml that leaves them
# to the build backend: `dynamic = ["dependencies"]` (setup.py or a requirements file says them).
DYNAMIC = "dynamic"
DYNAMIC_FIELDS = ("dependencies", "optional-dependencies")


# A direct reference pinned to a full commit id: `@ git+https://...tokamax.git@5802a3d2...`.
_PINNED_COMMIT = re.compile(r"@([0-9a-f]{12})[0-9a-f]{28}\b")


def shown_version(spec: str | None) -> str:
    """A requirement's version as a sentence shows it: nothing for an unpinned requirement or
    for a line kept whole (`-r base.txt`), and a pinned commit by its first 12 digits, as
    GitHub shows one (tpu-inference's tokamax pin wrote 40 digits four times in one risk)."""
    if spec is None or spec == LISTED:
        return ""
    return _PINNED_COMMIT.sub(r"@\1", spec)


# A requirement's key as `_add` writes it: `group: name[extras]; marker`.
_KEY = re.compile(
    r"^(?:(?P<group>[^:;]+): )?(?P<project>[a-z0-9][a-z0-9._-]*)(?:\[[^\]]*\])?(?:; .+)?$"
)


class RequirementKey(NamedTuple):
    """The parts of a requirement's key that say where and what: its group and its project."""

    group: str
    project: str


def requirement_key(key: str) -> RequirementKey | None:
    """`dev: pytest[cov]` -> (dev, pytest); None for a line kept whole (`-r base.txt`)."""
    match = _KEY.match(key)
    if match is None:
        return None
    return RequirementKey(match["group"] or "", match["project"])


def is_read_manifest(path: str) -> bool:
    """A dependency manifest whose requirements can be compared (uv's and Poetry's lock files
    too, not others)."""
    parts = PurePosixPath(path).parts
    name = parts[-1] if parts else ""
    if name in _READ_NAMES:
        return True
    return name.lower().endswith((".txt", ".in")) and (
        _REQUIREMENTS_TXT.fullmatch(name) is not None or "requirements" in parts[:-1]
    )


def requirement_settings(path: str, text: str) -> dict[str, str] | None:
    """The requirements `text` declares, keyed as described above; None when the manifest
    cannot be parsed."""
    name = PurePosixPath(path).name
    try:
        if name == "pyproject.toml":
            return _pyproject(tomllib.loads(text))
        if name == "package.json":
            return _package_json(json.loads(text))
        if name == "setup.py":
            return _setup_py(ast.parse(text))
        if name == "setup.cfg":
            return _setup_cfg(text)
        if name in ("uv.lock", "poetry.lock"):
            return _lock(tomllib.loads(text))
    except (ValueError, SyntaxError, RecursionError, configparser.Error):
        return None
    except (AttributeError, TypeError):  # a table where a list belongs, or the reverse
        return None
    return _requirement_lines(text.splitlines(), "")


# Options after a requirement on its line (`dali>=1.8 --extra-index-url URL`, pip-compile's
# `torch==2.1.0 --hash=sha256:...`): the requirement is what comes before them.
_TRAILING_OPTIONS = re.compile(r"\s+(?=--?[A-Za-z])")
# A pinned file's checksum: it changes with every version and says nothing of its own.
_HASH_OPTION = re.compile(r"^--hash\b")
# A project installed from a version control or file URL that names it (pip's `#egg=` form),
# editable or not: pytorch/ao #136 read "adds -e git+https://...git#egg=pytorch_sphinx_theme".
_EGG_REFERENCE = re.compile(
    r"^(?:(?:-e|--editable)\s+)?(?P<url>(?:(?:git|hg|svn|bzr)\+|https?://|file:)[^#\s]+)"
    r"#(?:\S*&)?egg=(?P<name>[A-Za-z0-9][\w.-]*)"
)


def _requirement_lines(lines: Iterable[str], group: str) -> dict[str, str]:
    settings: dict[str, str] = {}
    for raw in _joined_lines(lines):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        for part in _TRAILING_OPTIONS.split(line):
            if not _HASH_OPTION.match(part):
                _add(settings, group, part)
    return settings


def _joined_lines(lines: Iterable[str]) -> Iterable[str]:
    """Lines as pip reads them: one ending in a backslash goes on in the next."""
    pending = ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        yield pending + line
        pending = ""
    if pending:
        yield pending


def _add(settings: dict[str, str], group: str, line: str) -> None:
    """One requirement line; an option or a line `packaging` cannot read is kept whole."""
    prefix = f"{group}: " if group else ""
    egg = _EGG_REFERENCE.match(line)
    if egg:  # `-e git+https://...git#egg=name`: the project `name` from that reference
        settings[prefix + str(canonicalize_name(egg.group("name")))] = f"@ {egg.group('url')}"
        return
    if _OPTION.match(line):
        settings[prefix + " ".join(line.split())] = LISTED
        return
    try:
        requirement = Requirement(line)
    except InvalidRequirement:
        settings[prefix + line] = LISTED
        return
    name = str(canonicalize_name(requirement.name))
    if requirement.extras:
        name += f"[{','.join(sorted(requirement.extras))}]"
    # Lines for other environments are other requirements (`transformers<=4.48.2; python_version
    # >= "3.10"` beside an older pin for 3.9), so only the one that changed is named.
    key = prefix + name + (f"; {requirement.marker}" if requirement.marker is not None else "")
    value = f"@ {requirement.url}" if requirement.url else str(requirement.specifier)
    if key in settings and settings[key] != value:
        # pip applies both lines of one project (tilelang #1487 wrote `~=0.1.0` and `>=0.1.6`
        # as two lines, then as one): their intersection is the requirement.
        if requirement.url or settings[key].startswith("@"):
            value = f"{settings[key]} | {value}"
        else:
            value = str(SpecifierSet(settings[key]) & requirement.specifier)
    settings[key] = value


def _strings(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _pyproject(document: dict[str, Any]) -> dict[str, str]:
    """PEP 621 `[project]` (dependencies, optional groups, requires-python), PEP 735 dependency
    groups, `[build-system] requires` and Poetry's dependency tables."""
    settings: dict[str, str] = {}
    project = document.get("project", {})
    settings.update(_requirement_lines(_strings(project.get("dependencies")), ""))
    for group, items in (project.get("optional-dependencies") or {}).items():
        settings.update(_requirement_lines(_strings(items), str(group)))
    for group, items in (document.get("dependency-groups") or {}).items():
        settings.update(_requirement_lines(_strings(items), str(group)))
    settings.update(
        _requirement_lines(_strings(document.get("build-system", {}).get("requires")), "build")
    )
    if isinstance(project.get("requires-python"), str):
        settings["python"] = project["requires-python"]
    for dynamic in DYNAMIC_FIELDS:
        if dynamic in _strings(project.get("dynamic")):
            settings[dynamic] = DYNAMIC
    poetry = document.get("tool", {}).get("poetry", {})
    _add_mapping(settings, "", poetry.get("dependencies"))
    _add_mapping(settings, "dev", poetry.get("dev-dependencies"))
    for group, table in (poetry.get("group") or {}).items():
        _add_mapping(settings, str(group), (table or {}).get("dependencies"))
    return settings


def _lock(document: dict[str, Any]) -> dict[str, str]:
    """uv.lock's and poetry.lock's `[[package]]` tables: each package at its locked version
    (several, `==1.0 | ==2.0`, where the lock forks by environment)."""
    versions: dict[str, set[str]] = {}
    for package in document.get("package") or []:
        if isinstance(package, dict) and isinstance(package.get("name"), str):
            name = str(canonicalize_name(package["name"]))
            versions.setdefault(name, set()).add(f"=={package.get('version', '')}")
    return {f"{LOCKED}: {name}": " | ".join(sorted(found)) for name, found in versions.items()}


def _package_json(document: Any) -> dict[str, str]:
    settings: dict[str, str] = {}
    if not isinstance(document, dict):
        raise ValueError("package.json is not an object")
    for table, group in (
        ("dependencies", ""),
        ("devDependencies", "dev"),
        ("peerDependencies", "peer"),
        ("optionalDependencies", "optional"),
    ):
        _add_mapping(settings, group, document.get(table))
    return settings


def _add_mapping(settings: dict[str, str], group: str, table: Any) -> None:
    """`name = "^1.2"` / `"name": "^1.2"` tables (Poetry, npm); a Poetry table value keeps
    its `version` and whatever else it says."""
    if not isinstance(table, dict):
        return
    prefix = f"{group}: " if group else ""
    for name, spec in table.items():
        if isinstance(spec, dict):
            spec = spec.get("version", json.dumps(spec, sort_keys=True))
        settings[prefix + str(name)] = str(spec)


def _setup_cfg(text: str) -> dict[str, str] | None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    settings: dict[str, str] = {}
    if parser.has_option("options", "install_requires"):
        settings.update(
            _requirement_lines(parser.get("options", "install_requires").splitlines(), "")
        )
    if parser.has_option("options", "python_requires"):
        settings["python"] = parser.get("options", "python_requires").strip()
    if parser.has_section("options.extras_require"):
        for group, items in parser.items("options.extras_require"):
            settings.update(_requirement_lines(items.splitlines(), group))
    return settings


def _setup_py(tree: ast.Module) -> dict[str, str]:
    """The literal requirements of the `setup(...)` call, module-level names resolved (verl's
    `extras_require={"test": TEST_REQUIRES, ...}`). A computed value is left out: it reads a
    requirements file (vllm-ascend's `install_requires=get_requirements()`), which is compared
    itself, so an edit of the build logic around it is no dependency change."""
    names = {
        target.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }

    def resolved(node: ast.expr) -> ast.expr:
        return names.get(node.id, node) if isinstance(node, ast.Name) else node

    settings: dict[str, str] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _is_setup(node.func)):
            continue
        for keyword in node.keywords:
            value = resolved(keyword.value)
            if keyword.arg in ("install_requires", "setup_requires"):
                group = "build" if keyword.arg == "setup_requires" else ""
                settings.update(_requirement_lines(_literal_strings(value), group))
            elif keyword.arg == "extras_require" and isinstance(value, ast.Dict):
                for group_node, items in zip(value.keys, value.values, strict=True):
                    if isinstance(group_node, ast.Constant):
                        lines = _literal_strings(resolved(items))
                        settings.update(_requirement_lines(lines, str(group_node.value)))
            elif (
                keyword.arg == "python_requires"
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
            ):
                settings["python"] = value.value
    return settings


def _is_setup(func: ast.expr) -> bool:
    """`setup(...)` or `setuptools.setup(...)`."""
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return name == "setup"


def _literal_strings(node: ast.expr) -> list[str]:
    """The string items of a list or tuple literal; none for anything computed."""
    if not isinstance(node, ast.List | ast.Tuple):
        return []
    return [i.value for i in node.elts if isinstance(i, ast.Constant) and isinstance(i.value, str)]


# A requirement group or manifest for working on the project, not for running it: verl's `test`
# extra, vllm-ascend's requirements-dev.txt and docs/requirements-docs.txt.
_DEVELOPMENT = re.compile(
    r"(?:^|[-_.])(?:dev|develop|test|tests|testing|docs?|lint|linting|style|typing)(?:$|[-_.])",
    re.IGNORECASE,
)


def runtime_repins(changes: Iterable[SettingChange]) -> list[SettingChange]:
    """The requirements of the project's own install that `changes` (each with its path)
    re-pin: declared in a manifest at the repository's root (a recipe's or the docs' own is
    another install), in the main list, the build requirements or an extra other than one for
    development, with a version before and after. Lock files' packages follow from these."""
    found = []
    for change in changes:
        path = PurePosixPath(change.path or "")
        key = requirement_key(change.key)
        if (
            len(path.parts) == 1
            and is_read_manifest(str(path))
            and not _DEVELOPMENT.search(path.stem)
            and key is not None
            and key.group not in (LOCKED, *DYNAMIC_FIELDS)
            and change.key not in DYNAMIC_FIELDS
            and not _DEVELOPMENT.search(key.group)
            and change.before is not None
            and change.after is not None
        ):
            found.append(change)
    return found
