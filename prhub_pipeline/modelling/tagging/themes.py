"""Themes: cross-cutting topics no single module names (Ascend/NPU, distillation, MoE ...).

A theme rule matches a PR when any of its title patterns matches the title (tags removed),
its path globs match a changed path (or, with `min_path_share`, that share of them and of
their changed lines, the files it removed elsewhere counted too), its body patterns match two
sentences of the description (template removed, so the checklist's mention of `docs` or `CI`
does not count) or one sentence while a changed path matches its globs, or the PR's own tags
(its title's or labels', not the classifier's guesses) name one of its modules or match its
title patterns. A CI workflow file (`.github/workflows/npu_unit_tests.yml`) counts only for
globs rooted at its directory, such as the CI theme's `.github/**`. Patterns are
case-insensitive regular expressions; globs use `**` for any number of directories. A
repository's configured rules replace the built-in ones.

A theme most of a repository's PRs carry (NPU/Ascend in vllm-ascend: 80% of its PRs that
do more than housekeeping) names what the repository is about, not what changed in a week:
reports leave such subject themes out (`subject_themes`), and the tags stay in the warehouse
for SQL.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from prhub_pipeline.config import ModulesConfig, ThemeRule
from prhub_pipeline.modelling.tagging.tags import (
    normalise_tag,
    parse_title_tags,
    text_without_tags,
)
from prhub_pipeline.modelling.text.pr_descriptions import clean_description
from prhub_pipeline.modelling.text.pr_summaries import CHANGE_VERBS
from prhub_pipeline.modelling.text.pr_titles import title_items
from prhub_pipeline.paths import (
    CI_FILES,
    DEPENDENCY_FILES,
    glob_regex,
    matches_any,
    without_rendered_copies,
)
from prhub_pipeline.records import ConfigFileDiff, ModuleLabel, PullRequest, ThemeTag

# What a bump moves when it is no dependency: a version with no package named before it (an
# upgrade to one is the upstream's: vllm-ascend's "upgrade to 0.18.0" moved vLLM), or, as an
# upgrade's, a timeout, limit or budget a few words on.
_OWN_VERSION = (
    r"\s+(?:up\s+)?(?:the\s+)?(?:main\s+branch\s+)?(?:version\s+)?(?:to\s+)?"
    r"(?:v\d|\d+\.\d)"
)
_A_LIMIT = (
    r"(?:\s+(?!(?:to|and|of)\b)[\w.+%-]+){0,4}?\s+[\w-]*?"
    r"(?:timeouts?|time[ _-]?limits?|limits?|budgets?|minutes|retries|thresholds?)\b"
)

DEFAULT_THEME_RULES: tuple[ThemeRule, ...] = (
    ThemeRule(
        name="NPU/Ascend",
        # HCCL is Ascend's collective library (verl #4885 "add Hccl ckpt engine backend").
        # "cann't" is a typo of "can't" (LLaMA-Factory #3987 fixed a WebUI hang); "CANN's" is
        # still CANN.
        title=[
            r"\bnpus?\b",
            r"ascend",
            r"\bcann\b(?!['’]t\b)",
            r"torch[_-]npu",
            r"mindspeed",
            r"\bhccl\b",
        ],
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
        # Model, class and option names carry it too (Qwen2moe, FusedMoE, moe_a2a_overlap), and
        # titles about experts are MoE work ("Support redundant experts in EPLB").
        title=[
            r"moe(?![a-z])",
            r"\bexperts?\b",
            r"\bmixtral\b",
            r"mixture[ -]of[ -]experts",
            r"expert[ _-]parallel",
            r"rout(?:er|ing)[ _-]replay",
            r"-a\d+(?:\.\d+)?b\b",
        ],
        body=[r"mixture[ -]of[ -]experts", r"\bmoe\b.{0,30}\bmodel"],
    ),
    ThemeRule(
        name="Multimodal",
        # Model and option names carry it too: kimiVL, Qwen2.5-VL, is_vlm_model, Vision2Seq.
        title=[
            r"multi[ -]?modal",
            r"(?<![a-z])vlms?(?![a-z])",
            r"\bmllms?\b",
            r"(?:[-_ ]|[a-z\d])vl\b",
            r"\bvision(?![a-z])",
            # Not a talk's recording or the GPU's memory (`add video link`, `video memory usage`).
            r"\bvideos?\b(?!\s+(?:links?|memory|recordings?)\b)",
            r"\baudio\b",
            r"\bdiffusion\b",
        ],
        body=[r"multi[ -]?modal", r"\bvlm\b"],
    ),
    ThemeRule(
        name="Async/fully-async",
        # Asynchronous training and rollout, not any async code (tilelang's `cp.async`,
        # LLaMA-Factory's "use async streamer").
        title=[
            r"full(?:y)?[ _-]?async",
            r"\bstep[ _-]off\b",
            r"(?<![.\w])async(?:hronous)?[ _-]+(?:[\w-]+[ _-]+){0,2}?(?:rl|rollouts?|training"
            r"|trainer|ppo|grpo|reward|generation|server|mode|engine|llm|vllm|sglang)\b",
        ],
        paths=["**/fully_async*/**", "**/one_step_off*/**"],
        # Refactors and data features pass through the async trainer's files on their way.
        min_path_share=0.5,
        modules=["fully_async", "one_step_off"],
    ),
    ThemeRule(
        name="Agent/tools",
        title=[
            r"agent[ _-]?loop",
            r"multi[ -]?turn",
            r"tool[ _-]?call",
            r"\bagentic\b",
            r"\bmcp\b",
            r"func(?:tion)?[ _-]?calling",
            r"\btools?[ _-]?(?:registration|schema|parser)",
        ],
        # Agent tools are named so (verl/tools/search_tool.py); a tools/ folder of developer
        # scripts is not (tilelang's tools/lower_trace.py).
        paths=["**/agent_loop/**", "**/tools/*tool*"],
        # verl's agent loop is the rollout's main loop: many non-agent changes touch it.
        min_path_share=0.5,
        # No module: a `[tool]` tag is as often a developer tool (verl's memory snapshots and
        # MLflow runs, tilelang's layout visualiser) as an agent's.
    ),
    ThemeRule(
        name="LoRA",
        # Its variants and its names in code count too: ColossalAI #5586 "[Feature] qlora
        # support", verl's `save_lora_only` and `TensorLoRARequest`. The body's mentions do not:
        # a pasted config holds `lora_rank: 0`.
        title=[r"\b(?:q|do)?loras?\b|_lora|\blora_", r"(?-i:LoRA)(?=[A-Z])"],
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
        # Not a document mask, which packing builds (torchtitan #3462 "Faster doc mask for flex
        # flash").
        title=[r"\bdocs?\b(?![ _-]?mask)", r"documentation", r"\breadme\b"],
        paths=["docs/**", "README*", "**/README*"],
        # A feature that documents itself is not documentation work.
        min_path_share=0.5,
        modules=["doc", "docs"],
    ),
    ThemeRule(
        name="CI/infrastructure",
        housekeeping=True,
        # A workflow of CI's, not of training (LLaMA-Factory's `src/llamafactory/train/*/
        # workflow.py`, #10303 "mca workflow compatible with qwen-vl series") or of people
        # (vllm-ascend #8968 "Add issue-workflow-guidelines.md"): a CI workflow file counts by
        # its path anyway.
        title=[
            r"\bci\b",
            # "building workflow": TransformerEngine #53 "add building workflow for TE/Jax"
            r"\b(?:cd|github|actions?|build(?:ing)?|release|nightly|e2e|tests?|lint)[\s/_-]+"
            r"workflows?\b",
            r"\bworkflows?[\s_-]+(?:files?|ya?ml)\b",
            r"pre-commit",
            r"nightly",
            r"github actions?",
        ],
        # Every CI system's files, as the CI-change risk flag reads them: llm-compressor's
        # Buildkite-only #2983 was flagged as a CI change under "Other unlabelled changes",
        # the trends saying no CI/infrastructure PR that week.
        paths=[".github/**", *CI_FILES, ".pre-commit-config.yaml", "tests/special_*/**"],
        # A feature that adds its own workflow or e2e script is not infrastructure work, and a
        # test file under tests/ is the change's own test (verl #7347 added one to
        # tests/special_distributed/).
        min_path_share=0.5,
        except_paths=["tests/**/test_*.py", "tests/**/*_test.py"],
        modules=["ci"],
    ),
    ThemeRule(
        name="Docker",
        housekeeping=True,
        title=[r"docker", r"dockerfile", r"container image"],
        paths=["docker/**", "**/Dockerfile*", "**/*.dockerfile"],
        # The notes beside the images are documentation (`docker/README.md`), as for the
        # Docker risk flag.
        except_paths=["**/*.md", "**/*.rst"],
        modules=["docker"],
    ),
    ThemeRule(
        name="Dependencies",
        housekeeping=True,
        # "circular dependency" is about imports, not packages (verl #31 renamed math.py).
        # Nor is a bumped timeout or limit (NVIDIA-NeMo/RL #3258 "ci: bump async-gym megatron
        # test wall-clock budget to 120 min", vllm-ascend #11998 "... bump bisect trial
        # timeout") or the project's own version (slime's "[release] bump to v0.2.3", verl's
        # "bump version to 0.10.0.dev", AReaL's "bump v0.5.0"): no package is named.
        title=[
            rf"\bbump\b(?!{_OWN_VERSION}|{_A_LIMIT})",
            rf"\bupgrade\b(?!{_A_LIMIT})",
            r"\bpin\b",
            r"requirements",
            r"(?<!circular )dependenc",
        ],
        paths=["requirements*.txt", "**/requirements*.txt", "setup.py", "pyproject.toml"],
        # A feature or fix that moves a requirement along is not dependency work: LLaMA-Factory
        # #10283, a 615-line packing fix that raised transformers' lower bound, headed its
        # week's key changes as "Dependencies", #2226 "support function calling" (2476 lines,
        # one of them in setup.py) too. Its requirement edit is still a risk flag. A PR its
        # own tag calls dependency work is (LLaMA-Factory's `[deps]`: #10634 excluded a broken
        # transformers release, and changed the version check in the code to match).
        min_path_share=0.5,
        modules=["dep", "deps", "dependency", "dependencies"],
    ),
)


# A theme carried by more than this share of a repository's stored PRs that do more than
# housekeeping is its subject; the share is judged only once there are enough such PRs to tell.
SUBJECT_SHARE = 0.5
SUBJECT_MIN_PRS = 100


@dataclass(frozen=True)
class SubjectThemes:
    """The themes that name what a repository is about, each with its share of the
    `measured_prs` stored PRs that do more than housekeeping."""

    shares: Mapping[str, float] = field(default_factory=dict)
    measured_prs: int = 0


def subject_themes(
    tags: Iterable[ThemeTag], numbers: Collection[int], housekeeping: Collection[str]
) -> SubjectThemes:
    """The themes more than SUBJECT_SHARE of a repository's stored PRs (`numbers`) that do
    more than housekeeping carry; none while there are fewer than SUBJECT_MIN_PRS such PRs.

    A PR whose themes are all `housekeeping` ones (docs, CI, images, dependencies) is left
    out of the count: such PRs carry no topic, and how many a repository keeps moves a
    topic's share of all its PRs. vllm-ascend's NPU/Ascend was 48-55% of all PRs as the
    history's first week moved (a subject or not by where it began), and is 78-83% of those
    that are more than housekeeping, where verl's, one topic among many, is 15-33%. Nor is
    housekeeping itself ever the subject: every repository does it."""
    themes_of: dict[int, set[str]] = defaultdict(set)
    for tag in tags:
        themes_of[tag.number].add(tag.theme)
    measured = [n for n in numbers if not themes_of[n] or not themes_of[n] <= set(housekeeping)]
    if len(measured) < SUBJECT_MIN_PRS:
        return SubjectThemes(measured_prs=len(measured))
    carried = Counter(theme for n in measured for theme in themes_of[n])
    shares = {
        theme: count / len(measured)
        for theme, count in sorted(carried.items())
        if theme not in housekeeping
    }
    return SubjectThemes(
        shares={theme: share for theme, share in shares.items() if share > SUBJECT_SHARE},
        measured_prs=len(measured),
    )


# A module of a theme's name that the repository's own tags give more than this share of the
# theme's stored PRs stands for the theme (`themes_named_modules_stand_for`); the modules its
# rule takes under other names, more than RULE_MODULES_SHARE.
NAMED_MODULE_SHARE = 0.5
RULE_MODULES_SHARE = 0.8


def themes_named_modules_stand_for(
    tags: Iterable[ThemeTag],
    labels: Iterable[ModuleLabel],
    rules: Sequence[ThemeRule] | None = None,
) -> set[str]:
    """The themes a module stands for: the repository tags the subject itself, under the
    theme's name on more than NAMED_MODULE_SHARE of the theme's stored PRs, or under the names
    its rule takes (`ThemeRule.modules`; `rules=None`: the built-in rules) on more than
    RULE_MODULES_SHARE (own tags only, titles' and labels', not the classifier's guesses).
    The theme's rules take those tags too, so the theme is the module again with a few PRs its
    words matched: vllm-ascend tags 57 of its 71 Performance PRs `[Performance]`, and its weeks
    read "Performance" (module) beside "Performance-related work" (theme); it tags 332 of its
    355 Docs PRs `[Doc]` and 433 of its 480 CI/infrastructure PRs `[CI]`, and its 2026-07-20
    read "CI 26" beside "CI/infrastructure 26", "Doc 34" beside "Docs 35". An occasional
    tag stands for nothing: vllm-ascend's 3 `[MoE]` PRs of its 99 MoE PRs, verl's 35 `[docker]`
    of its 144 Docker PRs. Nor does a module under another name of which the theme holds many
    more PRs: verl's `doc`, `ci` and `perf` tag 61%, 76% and 57% of its Docs,
    CI/infrastructure and Performance PRs up to 2026-05-17 (63%, 78%, 55% to 2026-06-30),
    and its themes find the docs, CI and speed work of PRs tagged for their area."""
    theme_of: dict[str, str] = {}  # the themes by their names as tags
    theme_prs: dict[str, set[int]] = defaultdict(set)
    for tag in tags:
        theme_of[normalise_tag(tag.theme)] = tag.theme
        theme_prs[normalise_tag(tag.theme)].add(tag.number)
    tagged: dict[str, set[int]] = defaultdict(set)
    for label in labels:
        if label.origin != "model":
            tagged[normalise_tag(label.module)].add(label.number)
    rule_modules = {
        normalise_tag(theme): {normalise_tag(m) for m in modules}
        for theme, modules in modules_by_theme(rules).items()
    }

    def stands_for(name: str, prs: set[int]) -> bool:
        if len(tagged[name] & prs) > NAMED_MODULE_SHARE * len(prs):
            return True
        taken = set().union(*(tagged[m] for m in rule_modules.get(name, ())), tagged[name])
        return len(taken & prs) > RULE_MODULES_SHARE * len(prs)

    return {theme_of[name] for name, prs in theme_prs.items() if stands_for(name, prs)}


def housekeeping_themes(rules: Sequence[ThemeRule] | None) -> dict[str, list[str]]:
    """The housekeeping themes of a rule set (`None`: the built-in rules), with their modules."""
    return {rule.name: list(rule.modules) for rule in _active(rules) if rule.housekeeping}


def modules_by_theme(rules: Sequence[ThemeRule] | None) -> dict[str, list[str]]:
    """Every theme of a rule set (`None`: the built-in rules) with the modules it takes."""
    return {rule.name: list(rule.modules) for rule in _active(rules)}


def _active(rules: Sequence[ThemeRule] | None) -> Sequence[ThemeRule]:
    return DEFAULT_THEME_RULES if rules is None else rules


@lru_cache(maxsize=1024)
def _text_regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def path_matches(path: str, glob: str) -> bool:
    return glob_regex(glob).match(path) is not None


def _rooted(glob: str) -> bool:
    """Whether a glob starts at a named directory (`.github/**`) or names a file (`Jenkinsfile`),
    not at a wildcard."""
    first = glob.lstrip("/").partition("/")[0]
    return not any(c in first for c in "*?[")


def _path_matches_rule(path: str, rule: ThemeRule) -> bool:
    if any(path_matches(path, glob) for glob in rule.except_paths):
        return False
    # A workflow is named after the hardware it runs on (`npu_unit_tests.yml`): that is CI
    # work, so a name pattern such as `**/npu*` does not take it (verl #4775).
    workflow = matches_any(path, CI_FILES)
    return any(path_matches(path, glob) for glob in rule.paths if _rooted(glob) or not workflow)


# A hardware backend's name as a word of a file's name (`patched_modeling_qwen3_npu.py`).
_BACKEND_WORD = re.compile(r"(?<![a-z])(?:npu|ascend|rocm|hip)(?![a-z])", re.IGNORECASE)


def _has_gpu_twin(path: str, changed: Collection[str], rule: ThemeRule) -> bool:
    """Whether the PR changed the file's GPU twin too (`..._gpu.py` or `..._cuda.py` beside
    `..._npu.py`, in the same folder), which the rule does not match: an edit carried to every
    backend, no work on this one. VeOmni's patch generator rewrites each model's GPU and NPU
    modeling files together, so its model changes had been NPU/Ascend work (#772 "precompute
    multimodal forward metadata in dataloader", 12 of its 43 files `*_npu.*`). A backend's
    folder (`backend/rocm/`) is its own code, not a twin."""
    folder, _, name = path.rpartition("/")
    prefix = f"{folder}/" if folder else ""
    twins = {prefix + _BACKEND_WORD.sub(gpu, name, count=1) for gpu in ("gpu", "cuda")}
    return any(
        twin != path and twin in changed and not _path_matches_rule(twin, rule) for twin in twins
    )


# Sentence ends, paragraph breaks and list items; a hard-wrapped line continues its sentence.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?。！？])\s+|\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)])\s)")
# One incidental sentence ("add multi-modal inputs placeholder in VLM case", verl #5969) is no
# theme; two sentences, or one that the changed paths corroborate, are.
_MIN_BODY_SENTENCES = 2


def _body_sentences(patterns: Sequence[str], description: str) -> int:
    return sum(
        any(_text_regex(p).search(sentence) for p in patterns)
        for sentence in _SENTENCE_BREAK.split(description)
    )


def rule_matches(
    rule: ThemeRule,
    title: str,
    description: str,
    paths: Sequence[str],
    modules: Sequence[str],
    changed_lines: Mapping[str, int] | None = None,
    removed: Sequence[str] = (),
    added: Collection[str] = (),
) -> bool:
    """Whether one rule matches a PR, given its tag-free title and template-free description.

    With `changed_lines` (per path), `min_path_share` holds for the lines too: VeOmni #893, a
    parallel-state refactor of 40 files, touched 8 Ascend kernels, 20% of its files but 36 of
    its 1813 lines, and was the week's first NPU change. Files the PR `removed` are no
    evidence, but count against the rule unless they match it: torchtitan #3151 removed its VLM
    experiment (16 files) and edited a line of the experiments' README, half of the files it
    left changed, and was no Docs work. A file edited for every backend at once is no
    evidence either (`_has_gpu_twin`), unless the PR `added` it: a new NPU script beside
    its GPU twin is NPU support."""
    # Housekeeping a title names after the change it leads with is that change's own (AReaL
    # #806 "chore: remove legacy code, config, and documentation", 56k lines, was no Docs
    # work; nor vllm-ascend #1477 "support pangumoe w8a8c8 and docs"), as a feature's own
    # docs files are (`min_path_share`): its files decide. An object "and" joins to the lead
    # with no verb of its own is the lead's change's, not another (`_joined_objects`).
    named = _leading_change(title) if rule.housekeeping else [title]
    if any(_text_regex(p).search(text) for p in rule.title for text in named):
        return True
    joined = _joined_objects(title) if rule.housekeeping else []
    if any(_names_the_object(_text_regex(p), item) for p in rule.title for item in joined):
        return True
    changed = set(paths)
    hits = [
        path
        for path in (paths if rule.paths else [])
        if _path_matches_rule(path, rule)
        and (path in added or not _has_gpu_twin(path, changed, rule))
    ]
    matched = len(hits)
    whole = [*paths, *(path for path in removed if not _path_matches_rule(path, rule))]
    if matched and matched >= rule.min_path_share * len(whole):
        lines = changed_lines or {}
        total = sum(lines.get(path, 0) for path in whole)
        if not total or sum(lines.get(path, 0) for path in hits) >= rule.min_path_share * total:
            return True
    if rule.body:
        sentences = _body_sentences(rule.body, description)
        if sentences >= _MIN_BODY_SENTENCES or (sentences and matched):
            return True
    wanted = {normalise_tag(m) for m in rule.modules}
    if any(normalise_tag(m) in wanted for m in modules):
        return True
    # A tag that reads as the title patterns would (tilelang's `[ROCm]`, `[MoE]`) is the
    # repository saying the theme itself: its PRs are AMD work though the rest of the title
    # names none (`[CUDA][ROCm][Metal] Split backend-specific builtin ops`).
    return any(_text_regex(p).search(_tag_words(m)) for p in rule.title for m in modules)


# A later item that names a version and nothing else (`upgrade v0.24.0`, `bump to 1.2`) moves
# the lead's own subject along: vllm-ascend #12019 "[CI] vllm drop v0.23.0 and upgrade v0.24.0"
# re-pinned vLLM in its nine Dockerfiles.
_VERSION_ONLY_ITEM = re.compile(r"^\w+\s+(?:to\s+)?v?\d+(?:\.\d+)+\S*$", re.IGNORECASE)


def _leading_change(title: str) -> list[str]:
    """The items of a title that tell the change it leads with: its first, and the versions
    that follow it."""
    first, *rest = title_items(title) or [title]
    return [first, *(item for item in rest if _VERSION_ONLY_ITEM.match(item.strip()))]


# The separators of a title's items, kept so that an item joined by "and" or "&" (one change's
# second object) is told from one after a comma (a change of its own).
_ITEM_SEPARATOR = re.compile(r"\s*(,\s*and\b|[,;+&]|\band\b)\s*", re.IGNORECASE)
_JOINS_OBJECTS = re.compile(r"^(?:&|and)$", re.IGNORECASE)
# A verb of an item's own makes it a change of its own ("... and add e2e ci", slime #990);
# `cleanup` and `solve` are verbs CHANGE_VERBS does not list (slime #559 "offload router replay
# indices and cleanup requirements.txt", vllm-ascend #10100 "Solve ... and nightly bug").
_OWN_VERB = re.compile(rf"\b(?:{CHANGE_VERBS}|cleanup|solve[sd]?)", re.IGNORECASE)
# What may follow the housekeeping word when the item names it as its object: one more noun
# (`nightly test`, `docker image`) and a phrase saying where or how (`... by workflow`).
_OBJECT_TAIL = re.compile(
    r"^(?:\s+[\w.-]+)?\s*(?:$|(?:for|by|to|in|on|of|with|from|via|based)\b)", re.IGNORECASE
)


def _joined_objects(title: str) -> list[str]:
    """The items after a title's lead that "and" or "&" join to it with no verb of their own:
    more objects of the lead's verb (vllm-ascend #3973 "Add qwen3-235b-w8a8 and qwen3-30b-w8a8
    nightly test", verl #1010 "immigrate from yapf & pylint to ruff based on pre-commit"). A
    lone word is a further thing the lead's change brings along, as its own docs (vllm-ascend
    #1477 "support pangumoe w8a8c8 and docs", AReaL #806 "remove legacy code, config, and
    documentation"): its files decide."""
    _, *rest = _ITEM_SEPARATOR.split(title)
    joined: list[str] = []
    for separator, item in zip(rest[0::2], rest[1::2], strict=True):
        if not _JOINS_OBJECTS.match(separator.strip()) or _OWN_VERB.search(item):
            break
        if len(item.split()) > 1:
            joined.append(item.strip())
    return joined


def _names_the_object(pattern: re.Pattern[str], item: str) -> bool:
    """Whether a joined item names the housekeeping as what it is about, as its last noun or
    with one noun after it: `sppo ci`, `gb200 nightly tests`, `docker image by workflow`; not
    `dockerfile build guidance` (verl #6298, a guide) or `CI failure analysis` (vllm-ascend
    #6983, an agent skill)."""
    return any(_OBJECT_TAIL.match(item[match.end() :]) for match in pattern.finditer(item))


def _tag_words(module: str) -> str:
    """A module tag as title words: `fully_async` -> `fully async`, `npu-graph` -> `npu graph`."""
    return re.sub(r"[_\-]+", " ", module)


def tag_themes(
    prs: Sequence[PullRequest],
    rules: Sequence[ThemeRule] | None,
    labels: Sequence[ModuleLabel],
    config: ModulesConfig | None = None,
    config_diffs: Sequence[ConfigFileDiff] = (),
) -> list[ThemeTag]:
    """Every (PR, theme) pair the rules find; `rules=None` means the built-in rules.

    A dependency manifest whose requirements `config_diffs` show unchanged is no evidence:
    huggingface/trl's `pyproject.toml` holds its pytest warning filters, and 3 of its week of
    2026-07-20's 10 Dependencies PRs only filtered warnings (the risk rules already saw no
    dependency change in them)."""
    active = tuple(_active(rules))
    same_requirements = {
        (diff.pr_number, diff.path)
        for diff in config_diffs
        if diff.comparable and not diff.changes and matches_any(diff.path, DEPENDENCY_FILES)
    }
    modules_config = config or ModulesConfig()
    modules: dict[tuple[str, int], list[str]] = {}
    # A guess of the classifier's is no evidence of a theme: in slime, whose PRs are mostly
    # untagged, 44 of its theme tags came from guesses alone, nearly all wrong ("Super tiny
    # rename total_train_time", `ci` at 0.10, was CI work; "Include type annotation", Docs).
    for label in labels:
        if label.origin != "model":
            modules.setdefault((label.repo, label.number), []).append(label.module)
    tags: list[ThemeTag] = []
    for pr in prs:
        title = text_without_tags(pr.title, modules_config)
        description = clean_description(pr.body)
        # What the PR leaves changed is the evidence (a removed Dockerfile made verl #4795,
        # which moved recipes out, a Docker PR); a PR that only removes files is about what it
        # removed. What else it removed counts against a rule (`rule_matches`).
        kept = [f for f in pr.files if f.edits_content] or pr.files
        kept = [f for f in kept if (pr.number, f.path) not in same_requirements]
        paths = without_rendered_copies(
            [f.path for f in kept] + [f.previous_path for f in kept if f.previous_path]
        )
        removed = [f for f in pr.files if f.status == "removed" and f not in kept]
        pr_modules = modules.get((pr.repo, pr.number), [])
        # A conventional commit's type is the title's own tag for its kind of work, as `[CI]`
        # or `[perf]` are, though removed with the tags from the title the patterns see:
        # NVIDIA-NeMo/RL's "perf: pool IsolatedWorkerInitializer per node ..." (#2739) and
        # "ci: Refactor unit tests to run in concurrent jobs" (#617) had no theme, 31 of its 40
        # `perf:` PRs and 52 of its 128 `ci:` PRs.
        title_type = parse_title_tags(pr.title, modules_config).type
        if title_type is not None:
            pr_modules = [*pr_modules, title_type]
        changed_lines = {f.path: f.lines for f in [*kept, *removed]}
        tags.extend(
            ThemeTag(repo=pr.repo, number=pr.number, theme=rule.name)
            for rule in active
            if rule_matches(
                rule,
                title,
                description,
                paths,
                pr_modules,
                changed_lines,
                [f.path for f in removed],
                {f.path for f in kept if f.status == "added"},
            )
        )
    return tags
