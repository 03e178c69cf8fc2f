"""Themes: cross-cutting topics no single module names (Ascend/NPU, distillation, MoE ...).

A theme rule matches a PR when any of its title patterns matches the title (tags removed),
any body pattern matches the description (template removed, so the checklist's mention of
`docs` or `CI` does not count), its path globs match a changed path (or, with
`min_path_share`, that share of them), or the PR carries one of its modules. Patterns are
case-insensitive regular expressions; globs use `**` for any number of directories. A
repository's configured rules replace the built-in ones.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from prhub_pipeline.config import ModulesConfig, ThemeRule
from prhub_pipeline.modelling.pr_text import clean_description
from prhub_pipeline.modelling.tags import normalise_tag, text_without_tags
from prhub_pipeline.paths import glob_regex
from prhub_pipeline.records import ModuleLabel, PullRequest, ThemeTag

DEFAULT_THEME_RULES: tuple[ThemeRule, ...] = (
    ThemeRule(
        name="NPU/Ascend",
        title=[r"\bnpus?\b", r"ascend", r"\bcann\b", r"torch[_-]npu", r"mindspeed"],
        # A description mentioning Ascend CI jobs in passing is not an NPU change.
        body=[
            r"torch[_-]npu",
            r"\b(?:on|for|supports?|supporting)\s+(?:the\s+)?(?:ascend|npus?)\b",
        ],
        # `*npu*` alone would match `input.py`: NPU names start a word in a path.
        paths=[
            "**/npu*",
            "**/npu*/**",
            "**/*_npu*",
            "**/*_npu*/**",
            "**/*-npu*",
            "**/*ascend*",
            "**/*ascend*/**",
        ],
        # Sweeping refactors pass one NPU script among dozens of files; an NPU example added
        # beside its GPU twin (one in three) still counts.
        min_path_share=0.2,
    ),
    ThemeRule(
        name="AMD/ROCm",
        title=[r"\brocm\b", r"\bamd\b", r"\bhip\b", r"\bmi[23]\d\dx?\b"],
        paths=["**/*rocm*", "**/*rocm*/**"],
        # As for NPU: a refactor across every backend is no AMD work (tilelang's backend
        # splits touch one ROCm file among dozens).
        min_path_share=0.2,
    ),
    ThemeRule(
        name="Distillation",
        title=[r"distill", r"\bopd\b", r"\bteacher\b"],
        body=[r"on[- ]policy distillation", r"knowledge distillation"],
        paths=["**/*distill*", "**/*distill*/**"],
        min_path_share=0.5,
    ),
    ThemeRule(
        name="MoE",
        title=[
            r"\bmoe\b",
            r"mixture[ -]of[ -]experts",
            r"expert[ _-]parallel",
            r"rout(?:er|ing)[ _-]replay",
            r"-a\d+(?:\.\d+)?b\b",
        ],
        body=[r"mixture[ -]of[ -]experts", r"\bmoe\b.{0,30}\bmodel"],
    ),
    ThemeRule(
        name="Multimodal",
        title=[
            r"multi[ -]?modal",
            r"\bvlm\b",
            r"[-_ ]vl\b",
            r"\bvision\b",
            r"\bvideos?\b",
            r"\baudio\b",
            r"\bdiffusion\b",
        ],
        body=[r"multi[ -]?modal", r"\bvlm\b"],
    ),
    ThemeRule(
        name="Async/fully-async",
        # Async training, not an identifier that contains the word (tilelang's `cp.async`).
        title=[r"fully[ _-]?async", r"one[ _-]step[ _-]off", r"(?<![.\w])async(hronous)?\b"],
        paths=["**/fully_async*/**", "**/one_step_off*/**"],
        # Refactors and data features pass through the async trainer's files on their way.
        min_path_share=0.5,
        modules=["fully_async", "one_step_off"],
    ),
    ThemeRule(
        name="Agent/tools",
        title=[r"agent[ _-]?loop", r"multi[ -]?turn", r"tool[ _-]?call", r"\bagentic\b"],
        paths=["**/agent_loop/**", "**/tools/**"],
        # verl's agent loop is the rollout's main loop: many non-agent changes touch it.
        min_path_share=0.5,
        modules=["tool"],
    ),
    ThemeRule(
        name="LoRA",
        title=[r"\blora\b"],
        body=[r"\blora\b"],
    ),
    ThemeRule(
        name="Performance",
        title=[
            r"\bperf(ormance)?\b",
            r"speed[ -]?up",
            r"throughput",
            r"latency",
            r"\bfaster\b",
            r"\boom\b",
            r"memory (usage|footprint|leak)",
        ],
        modules=["perf"],
    ),
    ThemeRule(
        name="Docs",
        housekeeping=True,
        title=[r"\bdocs?\b", r"documentation", r"\breadme\b"],
        paths=["docs/**", "README*", "**/README*"],
        # A feature that documents itself is not documentation work.
        min_path_share=0.5,
        modules=["doc", "docs"],
    ),
    ThemeRule(
        name="CI/infrastructure",
        housekeeping=True,
        title=[r"\bci\b", r"\bworkflows?\b", r"pre-commit", r"nightly", r"github actions?"],
        paths=[".github/**", ".pre-commit-config.yaml", "tests/special_*/**"],
        # A feature that adds its own workflow or e2e script is not infrastructure work.
        min_path_share=0.5,
        modules=["ci"],
    ),
    ThemeRule(
        name="Docker",
        housekeeping=True,
        title=[r"docker", r"dockerfile", r"container image"],
        paths=["docker/**", "**/Dockerfile*", "**/*.dockerfile"],
        modules=["docker"],
    ),
    ThemeRule(
        name="Dependencies",
        housekeeping=True,
        title=[r"\bbump\b", r"\bupgrade\b", r"\bpin\b", r"requirements", r"dependenc"],
        paths=["requirements*.txt", "**/requirements*.txt", "setup.py", "pyproject.toml"],
    ),
)


def housekeeping_themes(rules: Sequence[ThemeRule] | None) -> dict[str, list[str]]:
    """The housekeeping themes of a rule set (`None`: the built-in rules), with their modules."""
    active = DEFAULT_THEME_RULES if rules is None else rules
    return {rule.name: list(rule.modules) for rule in active if rule.housekeeping}


@lru_cache(maxsize=1024)
def _text_regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def path_matches(path: str, glob: str) -> bool:
    return glob_regex(glob).match(path) is not None


def rule_matches(
    rule: ThemeRule, title: str, description: str, paths: Sequence[str], modules: Sequence[str]
) -> bool:
    """Whether one rule matches a PR, given its tag-free title and template-free description."""
    if any(_text_regex(p).search(title) for p in rule.title):
        return True
    if any(_text_regex(p).search(description) for p in rule.body):
        return True
    if rule.paths and paths:
        matched = sum(any(path_matches(path, glob) for glob in rule.paths) for path in paths)
        if matched and matched >= rule.min_path_share * len(paths):
            return True
    wanted = {normalise_tag(m) for m in rule.modules}
    return any(normalise_tag(m) in wanted for m in modules)


def tag_themes(
    prs: Sequence[PullRequest],
    rules: Sequence[ThemeRule] | None,
    labels: Sequence[ModuleLabel],
    config: ModulesConfig | None = None,
) -> list[ThemeTag]:
    """Every (PR, theme) pair the rules find; `rules=None` means the built-in rules."""
    active = DEFAULT_THEME_RULES if rules is None else tuple(rules)
    modules_config = config or ModulesConfig()
    modules: dict[tuple[str, int], list[str]] = {}
    for label in labels:
        modules.setdefault((label.repo, label.number), []).append(label.module)
    tags: list[ThemeTag] = []
    for pr in prs:
        title = text_without_tags(pr.title, modules_config)
        description = clean_description(pr.body)
        paths = [f.path for f in pr.files] + [f.previous_path for f in pr.files if f.previous_path]
        pr_modules = modules.get((pr.repo, pr.number), [])
        tags.extend(
            ThemeTag(repo=pr.repo, number=pr.number, theme=rule.name)
            for rule in active
            if rule_matches(rule, title, description, paths, pr_modules)
        )
    return tags
