"""Path globs shared by every rule that names files (core and test paths, theme rules)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

# Dependency manifests and lock files: risk rules flag changes to them.
DEPENDENCY_FILES = (
    "requirements*.txt",
    "requirements/**",
    "constraints*.txt",
    "setup.py",
    "setup.cfg",
    "pyproject.toml",
    "Pipfile",
    "Pipfile.lock",
    "poetry.lock",
    "uv.lock",
    "environment*.yml",
    "environment*.yaml",
    "package.json",
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "go.mod",
    "go.sum",
    "Cargo.toml",
    "Cargo.lock",
)
# CI configuration: risk rules flag changes to it, theme rules keep it CI work.
CI_FILES = (
    ".github/workflows/**",
    ".github/actions/**",
    ".gitlab-ci.yml",
    ".circleci/**",
    ".buildkite/**",
    "Jenkinsfile",
    "azure-pipelines.yml",
)
# Container images' build files; risk rules flag them and all else under `docker/`, which
# holds what goes into an image (slime's `docker/patch/*.patch` are fixes to SGLang itself).
DOCKERFILES = ("Dockerfile*", "*.Dockerfile", "*.dockerfile", "docker-compose*.y*ml")
DOCKER_FILES = (*DOCKERFILES, "docker/**")


@lru_cache(maxsize=512)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """gitignore-like globs: `**` spans directories, `*` and `?` stay within one; a pattern
    without `/` matches a file name at any depth, and a leading `/` anchors it at the root."""
    pattern = pattern.strip()
    anchored = pattern.startswith("/")
    pattern = pattern.lstrip("/")
    if "/" not in pattern and not anchored:
        pattern = "**/" + pattern
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def matches_any(path: str, patterns: Iterable[str]) -> bool:
    """Whether a repository path matches one of the globs."""
    return any(glob_regex(p).match(path) for p in patterns)


# Suffixes of a template that a file is rendered from (slime's `.github/workflows/pr-test.yml`
# from `pr-test.yml.j2`).
TEMPLATE_SUFFIXES = (".j2", ".jinja", ".jinja2", ".tmpl", ".template", ".in")


def without_rendered_copies(paths: Sequence[str]) -> list[str]:
    """The paths without a file whose template is among them too: the two are one change, and
    counted twice they outweigh the rest (slime's fixes that register their test in CI change
    `pr-test.yml` and `pr-test.yml.j2`, two of four files)."""
    present = set(paths)
    return [
        path for path in paths if not any(path + suffix in present for suffix in TEMPLATE_SUFFIXES)
    ]
