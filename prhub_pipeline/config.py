"""Settings: one YAML file, validated by pydantic, with errors that name the key."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from contextlib import suppress
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from yaml.constructor import ConstructorError
from yaml.reader import ReaderError

from prhub_pipeline.paths import check_glob
from prhub_pipeline.records import Lang
from prhub_pipeline.weeks import monday_of

CONFIG_ENV_VAR = "PRHUB_CONFIG"
DEFAULT_CONFIG_NAME = "prhub.yaml"
# GitHub's OWNER/NAME; a name of dots alone (`..`) would lead the report files out of their
# folder.
REPO_NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}/(?!\.+\Z)[A-Za-z0-9._-]{1,100}")
# What `git check-ref-format --branch` accepts, less the rare corners; never an option (`-...`).
BRANCH_PATTERN = re.compile(
    r"^(?!-)(?!.*\.\.)(?!.*//)(?!.*@\{)[^\s~^:?*\[\\\x00-\x1f\x7f]+(?<![/.])(?<!\.lock)$"
)
HTTP_URL_PATTERN = re.compile(r"^https?://[^/\s]+(/\S*)?$")


class ConfigError(Exception):
    """The configuration file is missing or invalid; the message names the file and the key."""


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def _a_number(value: Any) -> Any:
    """YAML's `true` is no number (pydantic would read it as 1), nor are `.nan` and `.inf`
    (which pydantic would compare with the bounds and name the wrong reason)."""
    if isinstance(value, bool):
        raise ValueError(f"expected a number, got {str(value).lower()}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"expected a finite number, got {value}")
    return value


def _a_path(value: Any) -> Any:
    """An empty path would be the config file's own folder (a database there is a folder)."""
    if isinstance(value, str) and not value.strip():
        raise ValueError("is empty; name a path (relative to the config file, or absolute)")
    return value


Number = Annotated[float, BeforeValidator(_a_number)]
Count = Annotated[int, BeforeValidator(_a_number)]
ConfigPath = Annotated[Path, BeforeValidator(_a_path)]


def _globs(patterns: list[str]) -> list[str]:
    for pattern in patterns:
        check_glob(pattern)
    return patterns


@lru_cache(maxsize=65536)  # a report run folds every stored tag and label, week by week
def normalise_tag(tag: str) -> str:
    """`Fully Async` -> `fully_async`, ` CI ` -> `ci`: case-, space- and dash-insensitive.
    Code marks go (huggingface/trl's `[`DPOTrainer`]`), and so does the space around a joint
    (`[`core` / tests]` is `core/tests`, `[CI / CD]` is `ci/cd`)."""
    words = re.sub(r"[\s\-]+", "_", tag.replace("`", "").strip().lower())
    return re.sub(r"_*([/&+])_*", r"\1", words).strip("_")


class ModulesConfig(StrictModel):
    """How a repository names its modules and where the ground truth comes from."""

    allowed: list[str] | None = None  # None: learned from the tagged history
    aliases: dict[str, str] = Field(default_factory=dict)  # e.g. docs -> doc
    label_modules: dict[str, str] = Field(default_factory=dict)  # GitHub label -> module
    min_training_prs: Count = Field(default=50, ge=1)
    # Without `allowed`: a title tag becomes a label once this many PRs carry it.
    min_label_prs: Count = Field(default=5, ge=1)
    min_micro_f1: Number = Field(default=0.6, ge=0.0, le=1.0)
    # The model labels PRs only where the repository's own tags name an area for at least this
    # share of a year's PRs (see `classifier.area_tagged_share`); 0 lets it label anywhere.
    min_tagged_share: Number = Field(default=0.5, ge=0.0, le=1.0)
    # Under that share, the model labels only its predictions of at least this probability
    # (None: none). Opt-in, with a bar read off `classifier evaluate`'s by_confidence: the
    # tagged PRs it is measured on are a sample of the untagged ones only where the tags name
    # areas (llm-compressor's `[awq]`, `[moe]`: 0.93 precise at 0.7), not kinds (slime).
    min_probability_under_share: Number | None = Field(default=None, gt=0.0, le=1.0)
    # Trained models kept per repository, newest first (each is a few MB; weekly retraining).
    keep_models: Count = Field(default=12, ge=1)
    # The report's name for a module, in every language (`ckpt: Checkpointing`) or per
    # language (`algo: {en: Algorithms, zh: 算法}`); else the module as the repository spells it.
    display_names: dict[str, str | dict[Lang, str]] = Field(default_factory=dict)

    @field_validator("allowed")
    @classmethod
    def _some_modules(cls, allowed: list[str] | None) -> list[str] | None:
        if allowed is not None and not allowed:
            # Every tag would be unknown and no PR could have a module.
            raise ValueError(
                "an empty list allows no module; leave `allowed` out to learn the modules"
                " from the tagged history"
            )
        first: dict[str, str] = {}
        for position, module in enumerate(allowed or []):
            key = normalise_tag(module)
            if not key:
                raise ValueError(f"entry {position} ({module!r}) is empty: name a module")
            if key in first:
                # Tags are read ignoring case, spaces and dashes: the two are one module.
                raise ValueError(
                    f"{first[key]!r} and {module!r} are one module (tags ignore case, spaces"
                    " and dashes); list it once"
                )
            first[key] = module
        return allowed

    @field_validator("aliases")
    @classmethod
    def _aliases_once(cls, aliases: dict[str, str]) -> dict[str, str]:
        # `{Docs: doc, docs: ci}` names one tag twice: which module it becomes would depend on
        # the order the keys are sorted in.
        first: dict[str, str] = {}
        for name, module in aliases.items():
            if not normalise_tag(name) or not normalise_tag(module):
                raise ValueError(f"{name!r}: {module!r}: an alias and its module must not be empty")
            key = normalise_tag(name)
            if key in first and normalise_tag(aliases[first[key]]) != normalise_tag(module):
                other = first[key]
                raise ValueError(
                    f"{other!r} (to {aliases[other]!r}) and {name!r} (to {module!r}) are one tag"
                    " (tags ignore case, spaces and dashes) mapped to two modules; keep one"
                )
            first.setdefault(key, name)
        return aliases

    @model_validator(mode="after")
    def _named_modules_exist(self) -> ModulesConfig:
        if self.allowed is not None:
            # A tag or label mapped to a module outside the list would be dropped as unknown on
            # every PR: a typo in the config (`docs: dcos`), not something to learn from.
            known = {normalise_tag(m) for m in self.allowed}
            for field, mapping in (
                ("aliases", self.aliases),
                ("label_modules", self.label_modules),
            ):
                for name, module in mapping.items():
                    if normalise_tag(module) not in known:
                        raise ValueError(
                            f"{field}: {name!r} maps to {module!r}, which is not one of the"
                            f" allowed modules ({', '.join(self.allowed)})"
                        )
        # An alias renames a tag once (`docs` -> `doc`): one that names another alias (a chain,
        # or a cycle such as {docs: doc, doc: docs}) or renames an allowed module away would
        # swap or hide modules rather than spell them.
        renamed = {
            normalise_tag(name): normalise_tag(module)
            for name, module in self.aliases.items()
            if normalise_tag(name) != normalise_tag(module)
        }
        allowed = {normalise_tag(m) for m in self.allowed or []}
        for name, module in self.aliases.items():
            target = normalise_tag(module)
            if target in renamed:
                raise ValueError(
                    f"aliases: {name!r} maps to {module!r}, which is itself an alias (of"
                    f" {renamed[target]!r}); map {name!r} to the module it stands for"
                )
            if normalise_tag(name) in allowed and normalise_tag(name) != target:
                raise ValueError(
                    f"aliases: {name!r} is an allowed module; an alias renames a tag outside the"
                    " module list"
                )
        named: dict[str, str] = {}
        for module, names in self.display_names.items():
            # `Doc` and `doc` are one module: which name the reports used depended on order.
            if normalise_tag(module) in named:
                raise ValueError(
                    f"display_names: {named[normalise_tag(module)]!r} and {module!r} are one"
                    " module (tags ignore case, spaces and dashes); name it once"
                )
            named[normalise_tag(module)] = module
            if self.allowed is not None and normalise_tag(module) not in allowed:
                raise ValueError(
                    f"display_names: {module!r} is not one of the allowed modules"
                    f" ({', '.join(self.allowed)})"
                )
            given = [names] if isinstance(names, str) else list(names.values())
            if not given or not all(name.strip() for name in given):
                raise ValueError(f"display_names: {module!r} needs a non-empty name")
        return self

    def display_names_in(self, lang: Lang) -> dict[str, str]:
        """Each module's configured name in `lang` (a module named in other languages only
        keeps its own spelling), keyed by the module as tags are read (`Doc` -> `doc`)."""
        shown: dict[str, str] = {}
        for module, names in self.display_names.items():
            name = names if isinstance(names, str) else names.get(lang)
            if name:
                shown[normalise_tag(module)] = name
        return shown


class ThemeRule(StrictModel):
    """A cross-cutting topic, matched by regular expressions over text and globs over paths."""

    name: str = Field(min_length=1)
    title: list[str] = Field(default_factory=list)
    body: list[str] = Field(default_factory=list)
    paths: list[str] = Field(default_factory=list)
    # Paths alone assign the theme when the globs match at least this share of the changed
    # paths (0: any one). A fix that adds a test the CI runs is not a CI change.
    min_path_share: Number = Field(default=0.0, ge=0.0, le=1.0)
    # Paths the globs never take, though they match (a PR's own tests in a CI folder).
    except_paths: list[str] = Field(default_factory=list)
    modules: list[str] = Field(default_factory=list)
    # Work around the code (docs, CI, images, dependencies) that many changes touch in
    # passing: the report lists a PR under such a theme only when the PR carries one of its
    # `modules` or has no module at all ("[v1] add cli sampler" goes under v1, not under
    # Dependencies for the package it adds). Its title patterns count only in the change a
    # title leads with: "support X and docs" brings its own docs along, as its files judge.
    housekeeping: bool = False

    @field_validator("title", "body")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from exc
        return patterns

    @field_validator("name")
    @classmethod
    def _named(cls, name: str) -> str:
        if not name.strip():
            raise ValueError("is empty; name the theme")
        return name

    @field_validator("paths", "except_paths")
    @classmethod
    def _path_globs(cls, patterns: list[str]) -> list[str]:
        return _globs(patterns)


class ScoringConfig(StrictModel):
    key_threshold: Number = Field(default=7.0, ge=0.0, le=10.0)
    core_paths: list[str] = Field(default_factory=list)
    test_paths: list[str] = Field(
        default_factory=lambda: [
            "tests/**",
            "test/**",
            "**/tests/**",
            "**/test_*.py",
            "**/*_test.py",
        ]
    )
    large_change_lines: Count = Field(default=1000, ge=1)
    cross_cutting_modules: Count = Field(default=4, ge=2)
    # Documentation weighs less in size and makes a PR "docs only" when it is all there is.
    doc_paths: list[str] = Field(
        # SVG files are figures of the docs and README (LLaMA-Factory #9071: 1325 lines of logos).
        # The docs sites' settings too (vllm-ascend #14279, a tutorial and its mkdocs.yml entry).
        default_factory=lambda: [
            "docs/**",
            "doc/**",
            "**/*.md",
            "**/*.rst",
            "**/*.mdx",
            "**/*.svg",
            "mkdocs.yml",
            "mkdocs.yaml",
            ".readthedocs.yml",
            ".readthedocs.yaml",
        ]
    )
    # Datasets and tables checked in with the code (LLaMA-Factory #9224: 45k lines of demo JSON):
    # their lines weigh like documentation in size and never make a large change.
    data_paths: list[str] = Field(
        default_factory=lambda: [
            "data/**/*.json",
            "**/data/**/*.json",
            "**/*.jsonl",
            "**/*.csv",
            "**/*.tsv",
            "**/*.parquet",
        ]
    )
    # Configuration files whose settings are compared before and after each PR.
    config_paths: list[str] = Field(
        default_factory=lambda: [
            "**/config/**/*.yaml",
            "**/config/**/*.yml",
            "**/configs/**/*.yaml",
            "**/configs/**/*.yml",
            "**/config/**/*.py",
            # Python modules that hold a project's settings by convention: environment
            # variables with their defaults, argument dataclasses, the package's own config,
            # the command line's options (slime/utils/arguments.py, slime #2249).
            "**/envs.py",
            "**/env.py",
            "**/*_args.py",
            "*/*_config.py",
            "**/arguments.py",
        ]
    )
    # A core-path change smaller than this (lines) is not flagged for missing tests.
    untested_core_min_lines: Count = Field(default=10, ge=1)

    @field_validator("core_paths", "test_paths", "doc_paths", "data_paths", "config_paths")
    @classmethod
    def _path_globs(cls, patterns: list[str]) -> list[str]:
        return _globs(patterns)


class GitHubConfig(StrictModel):
    api_url: str = "https://api.github.com/graphql"
    token_env: str = "GITHUB_TOKEN"
    max_rate_limit_wait_seconds: Number = Field(default=900.0, ge=0.0)
    max_retries: Count = Field(default=5, ge=0)
    timeout_seconds: Number = Field(default=30.0, gt=0.0)

    @field_validator("api_url")
    @classmethod
    def _http_url(cls, url: str) -> str:
        if not HTTP_URL_PATTERN.match(url):
            raise ValueError(f"{url!r} is not an http(s) URL, e.g. https://api.github.com/graphql")
        return url


class RepoConfig(StrictModel):
    name: str
    # Names its weeks were stored under before a rename (verl: volcengine/verl): ingest moves
    # them to `name`, since GitHub searches the new name only and the old one is refused.
    former_names: list[str] = Field(default_factory=list)
    source: Literal["git", "github"]
    git_path: ConfigPath | None = None
    branch: str | None = None  # default: the clone's HEAD
    git_fetch: bool = True  # update a bare clone's branch from its origin before reading
    start: date
    github: GitHubConfig = Field(default_factory=GitHubConfig)
    modules: ModulesConfig = Field(default_factory=ModulesConfig)
    themes: list[ThemeRule] | None = None  # None: the built-in rules
    scoring: ScoringConfig = Field(default_factory=ScoringConfig)

    @field_validator("name")
    @classmethod
    def _owner_slash_name(cls, name: str) -> str:
        if not REPO_NAME_PATTERN.fullmatch(name):
            raise ValueError(f"{name!r} is not a repository name of the form OWNER/NAME")
        return name

    @field_validator("former_names")
    @classmethod
    def _former_names(cls, names: list[str]) -> list[str]:
        for position, name in enumerate(names):
            if not REPO_NAME_PATTERN.fullmatch(name):
                raise ValueError(
                    f"{position}: {name!r} is not a repository name of the form OWNER/NAME"
                )
        return names

    @model_validator(mode="after")
    def _former_names_are_others(self) -> RepoConfig:
        if any(former.lower() == self.name.lower() for former in self.former_names):
            raise ValueError(f"former_names lists {self.name}, the repository's own name")
        return self

    @field_validator("branch")
    @classmethod
    def _branch_name(cls, branch: str | None) -> str | None:
        if branch is not None and not BRANCH_PATTERN.match(branch):
            raise ValueError(f"{branch!r} is not a git branch name")
        return branch

    @field_validator("start", mode="before")
    @classmethod
    def _a_date(cls, start: Any) -> Any:
        # pydantic would read 20241028 as seconds since 1970 and a time as a datetime, and
        # then name neither as the mistake.
        if isinstance(start, str):
            with suppress(ValueError):
                return date.fromisoformat(start)
        elif isinstance(start, date) and not isinstance(start, datetime):
            return start
        shown = repr(start) if isinstance(start, str) else str(start)
        raise ValueError(f"expected a date like 2024-10-28, got {shown}")

    @field_validator("start")
    @classmethod
    def _monday(cls, start: date) -> date:
        if start.weekday() != 0:
            raise ValueError(
                f"{start.isoformat()} is a {start:%A}; weeks start on a Monday"
                f" (that week's: {monday_of(start).isoformat()})"
            )
        return start

    @model_validator(mode="after")
    def _source_needs(self) -> RepoConfig:
        if self.source == "git" and self.git_path is None:
            raise ValueError("git_path is required when source is git")
        if self.source == "git" and self.modules.label_modules:
            # Commits carry no labels: the mapping could never name a module.
            raise ValueError(
                "modules.label_modules maps GitHub labels, which the git source does not read;"
                " remove it or use source: github"
            )
        return self

    @field_validator("themes")
    @classmethod
    def _themes_match_something(cls, themes: list[ThemeRule] | None) -> list[ThemeRule] | None:
        # Two rules of one name would count as one theme; a rule with nothing to match
        # would never count at all.
        seen: set[str] = set()
        for position, rule in enumerate(themes or []):
            if not (rule.title or rule.body or rule.paths or rule.modules):
                raise ValueError(
                    f"{position} ({rule.name}): no title, body, paths or modules to match"
                )
            if rule.name.casefold() in seen:
                raise ValueError(f"{position}: theme {rule.name!r} is listed twice")
            seen.add(rule.name.casefold())
        return themes

    @model_validator(mode="after")
    def _theme_modules_exist(self) -> RepoConfig:
        # A configured theme's module outside the module list would never be assigned (the
        # built-in rules name modules of many repositories and are not checked).
        if self.themes is None or self.modules.allowed is None:
            return self
        allowed = {normalise_tag(m) for m in self.modules.allowed}
        for position, rule in enumerate(self.themes):
            for module in rule.modules:
                if normalise_tag(module) not in allowed:
                    raise ValueError(
                        f"themes.{position}.modules: {module!r} is not one of the allowed"
                        f" modules ({', '.join(self.modules.allowed)})"
                    )
        return self


class Settings(StrictModel):
    database: ConfigPath
    timezone: str = "Asia/Shanghai"
    language: Lang = "zh"
    reports_dir: ConfigPath = Path("reports")
    # Where reports_dir is published (a web server's URL for it): each report links to itself.
    reports_url: str | None = None
    sql_models_dir: ConfigPath | None = None  # default: dbt_like_sql/ of this project
    repos: Annotated[list[RepoConfig], Field(min_length=1)]

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, zone: str) -> str:
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {zone!r}") from exc
        return zone

    @field_validator("reports_url")
    @classmethod
    def _published_at_an_http_url(cls, url: str | None) -> str | None:
        if url is not None and not HTTP_URL_PATTERN.match(url):
            raise ValueError(f"{url!r} is not an http(s) URL, e.g. https://example.org/reports")
        return url

    @field_validator("repos")
    @classmethod
    def _unique_repos(cls, repos: list[RepoConfig]) -> list[RepoConfig]:
        # GitHub's names ignore case: A/B and a/b are one repository, stored twice.
        spellings: dict[str, list[str]] = {}
        for repo in repos:
            spellings.setdefault(repo.name.lower(), []).append(repo.name)
        twice = sorted(
            " and ".join(dict.fromkeys(names)) for names in spellings.values() if len(names) > 1
        )
        if twice:
            case = " (GitHub's repository names ignore case)" if " and " in "".join(twice) else ""
            raise ValueError(f"repository listed twice: {', '.join(twice)}{case}")
        # A former name still configured, or claimed twice, would move one repository's weeks
        # into another's.
        claimed: dict[str, str] = {}
        for repo in repos:
            for former in repo.former_names:
                if former.lower() in spellings:
                    raise ValueError(
                        f"{repo.name}: former name {former} is a configured repository's name"
                    )
                if former.lower() in claimed:
                    raise ValueError(
                        f"former name {former} is listed by {claimed[former.lower()]} and"
                        f" {repo.name}"
                    )
                claimed[former.lower()] = repo.name
        return repos

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def repo(self, name: str) -> RepoConfig:
        for repo in self.repos:
            if repo.name == name:
                return repo
        known = ", ".join(r.name for r in self.repos)
        raise ConfigError(f"repository {name!r} is not configured (configured: {known})")


def find_config_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """`--config`, else `$PRHUB_CONFIG`, else `./prhub.yaml`."""
    if explicit:
        return Path(explicit)
    from_env = os.environ.get(CONFIG_ENV_VAR)
    if from_env:
        return Path(from_env)
    return Path(DEFAULT_CONFIG_NAME)


def describe_config_error(
    path: Path, error: ValidationError, document: yaml.Node | None, at: Sequence[int | str] = ()
) -> str:
    """`FILE:LINE: key: message` (or `FILE: key: message (line N); ...` for several) for a
    section of a YAML file validated on its own: `at` is where the section is in the file
    (`("repos", 0, "modules")`), so its keys are named and found as prhub.yaml's are."""
    line, problem = _describe(error, document, at)
    return f"{path}:{line}: {problem}" if line else f"{path}: {problem}"


def _describe(
    error: ValidationError, document: yaml.Node | None = None, at: Sequence[int | str] = ()
) -> tuple[int | None, str]:
    """Each error as `key: message`, and where in the YAML `document` the key is when known:
    the line of a single error (for `FILE:LINE: key: message`, as the YAML errors say it),
    `(line N)` after each of several."""
    described = []
    for item in error.errors():
        loc = (*at, *item["loc"])
        message = item["msg"]
        if item["type"] == "extra_forbidden":
            message = "unknown key"
        elif message.startswith("Value error, "):
            message = message.removeprefix("Value error, ")
        # A check of several keys says which one it is about first (`aliases: 'docs' maps to
        # ...`): its line is that key's, and at the top level it needs no other name.
        named = re.match(r"([A-Za-z_]\w*)[.:]", message)
        line = _line_of(document, (*loc, named.group(1)) if named else loc)
        if loc:
            text = f"{'.'.join(str(part) for part in loc)}: {message}"
        else:
            text = message if named else f"(top level): {message}"
        described.append((line, text))
    if len(described) == 1:
        return described[0]
    in_file_order = sorted(described, key=lambda found: found[0] or 0)
    return None, "; ".join(
        text + (f" (line {line})" if line else "") for line, text in in_file_order
    )


def _line_of(document: yaml.Node | None, loc: Sequence[int | str]) -> int | None:
    """The line of the deepest key (or list item) of `loc` that the YAML document holds."""
    node, line = document, None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            found = [(k, v) for k, v in node.value if str(k.value) == str(part)]
            if not found:
                break
            key, node = found[0]
            line = key.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            if not 0 <= part < len(node.value):
                break
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line


class _StrictLoader(yaml.SafeLoader):
    """PyYAML's safe loader without its silent guesses: a key given twice (PyYAML keeps the
    last) and a date that is none (PyYAML raises a bare ValueError) are errors at their line."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        first_seen: dict[Any, yaml.Mark] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # `<<: *defaults`: keys given beside it override the merged ones
            key = self.construct_object(key_node, deep=deep)
            try:
                first = first_seen.get(key)
            except TypeError:
                continue  # an unhashable key, which the safe loader names itself
            if first is not None:
                raise ConstructorError(
                    None,
                    None,
                    f"key given twice, first on line {first.line + 1}",
                    key_node.start_mark,
                )
            first_seen[key] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_timestamp(self, node: yaml.ScalarNode) -> Any:
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError as exc:
            raise ConstructorError(
                None, None, f"{node.value!r} is not a real date ({exc})", node.start_mark
            ) from None


_StrictLoader.add_constructor("tag:yaml.org,2002:timestamp", _StrictLoader.construct_yaml_timestamp)


def _keys_at(node: yaml.Node | None, index: int) -> str:
    """The keys leading to the text at `index` of a YAML document, dotted as pydantic names
    them (`repos.0.start`)."""
    keys: list[str] = []
    visited: set[int] = set()  # an alias may make the document recursive (`&a [*a]`)
    while isinstance(node, yaml.MappingNode | yaml.SequenceNode) and id(node) not in visited:
        visited.add(id(node))
        if isinstance(node, yaml.MappingNode):
            entries = [(str(key.value), key, value) for key, value in node.value]
        else:
            entries = [(str(i), item, item) for i, item in enumerate(node.value)]
        # A block collection ends where the next key starts: its end is not inside it.
        inside = [
            (name, last)
            for name, first, last in entries
            if first.start_mark.index <= index < last.end_mark.index
            or index == last.start_mark.index
        ]
        if not inside:
            break
        name, node = inside[0]
        keys.append(name)
    return ".".join(keys)


class NotUtf8Error(ValueError):
    """A file holds a byte that is not UTF-8: which byte, at which position and line."""

    def __init__(self, byte: int, position: int, line: int) -> None:
        super().__init__(f"not UTF-8 text (byte 0x{byte:02x} at position {position}, line {line})")
        self.byte, self.position, self.line = byte, position, line


def read_utf8_text(path: Path) -> str:
    """A file's text. Raises OSError when it cannot be read, NotUtf8Error when it is not
    UTF-8 (a config saved as UTF-16, a JSON-lines file with a Latin-1 byte)."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise NotUtf8Error(data[exc.start], exc.start, line) from None


def load_yaml_file(path: Path) -> Any:
    """A YAML file's data. Every problem is a one-line ConfigError naming the file and where
    in it: not UTF-8, not YAML (line and column), a key given twice or a date that is none
    (line and key)."""
    return load_yaml_document(path)[0]


def load_yaml_document(path: Path) -> tuple[Any, yaml.Node | None]:
    """A YAML file's data and its document's nodes (which know every key's line)."""
    try:
        text = read_utf8_text(path)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    except NotUtf8Error as exc:
        raise ConfigError(f"{path}: {exc}") from None
    try:
        loader = _StrictLoader(text)
    except ReaderError as exc:  # a character YAML does not allow (a NUL ...)
        line = text.count("\n", 0, exc.position) + 1
        raise ConfigError(
            f"{path}: not valid YAML at line {line}: {exc.reason} (character #x{exc.character:04x})"
        ) from None
    document = None
    try:
        document = loader.get_single_node()
        return (None if document is None else loader.construct_document(document)), document
    except ConstructorError as exc:
        mark = exc.problem_mark
        if mark is None:  # PyYAML marks its errors, but its types allow none
            raise ConfigError(f"{path}: {exc.problem}") from None
        keys = _keys_at(document, mark.index)
        raise ConfigError(
            f"{path}:{mark.line + 1}: {keys + ': ' if keys else ''}{exc.problem}"
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ConfigError(f"{path}: not valid YAML{where}: {problem}") from None
    finally:
        loader.dispose()


def load_settings(path: str | os.PathLike[str] | None = None) -> Settings:
    """Read, validate and resolve a config file. Relative paths are relative to the file."""
    config_path = find_config_path(path).expanduser().resolve()
    if not config_path.is_file():
        raise ConfigError(f"config file not found: {config_path}")
    raw, document = load_yaml_document(config_path)
    if not isinstance(raw, dict):
        raise ConfigError(f"{config_path}: expected a mapping of settings at the top level")
    try:
        settings = Settings.model_validate(raw)
    except ValidationError as exc:
        line, problem = _describe(exc, document)
        where = f"{config_path}:{line}" if line else str(config_path)
        raise ConfigError(f"{where}: {problem}") from None
    try:
        return _resolve_paths(settings, config_path.parent)
    except ConfigError as exc:
        raise ConfigError(f"{config_path}: {exc}") from None


def _resolve_paths(settings: Settings, base: Path) -> Settings:
    def resolve(path: Path) -> Path:
        path = path.expanduser()
        return path if path.is_absolute() else (base / path).resolve()

    # A missing clone is the git source's error, at that repository's ingest: it must not stop
    # the other repositories, `prhub sql` or the Dagster code location.
    repos = [
        repo.model_copy(update={"git_path": resolve(repo.git_path)})
        if repo.git_path is not None
        else repo
        for repo in settings.repos
    ]
    sql_models_dir = (
        resolve(settings.sql_models_dir)
        if settings.sql_models_dir is not None
        else Path(__file__).resolve().parents[1] / "dbt_like_sql"
    )
    # A mistyped folder, or an install that left the project's models behind, would otherwise
    # leave the SQL models out without a word.
    if not sql_models_dir.is_dir():
        raise ConfigError(
            f"sql_models_dir: no such directory {sql_models_dir}"
            + ("" if settings.sql_models_dir is not None else " (install with pip install -e .)")
        )
    return settings.model_copy(
        update={
            "database": resolve(settings.database),
            "reports_dir": resolve(settings.reports_dir),
            "sql_models_dir": sql_models_dir,
            "repos": repos,
        }
    )
