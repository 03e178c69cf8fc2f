"""Title parsing, description cleaning, score parts, calibration and monotonic scoring."""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from prhub_pipeline.config import ScoringConfig, load_settings
from prhub_pipeline.modelling.scoring import importance as importance_module
from prhub_pipeline.modelling.scoring.importance import (
    BATCH_KEY_LIMIT,
    BREAKING_WEIGHT,
    CALIBRATION_MIN_PRS,
    CORE_WEIGHT,
    REVERT_WEIGHT,
    SETTINGS_DROPPED_WEIGHT,
    SWEEP_SIZE_LINES,
    TOOLCHAIN_WEIGHT,
    TYPE_WEIGHTS,
    TYPICAL_RAW_POINTS,
    PrReview,
    ScoreCalibration,
    calibration_since,
    calibration_slice,
    change_shape,
    declares_no_functional_change,
    file_kind,
    fit_calibration,
    fix_impacts,
    pr_type,
    raw_history,
    resolve_revert,
    score_parts,
    score_week,
)
from prhub_pipeline.modelling.scoring.mechanical import SWEEP_MIN_FILES, names_mechanical_rewrite
from prhub_pipeline.modelling.scoring.risks import core_tests
from prhub_pipeline.modelling.text.pr_descriptions import clean_description, split_blocks
from prhub_pipeline.modelling.text.pr_summaries import sentences, shorten, subject_keys, summarize
from prhub_pipeline.modelling.text.pr_titles import change_kind, closing_references, parse_title
from prhub_pipeline.paths import matches_any
from prhub_pipeline.records import (
    FileChange,
    FileStatus,
    ModuleLabel,
    PullRequest,
    Review,
    ReviewData,
    ReviewThread,
    SettingChange,
    ThreadComment,
)
from prhub_pipeline.reverts import read_revert, reverted_number
from prhub_pipeline.stages.ingest import windows_for
from prhub_pipeline.stages.scoring import load_history
from prhub_pipeline.warehouse import connect, replace_partition
from prhub_pipeline.warehouse.modules import module_tables
from prhub_pipeline.warehouse.prs import pr_tables
from prhub_pipeline.weeks import week_of
from prhub_pipeline_tests.conftest import write_config

REPO = "verl-project/verl"
CONFIG = ScoringConfig(core_paths=["verl/**/*.py"])
MERGED = datetime(2026, 5, 12, 3, 0, tzinfo=UTC)

# A description shaped like verl's PR template, with the author's text in the middle.
VERL_BODY = """### What does this PR do?

> Add **concise** overview of what this PR aims to achieve or
accomplish. Reference related GitHub issues and PRs that help with the
review.

Fix the loss mask used for the attention mask in the NO_PADDING path. The old mask
was response-only, so KL was abnormally high.

Fixes #6278

### Checklist Before Starting

- [x] Search for similar PRs. Paste at least one query link here: ...
- [x] Format the PR title as `[{modules}] {type}: {description}` (This
will be checked by the CI)
- If this PR breaks any API (CLI arguments, config, function signature,
etc.), add `[BREAKING]` to the beginning of the title.

### Test

> For changes that can not be tested by CI (e.g., algorithm
implementation, new model support), validate by experiment(s) and show
results like training curve plots, evaluation results, etc.

### API and Usage Example

> Demonstrate how the API changes if any, and provide usage example(s)
if possible.

```python
# Add code snippet or script demonstrating how to use this
```

### Checklist Before Submitting

> [!IMPORTANT]
> Please check all the following items before requesting a review,
otherwise the reviewer might deprioritize this PR for review.

- [ ] Read the [Contribute Guide](https://github.com/verl-project/verl/blob/main/CONTRIBUTING.md).
"""


def make_pr(
    number: int,
    title: str = "[fsdp] fix: something",
    *,
    body: str = "",
    files: list[tuple[str, int, int]] | None = None,
    merged_at: datetime = MERGED,
    author: str | None = "alice",
    **extra: object,
) -> PullRequest:
    changes = [
        FileChange(path=path, additions=added, deletions=deleted, status="modified")
        for path, added, deleted in (files if files is not None else [("verl/a.py", 10, 2)])
    ]
    return PullRequest(
        repo=REPO,
        number=number,
        title=title,
        body=body,
        author=author,
        merged_at=merged_at,
        additions=sum(c.additions or 0 for c in changes),
        deletions=sum(c.deletions or 0 for c in changes),
        changed_files=len(changes),
        files=changes,
        **extra,  # type: ignore[arg-type]
    )


def history(count: int = 120) -> list[PullRequest]:
    """A varied synthetic history: types, sizes and core shares cycle."""
    titles = [
        "[fsdp] fix: crash in loader",
        "[doc] chore: typo",
        "[trainer] feat: add option",
        "[ci] chore: bump image",
        "[rollout] refactor: split module",
        "[tests] test: more cases",
    ]
    prs = []
    for i in range(count):
        lines = 3 * (i % 17 + 1) ** 2
        path = "verl/core.py" if i % 3 else "examples/run.sh"
        prs.append(
            make_pr(
                1000 + i,
                titles[i % len(titles)],
                files=[(path, lines, i % 5), ("docs/x.md", i % 7, 0)],
                merged_at=MERGED - timedelta(days=count - i),
            )
        )
    return prs


# ---------------------------------------------------------------------------------------------
# Titles and descriptions


@pytest.mark.parametrize(
    ("title", "pr_type", "breaking", "tags"),
    [
        ("[BREAKING][fsdp, megatron] feat: dynamic batching", "feat", True, ["fsdp", "megatron"]),
        ("[1/N][fsdp] refactor: split engine", "refactor", False, ["fsdp"]),
        ("[Docker,vLLM] Fix: image", "fix", False, ["docker", "vllm"]),
        ("fix(rollout): handle empty batch", "fix", False, []),
        ("feat!: add python 3.13, drop 3.9", "feat", True, []),
        ("Fix crash when loading checkpoints", "fix", False, []),
        ("[doc] update the readme", "doc", False, ["doc"]),
        ("docs: new tutorial", "doc", False, []),
        ('Revert "[fsdp] fix: emit outputs (#6293)"', "revert", False, []),
        ("cleanup of things", "refactor", False, []),
        ("Disable fused kernels in prime", "other", False, []),
        ("prefix caching for rollouts", "other", False, []),
        # no type up front: the first verb, a scope's first verb, or a fix named anywhere
        ("Allow users to pass in a custom compute_score", "feat", False, []),
        ("[model] clean obsolete models", "refactor", False, ["model"]),
        ("rollout: Fix native_rollout class names", "fix", False, []),
        ("megatron：Update megatron-lm to core_r0.11.0", "chore", False, []),
        ("[ckpt]: nccl broadcast bucket size fix", "fix", False, ["ckpt"]),
        ("[Bug fix] make max_model_len configurable", "fix", False, ["bug fix"]),
        # tilelang tags its type in brackets, beside its areas
        ("[Enhancement] Expose cluster_mask on T.tma_copy", "feat", False, ["enhancement"]),
        ("[Layout][Typo] Unify the names", "doc", False, ["layout", "typo"]),
        ("[CUDA] Remove reads for tma_gather4", "refactor", False, ["cuda"]),
        ("[CUDA] Split backend-specific builtin ops", "refactor", False, ["cuda"]),
        ("Restore the eplb config after a reload", "fix", False, []),
        ("Drop the unused torchair patch", "refactor", False, []),
        # slime says how small a change is before its verb
        ("Super tiny refactor the rollout address computation", "refactor", False, []),
        ("Tiny remove unused line", "refactor", False, []),
        ("Small update of the kl checker logs", "chore", False, []),
        ("[Testing] Gate CUDA-only tests", "test", False, ["testing"]),
        ("(fix):not have encoder_only attr cause run failed", "fix", False, []),
        ("[Feat](Mooncake) Supports multiple input suffixes", "feat", False, ["feat"]),
        # ms-swift's, vllm-ascend's and slime's
        ("compat transformers==4.52 (vlm)", "fix", False, []),
        ("[CI] Auto-update estimated test times", "chore", False, ["ci"]),
        ("Nominate new maintainers", "chore", False, []),
        ("[docker] bugfixes on cp + pp", "fix", False, ["docker"]),
        ("Fix-up the rollout seed", "fix", False, []),
        # vllm-ascend's
        ("[Performance] Change the shape of kv_cache", "perf", False, ["performance"]),
        ("[BREAKING][refact]: move actor/critic into workers", "refactor", True, ["refact"]),
        ("[misc] breaking: datasets as required args", "other", True, ["misc"]),
        ("BREAKING CHANGE: move recipe.dapo.src to recipe.dapo", "refactor", True, []),
        # TransformerEngine's bare verb phrases; a fix named later says more than such a verb
        ("[PyTorch] Preserve FP8 recompute state for inner autocast", "fix", False, ["pytorch"]),
        ("[JAX] Deprecate Praxis layers", "refactor", False, ["jax"]),
        ("Adding slice to fix failure with multi-devices.", "fix", False, []),
        ("[Common] MXFP8: Add swizzled-scale fast path", "feat", False, ["common"]),
        ("FP8 Support for MCore MoE", "feat", False, []),
        # A title naming what is now supported is a feature; support as a purpose says nothing
        ("[Diffusion] Qwen image support", "feat", False, ["diffusion"]),
        ("[V1] MTP supports torchair", "feat", False, ["v1"]),
        (
            "[NPU][Model] Use cos and sin cache for Z-Image to support NPU",
            "other",
            False,
            ["npu", "model"],
        ),
        (
            "[Docker Image] use latest vLLM (0.8.5) to fully support Qwen3 moe",
            "other",
            False,
            ["docker image"],
        ),
        ("[Readme] EPLB Support Scenarios", "doc", False, ["readme"]),
        ("[Refact.] Remove the unused quant config", "refactor", False, ["refact."]),
        ("[JAX] Skip V100 encoder tests", "test", False, ["jax"]),
        ("Disable routing replay for critic", "other", False, []),
        ("[train] Harden KTransformers MoE LoRA SFT integration", "fix", False, ["train"]),
        ("[JAX] Adapt to Flax 0.7.1", "fix", False, ["jax"]),
        ("Fuse amax computation into activation kernel", "perf", False, []),
        ("[JAX] Fused layers argument default values changed", "other", False, ["jax"]),
        ("Temporarily remove comm_gemm tests", "refactor", False, []),
        # apache/tvm's past tenses and gerunds.
        ("[TIR] Improved error message in InjectSoftwarePipeline", "feat", False, ["tir"]),
        ("[MetaSchedule] Introducing MemHammer", "feat", False, ["metaschedule"]),
        ("[CI] Updated cibw to 4.1.0", "chore", False, ["ci"]),
        ("[TIRx] Phase out flat device-intrinsic op aliases", "refactor", False, ["tirx"]),
        ("[TIR] Reject non-floating inputs for trig unary ops", "fix", False, ["tir"]),
        ("[SVE] Check for SVE target in VectorizeLoop", "fix", False, ["sve"]),
        ("[Unity][Frontend] Translate StableHLO to Relax", "other", False, ["unity", "frontend"]),
        # hpcaitech/ColossalAI's past tenses, style passes and bot
        ("[fp16] refactored fp16 optimizer", "refactor", False, ["fp16"]),
        ("[model] supported ERNIE4.5 Text Models", "feat", False, ["model"]),
        ("[fx] patched torch.full for huggingface opt", "fix", False, ["fx"]),
        ("[autoparallel] handled illegal sharding strategy", "fix", False, ["autoparallel"]),
        ("[NFC] polish colossalai/amp/naive_amp/_utils.py code style", "chore", False, ["nfc"]),
        ("Automated submodule synchronization", "chore", False, []),
        ("[FIX BUG] convert env param to int", "fix", False, ["fix bug"]),
        # open-mmlab/mmengine's type-only tags
        ("[Enhance] Change the default backend", "feat", False, ["enhance"]),
        ("[CLI] refactored the launch CLI and fixed bugs", "refactor", False, ["cli"]),
        ("[workflow] patched the release to fix the wheel name", "fix", False, ["workflow"]),
        # llvm/torch-mlir's dependency moves and code owners, whatever the verb
        ("Integrate LLVM at 10dbfc4863c9aea2fb237022c3f47fc24c02265e", "chore", False, []),
        ("Integrate llvm-project at dabdec1001dc", "chore", False, []),
        ("Integrate at top of tree to support decode", "feat", False, []),
        ("[TOSA] Add code owner", "chore", False, ["tosa"]),
        # tidied code, however the title opens (slime, torchtitan); not a clean-up the code does
        ("Super tiny code cleanup", "refactor", False, []),
        ("[Misc] Code clean up", "refactor", False, ["misc"]),
        ("[RL] Some cleanups around `hf_assets_path`", "refactor", False, ["rl"]),
        (
            "[compiler toolkit] Code deduplication between llama3 and deepseek_v3",
            "refactor",
            False,
            ["compiler toolkit"],
        ),
        (
            "[CI] terminate parent process before children in RemoteOpenAIServer cleanup",
            "chore",
            False,
            ["ci"],
        ),
        # CI and the build are upkeep, where the title's words say no type (`ci:` is a chore)
        ("[CI] Change A2 runner", "chore", False, ["ci"]),
        ("[CI][Misc] Use domestic npm mirror", "chore", False, ["ci", "misc"]),
        ("[Build] Prefer libs from local build dir", "chore", False, ["build"]),
        # `Build` is the build's own work when it builds the build's artefacts; building a
        # thing of the code is none (llm-compressor #2718, a key change typed chore).
        ("Build scripts for pip wheels", "chore", False, []),
        ("[CI] Build Image for v0.16.0rc1", "chore", False, ["ci"]),
        ("build SmoothQuant mapping dynamically for MoE", "other", False, []),
        ("[gpt_oss] Build flex masks via the shared helper", "other", False, ["gpt_oss"]),
        ("[CI] Fix flaky test", "fix", False, ["ci"]),
        ("[CI] Add Qwen3 accuracy test", "test", False, ["ci"]),
        ("[Misc] Limit ray version", "other", False, ["misc"]),
        # vllm-ascend follows vLLM's main branch, as a dependency bump does
        ("[CI] main2main vllm 0814 cdc4824", "chore", False, ["ci"]),
        ("Main2main upgrade to vllm 0317 afternoon", "chore", False, []),
        ("adapt to main2main for model runner v2", "fix", False, []),
        # weak first words that mostly say fix
        ("Pass the original input to all PP stages", "fix", False, []),
        ("Only rank0 should call post_process_weights", "fix", False, []),
        ("[CUDA] Align swizzled TMA shared buffers", "fix", False, ["cuda"]),
        ("Add an option to pass extra args", "feat", False, []),
        # a pin set back is a dependency moved (tpu-inference, FastVideo), not a PR undone
        (
            "Revert vLLM LKG to fa4321de3d (vllm #47070 breaks set_forward_context)",
            "chore",
            False,
            [],
        ),
        ("[bugfix] revert fastvideo kernel version to 0.2.6", "chore", False, ["bugfix"]),
        ('Revert "Bump torch to 2.5"', "revert", False, []),
        # a re-land quoting its change has that change's type
        (
            'Reapply "[MoE] [Refactor] Remove manual memory cleanup (#3365)" (#3483)',
            "refactor",
            False,
            [],
        ),
        ('Re-land "Enable bucketing pass in precompile path" (#3107)', "feat", False, []),
        ("[RL] Reapply Compilation in RL", "other", False, ["rl"]),
        ("Revert the cache change to fix CI", "revert", False, []),
        # torchtitan's: first words that say a type, a refactor named as the subject, and
        # PyTorch's `[BE]` (better engineering) as upkeep where the words say no type
        ("Unbreak CI", "fix", False, []),
        ("Upgrades torchtitan-ubuntu docker image to 22.04", "chore", False, []),
        ("Deduplicate experiment configs by deriving from base ones", "refactor", False, []),
        ("[SAC] Centralize selective AC policy", "refactor", False, ["sac"]),
        ("[graph_trainer] Standardize Graph Pass Signature", "refactor", False, ["graph_trainer"]),
        ("[BC Breaking] Config System Refactor: TOML to Python Dataclass", "refactor", True, []),
        ("[rl] Env rollout based + controller refactor", "refactor", False, ["rl"]),
        ("[rl] Trainer refactor (#2985)", "refactor", False, ["rl"]),
        ("async gather tp weights without refactor", "other", False, []),
        ("Generator refactoring", "refactor", False, []),
        ("[BE] Apply pep585 and turn on flake8 rule", "chore", False, ["be"]),
        ("[BE week] Disable CPU wheel builds in nightly CI", "chore", False, ["be week"]),
        ("[RL][BE] Reapply Compilation in RL", "chore", False, ["rl", "be"]),
        ("[BE] Move model creation out of generate function", "refactor", False, ["be"]),
        # what a linter, type checker or formatter reports is upkeep, whatever the verb
        # (torchtitan #3133 was a key fix); an annotation, a type check or a format of the
        # code's own is not (verl #5223's annotation broke loading a config)
        ("Fix linter", "chore", False, []),
        ("[CI] fix lint", "chore", False, ["ci"]),
        ("[ci] fix: fix precommit", "chore", False, ["ci"]),
        ("[misc] fix: fix format", "chore", False, ["misc"]),
        ("Super tiny fix main lint error", "chore", False, []),
        ("Fix Pyrefly type errors for Tensor.item() return type", "chore", False, []),
        ("[CI] Fix run ruff check error caused by w4a16mxfp4", "chore", False, ["ci"]),
        ("Remove unused pyrefly ignores in token_dispatcher", "chore", False, []),
        ("Fix lint errors in worker.py and rollout.py", "chore", False, []),
        # ... but not when "and" adds another change
        ("Fix lint errors in worker.py and a deadlock in the scheduler", "fix", False, []),
        ("[Typing] Improve ModelProtocol typing", "chore", False, ["typing"]),
        (
            "[model,cfg] fix: type annotation for Lora target_modules",
            "fix",
            False,
            ["model", "cfg"],
        ),
        ("[Bugfix] Fix the output format", "fix", False, ["bugfix"]),
        ("[data] fix: update parquet_files type check for many files", "fix", False, ["data"]),
        ("[sglang] fix format issue and data file path issue", "fix", False, ["sglang"]),
        ("Fix TypeError by removing duplicate arguments", "fix", False, []),
        ("[CI] feat: add mypy to pre-commit", "feat", False, ["ci"]),
        # a title whose object is tests is a test change (tpu-inference's #252 led its week as
        # a feature of 540 test lines)
        ("Add test for pallas_torchax.py", "test", False, []),
        ("[CI] Add qwen2.5-vl test", "test", False, ["ci"]),
        ("Adds unit tests for core_tpu.py", "test", False, []),
        ("Add FP8 support and tests", "feat", False, []),
        ("Add test-time scaling to the rollout", "feat", False, []),
        # a dash before the PR it follows up is no `test-time`
        ("[CI] add a5 nightly multi test- #14112", "test", False, ["ci"]),
        ("feat: add tests for the sampler", "feat", False, []),
        ("Adding my name to TorchToLinalg maintainership", "chore", False, []),
        # a kind of change after an area, as the module tags read it (AReaL #359 was other)
        ("[Emergency fix] Display error in Doc", "fix", False, ["emergency fix"]),
        ("[minor fix] job config", "fix", False, ["minor fix"]),
        (
            "[DistillationTrainer refactor] Share the loss",
            "refactor",
            False,
            ["distillationtrainer refactor"],
        ),
        ("[Doc & Fix] Simplify the environment setup procedure", "refactor", False, ["doc & fix"]),
        # how far a change goes says nothing of its kind
        (
            "[Feature] [refactor] Slightly refactor inference engine IO",
            "refactor",
            False,
            ["feature", "refactor"],
        ),
        ("Further relax the timeout of the rollout", "other", False, []),
        # AReaL's governance type (#1227 was a feature by its verb, #1307 a 6.4 one)
        ("gov: add maintainer", "chore", False, []),
        ("gov: enforce 2-approval merge policy on main", "chore", False, []),
        ("gov(agents)!: add maintainer ownership for service modules", "chore", True, []),
        ("Remove CODEOWNERS", "chore", False, []),
        # licences and their headers are upkeep too, unless the title says its type
        ("[Misc] Remove incorrect ASF license headers from src files", "chore", False, ["misc"]),
        ("[LICENSE] Add LICENSE for flashinfer", "chore", False, ["license"]),
        ("Update copyright year in file headers", "chore", False, []),
        ("[misc] fix: add license", "fix", False, ["misc"]),
        # ms-swift's type with its scope in one bracket
        ("[Bugfix (rlhf)] skip model reload", "fix", False, ["bugfix", "rlhf"]),
        ("[WIP (draft)] skip model reload", "other", False, ["wip (draft)"]),
        # a list of changes led by a feature is that feature (lmdeploy #4835)
        ("Intern-S2 meta-MoE support, MoE gate v2, CP attention fixes", "feat", False, []),
        ("Hy3 support and bug fixes", "feat", False, []),
        ("Qwen3 support fixes", "fix", False, []),
        ("CP attention fixes, Qwen3 support", "fix", False, []),
        # docstrings are documentation (tilelang's CodeRabbit PRs), a checker of them is not
        ("📝 Add docstrings to `mxfp4`", "doc", False, []),
        ("Add detailed docstrings to the loader", "doc", False, []),
        ("[ci] feat: add docstring checker script", "feat", False, ["ci"]),
        ("Add docstring checker script", "feat", False, []),
        ("Add docstring coverage check to CI", "feat", False, []),
        ("Add docstrings and a new fused MoE kernel", "feat", False, []),
        ("Update docstrings for the rollout API.", "doc", False, []),
        ("Write docstrings for the loader", "doc", False, []),
        ("Generate docstrings", "doc", False, []),
        # documentation as the object is a docs change (torchtitan #2162, TransformerEngine
        # #1816); docs naming something else, or one change of several, are not
        ("Add docs to explain COMM_MODE", "doc", False, []),
        ("Add docs for missing FP8 recipes.", "doc", False, []),
        ("[JAX] Add tutorial for integrating TE/JAX quantization", "doc", False, ["jax"]),
        ("Adding documents to TE/JAX", "doc", False, []),
        ("[Doc][Feature] Add Qwen3 tutorial", "doc", False, ["doc", "feature"]),
        ("feat: add deepscaler guide", "doc", False, []),
        ("[CI] Add doc linkcheck", "feat", False, ["ci"]),
        ("add doc ci", "feat", False, []),
        ("[CI] Add docs/yaml sync validation for tutorials", "feat", False, ["ci"]),
        ("Add Ascend npu doc and dependency", "feat", False, []),
        ("Add support for building docs", "feat", False, []),
        ("Add a new model and its docs", "feat", False, []),
        # PyTorch's marker of a breaking change (torchtitan #2386), and a series' place
        ("[BC Breaking] feat: new config system", "feat", True, []),
        ("[BC-breaking][fsdp] refactor: x", "refactor", True, ["fsdp"]),
        ("[1/X] Refactor: split the trainer", "refactor", False, []),
        # taking something out is no new feature (verl #7374, vllm-ascend #12496)
        ("[ci, trainer] feat: remove mindspeedllm backend", "refactor", False, ["ci", "trainer"]),
        ("[Feature] Remove additional config option", "refactor", False, ["feature"]),
        ("[rollout] feat: deprecate all rollout sharding managers", "refactor", False, ["rollout"]),
        ("feat: drop-in replacement for the sampler", "feat", False, []),
        ("feat: removable storage backends", "feat", False, []),
        ("feat: deprecation warnings for the old engine", "feat", False, []),
    ],
)
def test_parse_title(title: str, pr_type: str, breaking: bool, tags: list[str]) -> None:
    info = parse_title(title)
    assert (info.type, info.breaking, info.prefix_tags) == (pr_type, breaking, tags)


# TransformerEngine's PR template, as GitHub returns it when the author ticks nothing.
TYPE_OF_CHANGE_TEMPLATE = """# Description

Please include a brief summary of the changes, relevant motivation and context.

Fixes # (issue)

## Type of change

- [ ] Documentation change (change only to the documentation, either a fix or a new content)
- [ ] Bug fix (non-breaking change which fixes an issue)
- [ ] New feature (non-breaking change which adds functionality)
- [ ] Breaking change (fix or feature that would cause existing functionality to not work)
- [ ] Infra/Build change
- [ ] Code refactoring

## Changes

Please list the changes introduced in this PR:

- Change A
- Change B
"""


def _ticked(*boxes: str) -> str:
    body = TYPE_OF_CHANGE_TEMPLATE
    for box in boxes:
        body = body.replace(f"- [ ] {box}", f"- [x] {box}")
    return body


def test_a_long_run_of_check_words_is_typed() -> None:
    """The check words could split in many ways: a 95-character title took 1.9 s, and each
    word more multiplied it by 1.6 (this one would have run for days; now it takes
    milliseconds, which benchmarks/text_rules.py measures over real titles)."""
    assert parse_title("Fix lint " + "ci " * 60 + "x,").type == "fix"


@pytest.mark.parametrize(
    ("title", "body", "pr_type", "breaking"),
    [
        ("EP dispatch with unfused MXFP8 quantization", TYPE_OF_CHANGE_TEMPLATE, "other", False),
        ("EP dispatch with unfused MXFP8 quantization", _ticked("New feature"), "feat", False),
        ("EP dispatch", _ticked("Bug fix", "Breaking change"), "fix", True),
        # The title's type wins; two ticked types say none.
        ("Add EP dispatch", _ticked("Bug fix"), "feat", False),
        ("EP dispatch", _ticked("Bug fix", "Code refactoring"), "other", False),
        ("EP dispatch", _ticked("Infra/Build change"), "chore", False),
        ("[BREAKING] feat: EP dispatch", TYPE_OF_CHANGE_TEMPLATE, "feat", True),
        # ms-swift's template
        ("Qwen3.5 FLA", "# PR type\n- [ ] Bug Fix\n- [X] New Feature\n", "feat", False),
    ],
)
def test_a_ticked_type_of_change_box_types_a_title_that_names_none(
    title: str, body: str, pr_type: str, breaking: bool
) -> None:
    assert change_kind(title, body) == (pr_type, breaking)


def test_a_ticked_type_of_change_box_scores_like_the_type() -> None:
    untyped = make_pr(1, "EP dispatch with unfused MXFP8 quantization")
    ticked = untyped.model_copy(update={"body": _ticked("New feature", "Breaking change")})
    parts = score_parts(ticked, [], CONFIG)
    assert score_parts(untyped, [], CONFIG)["type"] == TYPE_WEIGHTS["other"]
    assert parts["type"] == TYPE_WEIGHTS["feat"] and parts["breaking"] > 0


def test_template_instructions_left_in_are_no_summary() -> None:
    assert clean_description(TYPE_OF_CHANGE_TEMPLATE) == ""
    assert summarize("[JAX] Handle meshes", TYPE_OF_CHANGE_TEMPLATE) == "Handle meshes"
    written = TYPE_OF_CHANGE_TEMPLATE.replace("- Change A", "- Read the mesh from jax.set_mesh")
    assert summarize("[JAX] Handle meshes", written) == "Read the mesh from jax.set_mesh"
    swift = "# PR information\n\nWrite the detail information belongs to this PR.\n"
    assert summarize("Support GLM-5", swift) == "Support GLM-5"
    # A lead-in to a table, which is left out, introduces nothing (vllm-ascend #5977).
    table = "**Scope of Changes**:\n| File Path |\n| :--- |\n| `vllm_ascend/envs.py` |\n"
    assert summarize("[Lint]Style: Convert to ruff format", table) == "Convert to ruff format"


@pytest.mark.parametrize(
    ("title", "subject"),
    [
        ("[BREAKING][refact]: move actor/critic into workers", "move actor/critic into workers"),
        ("[Refactor](kv_pool): simplify metadata helpers", "simplify metadata helpers"),
        ("[bugfix](pcp) expand max_num_tokens for pcp pad", "expand max_num_tokens for pcp pad"),
        ("(fix): fix values response mask", "fix values response mask"),
        ("[fsdp] - handle empty batch", "handle empty batch"),
        ("[fsdp] fix: handle empty batch", "handle empty batch"),
        ("fix: handle empty batch", "handle empty batch"),
        ("-1 is not a valid rank", "-1 is not a valid rank"),
        ("[ci]:", ":"),
        ("[misc] breaking: pass dataset as required args", "pass dataset as required args"),
        ("BREAKING: move recipe.dapo.src", "move recipe.dapo.src"),
        # A tag the sentence goes on from stays (llm-compressor #2340); a purpose needs none.
        ("[DDP] for sequential pipeline", "DDP for sequential pipeline"),
        (
            "[CI] to solve cache mismatch in image building",
            "to solve cache mismatch in image building",
        ),
    ],
)
def test_the_subject_is_the_title_without_its_prefix(title: str, subject: str) -> None:
    assert parse_title(title).subject == subject


def test_clean_description_drops_the_template_and_keeps_the_author_text() -> None:
    cleaned = clean_description(VERL_BODY)
    assert "Fix the loss mask" in cleaned and "abnormally high" in cleaned
    for boilerplate in (
        "Add **concise**",
        "accomplish. Reference",
        "Checklist",
        "- [x]",
        "can not be tested",
        "Add code snippet",
        "[!IMPORTANT]",
        "### Test",  # a heading left with nothing under it
    ):
        assert boilerplate not in cleaned


def test_a_traceback_pasted_as_text_is_no_summary() -> None:
    """llm-compressor #2618 pastes its CI's traceback unfenced, each line behind the runner's
    prefix: its summary was the frame `E (EngineCore pid=1) File "/usr/lib/subprocess.py",
    line 1026, in __init__`."""
    body = (
        "E (EngineCore pid=1) File\n"
        '"/usr/lib/python3.12/subprocess.py",\nline 1026, in __init__\n'
        "E (EngineCore pid=1) FileNotFoundError: No such file or directory: 'ninja'\n\n"
        "The test's subprocess now runs in the virtual environment, which has ninja."
    )
    assert summarize("Fix CI failure", body) == (
        "The test's subprocess now runs in the virtual environment, which has ninja."
    )


def test_backticks_closed_on_their_line_are_a_code_span_not_a_fence() -> None:
    """vllm-ascend #10379 names a file as "```tests/test_mem.py```": no fence, whose info string
    holds no backtick; read as one, it turned the fences after it inside out."""
    lines = ["This fixes the test in:", "```tests/test_mem.py```", "", "```bash", "File x", "```"]
    assert split_blocks(lines) == [
        ("text", ["This fixes the test in:"]),
        ("text", ["```tests/test_mem.py```"]),
        ("text", [""]),
        ("code", ["```bash", "File x", "```"]),
    ]


def test_a_code_span_between_runs_of_backticks_reads_as_one_span() -> None:
    """vllm-ascend #10379's summary showed "```tests/.../test_aclgraph_mem.py```" as written."""
    body = "This PR fixes the memory test failure in:\n```tests/test_mem.py```\n\nMore text."
    assert summarize("t", body) == "This PR fixes the memory test failure in: `tests/test_mem.py`"
    assert summarize("t", "Adds a check for empty ``BUFFER`` and its tests.") == (
        "Adds a check for empty `BUFFER` and its tests."
    )


def test_a_code_block_closes_only_at_a_fence_of_its_own_character() -> None:
    """A Python traceback marks the failing expression with `~~~~^^^^`, which opens as a `~~~`
    fence does: verl #4962's summary was the traceback's last line, and the block's real closing
    fence then opened a block of the rest."""
    lines = ["```log", "  scores - mean_g[g]", "  ~~~~~~~^~~~~~~~~~~", "RuntimeError: x", "```"]
    assert split_blocks([*lines, "Move the scores to the device."]) == [
        ("code", lines),
        ("text", ["Move the scores to the device."]),
    ]


@pytest.mark.parametrize(
    ("title", "body", "expected"),
    [
        (
            "[fsdp] fix: x",
            VERL_BODY,
            "Fix the loss mask used for the attention mask in the NO_PADDING path. "
            "The old mask was response-only, so KL was abnormally high.",
        ),
        ("[fsdp] fix: build the mask", "", "Build the mask"),
        (
            "t",
            "Fixes #12\n\nRename the flag so users find it.",
            "Rename the flag so users find it.",
        ),
        # The template's question as a plain line, and a reference-only line, are no summary.
        (
            "t",
            "What does this PR do?\nRouter replay assumed all layers are MoE.",
            "Router replay assumed all layers are MoE.",
        ),
        (
            "t",
            "### What does this PR do?\n\ndetail in this issue: #5878\n\nAdapt VLM to NPU.",
            "Adapt VLM to NPU.",
        ),
        # Links alone, or the rest of a title GitHub cut short, say nothing the title does not.
        (
            "t",
            "https://github.com/o/n/issues/287, https://github.com/o/n/issues/295.\n\n"
            "Adds Math-Verify.",
            "Adds Math-Verify.",
        ),
        (
            "t",
            "https://github.com/o/n/issues/287,\nhttps://github.com/o/n/issues/295.\n"
            "Adds a scorer.",
            "Adds a scorer.",
        ),
        # A link the sentence goes on from is its subject (verl #7434), and what is left of a
        # list item once its link is gone is only a note on it (verl #5599).
        (
            "t",
            "https://github.com/o/n/pull/13 introduced a regression for vLLM.\n\n"
            "The skip is SGLang-specific and must not be applied to vLLM.",
            "The skip is SGLang-specific and must not be applied to vLLM.",
        ),
        (
            "t",
            "https://github.com/o/n/pull/4606 still has some issues in supporting vLLM 0.12.0.",
            "https://github.com/o/n/pull/4606 still has some issues in supporting vLLM 0.12.0.",
        ),
        (
            "t",
            "Needs:\n- https://github.com/p/q/pull/35077 (part of the changes)\n"
            "- https://github.com/p/q/pull/36976\n"
            "- move the normalization out of the sender and into the receiver",
            "Move the normalization out of the sender and into the receiver",
        ),
        (
            "t",
            "Address the first issue in\nhttps://github.com/o/n/pull/3281#issuecomment-1\n\n"
            "Currently the keys come from the first row of the microbatch.",
            "Currently the keys come from the first row of the microbatch.",
        ),
        (
            "t",
            "目前的position_ids有两个bug：\n\n本 PR 修复 position_ids 的两个问题。",
            "本 PR 修复 position_ids 的两个问题。",
        ),
        (
            "[x] fix: a title cut at validat…",
            "…ion when the set is large",
            "A title cut at validat…",
        ),
        # A reference sentence opening the paragraph, or one that is all a paragraph says.
        (
            "t",
            "Fixes #2656 and #2899. When the vocab is odd, tiles overrun.",
            "When the vocab is odd, tiles overrun.",
        ),
        (
            "t",
            "Fix #3238. Follow #2815.\n\n#2815 left out grouping by uid; this PR adds it.",
            "#2815 left out grouping by uid; this PR adds it.",
        ),
        (
            "t",
            "Fixes #12 by adding a lock around the cache.",
            "Fixes #12 by adding a lock around the cache.",
        ),
        # A list item's wrapped lines belong to it; a long item that ends in a link is no reference.
        (
            "t",
            "1. vLLM 0.9 does not support `x=None`; this\nparameter must be a `dict`.\n2. Two.",
            "vLLM 0.9 does not support `x=None`; this parameter must be a `dict`.",
        ),
        (
            "t",
            "1. fix 3d position_ids in SFT trainer introduced in\nhttps://github.com/o/n/pull/5\n",
            "Fix 3d position_ids in SFT trainer introduced in https://github.com/o/n/pull/5",
        ),
        # A sentence run into the next after a name in mixed case (verl #7147).
        (
            "[vllm] fix: guard legacy FusedMoE loader patch",
            "Fixes `AttributeError: 'function' object has no attribute 'weight_loader'` when"
            " importing `verl.utils.vllm` with modular vLLM.Use latest vllm-ascend&verl&vllm.",
            "Fixes `AttributeError: 'function' object has no attribute 'weight_loader'` when"
            " importing `verl.utils.vllm` with modular vLLM.",
        ),
        # The names a short sentence acts on say what it does; a long span is pasted code.
        (
            "[rollout] fix: TypeError merging numpy routed_experts on partial rollout resume",
            "Convert `routed_experts` to `numpy.ndarray`.",
            "Convert `routed_experts` to `numpy.ndarray`.",
        ),
        (
            "t",
            "Changed `copy_to_local(self.config.model.path, use_shm)` to"
            " `copy_to_local(self.config.model.path, use_shm=use_shm)`\n\n"
            "Fixed two calls where use_shm was passed as positional argument",
            "Fixed two calls where use_shm was passed as positional argument",
        ),
        # A file's path as an item of its own is no summary; a bold item is.
        (
            "t",
            "* **`verl/agent_loop/agent_loop.py`**\n\n* Use the default loop when none is set.",
            "Use the default loop when none is set.",
        ),
        (
            "t",
            "Bugs when hsdp is on:\n- **Incorrect division in batch sizes**",
            "Bugs when hsdp is on: incorrect division in batch sizes.",
        ),
        # Emphasis is dropped; a product's stars and a code span's are not emphasis.
        (
            "t",
            "vLLM wraps *every* layer, so `*ForCausalLM` and bs*seq*vocab grow by 2 * n.",
            "vLLM wraps every layer, so `*ForCausalLM` and bs*seq*vocab grow by 2 * n.",
        ),
        # A lead-in whose list or code the summary leaves out ends as a sentence.
        (
            "t",
            "Get rid of the following warning:\n\n```\nUserWarning: x is deprecated\n```",
            "Get rid of the following warning.",
        ),
        # verl's 2025 template placeholders, one of them over two lines.
        (
            "t",
            "### Additional Info.\n\n- **Issue Number**: Fixes issue # or discussion # if any.\n"
            "- **Training**: [Note which backend this PR will affect: FSDP, Megatron,\n"
            "both, or none]\n\nAdd RM-R1 to the awesome work list.",
            "Add RM-R1 to the awesome work list.",
        ),
        # "As title," says the title is the summary; a sentence starts with a capital, an
        # identifier keeps its case.
        (
            "t",
            "### What does this PR do?\n\nAs title, move `hf_transfer` into requirements-npu.txt.",
            "Move `hf_transfer` into requirements-npu.txt.",
        ),
        (
            "t",
            "vllm_ascend patches are applied lazily now.",
            "vllm_ascend patches are applied lazily now.",
        ),
        # Background first, then what the PR does: the latter is the summary, unless it only
        # points back at the background or the first paragraph already says what is done.
        (
            "t",
            "### What does this PR do?\n\nCurrently the cache is rebuilt on every step.\n\n"
            "This PR keeps the cache across steps and clears it on reload.",
            "This PR keeps the cache across steps and clears it on reload.",
        ),
        (
            "t",
            "### What does this PR do?\n\nCurrently the cache is rebuilt on every step.\n\n"
            "This PR fixes the above issue.",
            "Currently the cache is rebuilt on every step.",
        ),
        # vllm-ascend #13412: a paragraph that names what it changes only by pointing back
        # ("that ordering") leaves the background as the summary; one whose `by` clause says
        # the change does not (verl #4143).
        (
            "t",
            "### What does this PR do?\n\nPR #13268 moved quant-method selection into the"
            " constructor. Before it, the BF16 weights were created first.\n\nThis change"
            " restores that ordering when `quant_config is None`.",
            "PR #13268 moved quant-method selection into the constructor. Before it, the BF16"
            " weights were created first.",
        ),
        (
            "t",
            "### What does this PR do?\n\nThe torchvision pin is ignored on upgrade.\n\nThis PR"
            " solves this conflict, by moving the torchvision pin into the dockerfile.",
            "This PR solves this conflict, by moving the torchvision pin into the dockerfile.",
        ),
        (
            "t",
            "### What does this PR do?\n\nWe bring MXFP8 quantization to the rollout.\n\n"
            "We also fixed the rotary embedding on NPU along the way.",
            "We bring MXFP8 quantization to the rollout.",
        ),
        (
            "t",
            "### Summary\n\nAdds a retry to the weight sync.\n\n"
            "This PR also renames the bucket helper for the new transfer path.",
            "Adds a retry to the weight sync.",
        ),
        # verl #5556 wrote over the template's quote, and hard-wrapped a table's rows: the
        # quote is the summary, a wrapped row's tail is table, not text.
        (
            "t",
            "### What does this PR do?\n\n> Add one-line overview of what this PR aims to"
            " achieve.\n\n> The V2 version expands the skip rollout capability from V1.\n\n"
            "### Design & Code Changes\n\n| File | Responsibility |\n|------|------|\n"
            "| `verl/utils/rollout_skip.py` | Core logic: `RolloutSkip` class,\n"
            "wrapper functions, dump reading and writing |\n",
            "The V2 version expands the skip rollout capability from V1.",
        ),
        (
            "t",
            "| `verl/utils/rollout_skip.py` | Core logic: `RolloutSkip` class,\n"
            "wrapper functions, dump reading and writing |\n\nKeeps dumps across steps.",
            "Keeps dumps across steps.",
        ),
        # vllm-ascend #13358: a wrapped row's first line ends in `|` too; its next line is
        # still the table (it was the summary), which runs to the blank line or a heading.
        (
            "t",
            "### What this PR does / why we need it?\n\n| Files | Upstream change |\n|---|---|\n"
            "| `vllm_ascend/__init__.py` |\n[vllm#48841](https://github.com/vllm-project/vllm/"
            "pull/48841) — added `from triton.experimental import gluon` |\n\nKeeps the"
            " Ascend patches in step with vLLM main.",
            "Keeps the Ascend patches in step with vLLM main.",
        ),
        # A dropped checklist item takes its hard-wrapped lines with it (verl #2973 was
        # summarised as "Guide](https://...CONTRIBUTING.md). checks](...)").
        (
            "Fix the missing hf command",
            "### What does this PR do?\n\n> Fix the missing hf command\n\n- [x] Read the"
            " [Contribute\nGuide](https://github.com/volcengine/verl/blob/main/CONTRIBUTING.md)."
            "\n- [x] Apply [pre-commit\nchecks](https://github.com/volcengine/verl/blob/main/"
            "CONTRIBUTING.md#code-linting-and-formatting):\n`pre-commit install && pre-commit run"
            " --all-files --show-diff-on-failure\n--color=always`\n- [x] Once your PR is ready"
            " for CI, send a message in [the `ci-request`\nchannel](https://verl-project.slack.com"
            "/archives/C091TCESWB1) in [the\n`verl` Slack\nworkspace](https://join.slack.com/t/"
            "verl-project/shared_invite/zt-3855yhg8g).\n(If not accessible, please try [the"
            " Feishu group\n(飞书群)](https://applink.larkoffice.com/client/chat/chatter).)\n",
            "Fix the missing hf command",
        ),
        # vllm-ascend's bot ends every description with version lines: they are no summary,
        # so the title stands (359 of its PRs were summarised as "vLLM version: v0.x").
        (
            "t",
            "### What this PR does / why we need it?\n\n- [x] Patch the vision attention.\n\n"
            "### How was this patch tested?\n\n- [x] Functional test\n\n- vLLM version: v0.11.2"
            "\n- vLLM main: https://github.com/vllm-project/vllm/commit/2918c1b",
            "T",
        ),
        # Trailers are no summary (vllm-ascend #1419, #2080), nor a bot's `vLLM version: main`.
        (
            "t",
            "Signed-off-by: leo-pony <leo@example.com>\n\n(cherry picked from commit 816375e)"
            "\n\n- vLLM version: release/v0.13.0\n\nAdd the multi-NPU Qwen3-MoE tutorial.",
            "Add the multi-NPU Qwen3-MoE tutorial.",
        ),
        # LLaMA-Factory #6896 says nothing but its migrated commit's trailer: the title stands.
        ("t", "Former-commit-id: f78d5a3eca947ed965ca2f6c87d60441b1a59867", "T"),
        ("t", "Reviewed-by: A <a@example.com>\n\nTidy the loop.", "Tidy the loop."),
        # torch-mlir's trailers written with spaces, and references to another repository.
        ("t", "Signed-Off By: A <a@example.com>", "T"),
        ("t", "Co-authored by: a@example.com\n\nTidy the loop.", "Tidy the loop."),
        ("t", "Closes nod-ai/SHARK-Turbine#290", "T"),
        ("t", "Closes nod-ai/SHARK-Turbine/issues/689", "T"),
        ("t", "Reverts vllm-project/vllm-ascend#12515", "T"),
        (
            "t",
            "Reverts vllm-project/vllm-ascend#4194 as it broke CI in https://example.com/run/1",
            "Reverts vllm-project/vllm-ascend#4194 as it broke CI in https://example.com/run/1",
        ),
        # verl's `As per title.`; vllm-ascend's RFC pointer on the line above the summary.
        ("t", "As per title.", "T"),
        # A template's user-facing-change question answered no (vllm-ascend #680, #13367).
        (
            "[Doc] fix pip install cmd",
            "### What this PR does / why we need it?\nFix pip install cmd\n\n"
            "### Does this PR introduce _any_ user-facing change?\nNo, doc only\n\n"
            "### How was this patch tested?\nPreview",
            "Fix pip install cmd",
        ),
        ("t", "No. This is a documentation-only update.", "T"),
        ("t", "Not involved", "T"),
        # A greeting opens the description (24 of apache/tvm's summaries were 'Hi Committers.'),
        # and a request for comments closes it.
        (
            "[Relax][ONNX] Normalize negative indices",
            "Hi Committers,\n\nONNX `Gather` allows negative indices. Any suggestions would be"
            " appreciated if you are available.",
            "ONNX `Gather` allows negative indices.",
        ),
        (
            "t",
            "Hi @mshr-h @tlopex,\n\nFix the escape sequence warning.",
            "Fix the escape sequence warning.",
        ),
        (
            "t",
            "Dear reviewers,\nThe old batch_norm mixed up the two modes.",
            "The old batch_norm mixed up the two modes.",
        ),
        (
            "t",
            "Hey team! Fixed errors in the megatron workers. Thanks!",
            "Fixed errors in the megatron workers.",
        ),
        (
            "t",
            "Hi there, when both are set the error is not raised.",
            "When both are set the error is not raised.",
        ),
        ("t", "Hi Committers,\n\nThanks in advance!", "T"),
        # Greeting words that start a sentence are kept.
        ("t", "Hello world example prints the version.", "Hello world example prints the version."),
        ("t", "Hey this is broken. Fix the cache.", "Hey this is broken. Fix the cache."),
        (
            "t",
            "Thanks to the new cache, the warmup is gone.",
            "Thanks to the new cache, the warmup is gone.",
        ),
        # ... nor where a bold line under the test heading heads the figures (vllm-ascend #2474).
        (
            "[main] convert the format of gmm to nz",
            "### What this PR does / why we need it?\nconvert the format of gmm to nz\n\n"
            "### How was this patch tested?\nut: test_fused_ops.py\n\n**performance**:\n"
            "(qwen3 30B, 2k->20k)\n\nbase:\nTotal Token throughput (tok/s): 719.93",
            "Convert the format of gmm to nz",
        ),
        # A caption over results shown below it is no summary (verl #7188), in either language.
        (
            "[trainer] feat: support decouple ppo",
            "### What does this PR do?\n\nas the title\n\n"
            'test result （mimo 7b， dapo dataset）\n\n<img alt="image" src="https://x/a.png" />',
            "Support decouple ppo",
        ),
        ("t", "测试结果（Qwen3-8B，gsm8k）：\n\n![](https://x/a.png)", "T"),
        (
            "t",
            "Results are identical to the previous implementation.",
            "Results are identical to the previous implementation.",
        ),
        # A numbered list on one line is its items (vllm-ascend #1186, #4993); a version is no
        # item number.
        (
            "t",
            "1.add static EPLB unit test 2.fix bug: Tensor cannot be judged by if statements",
            "Add static EPLB unit test; fix bug: Tensor cannot be judged by if statements",
        ),
        (
            "t",
            "(1)refactor npu_model_runner for profile_run. (2) move the comm method",
            "Refactor npu_model_runner for profile_run; move the comm method",
        ),
        ("t", "1、Train the 1.5B model faster", "Train the 1.5B model faster"),
        # After a lead, a list is its items when there are two (vllm-ascend #5204, #7561).
        (
            "t",
            "Remove unused attributes from set_forward_context 1.prefetch_stream 2.weight_method",
            "Remove unused attributes from set_forward_context: prefetch_stream; weight_method",
        ),
        (
            "t",
            "This pr modifies the nightly CI config. (1) Add a nightly CI . (2) Set a tighter bar",
            "This pr modifies the nightly CI config. Add a nightly CI; Set a tighter bar",
        ),
        (
            "t",
            "Bump the trainer to version 1. It is faster",
            "Bump the trainer to version 1. It is faster",
        ),
        ("t", "1、修复缓存加载失败 2、更新文档", "修复缓存加载失败；更新文档"),
        # A Markdown list item that holds the whole list.
        ("t", "1. support deepspeed on ui 2. add tools", "Support deepspeed on ui; add tools"),
        # A list's first item alone is no summary (vllm-ascend #11463): its lead-in with the
        # list is; nor is a bot's version line (`version: release/v0.13.0`). A Chinese sentence
        # has no spaces.
        (
            "t",
            "Standardize three docs:\n\n- **MiniMax-M2.md**\n- **Qwen3-30B.md**",
            "Standardize three docs: MiniMax-M2.md; Qwen3-30B.md.",
        ),
        ("t", "1. Cache cos/sin in mla\n\nversion: release/v0.13.0", "Cache cos/sin in mla"),
        ("t", "cp=2时position_ids错了一位", "cp=2时position_ids错了一位"),
        (
            "t",
            "### What does this PR do?\n\n[> Add **concise** overview of what this PR aims to"
            "\nachieve.]\nSetting `ignore_eos` had no effect before.",
            "Setting `ignore_eos` had no effect before.",
        ),
        (
            "t",
            "-->\nThe FIAv2 operator now runs in graph mode.",
            "The FIAv2 operator now runs in graph mode.",
        ),
        (
            "t",
            "RFC: https://github.com/o/r/issues/4629\nReason： Eliminate duplicate code.",
            "Eliminate duplicate code.",
        ),
        (
            "t",
            "RFC #7394\nAdd the GDN gating operator on 310P.",
            "Add the GDN gating operator on 310P.",
        ),
        # vllm-ascend's template heading is a summary section: what the PR does is preferred
        # to the background before it.
        (
            "t",
            "### What this PR does / why we need it?\n\nThe MLA graph cache held strong"
            " references to tensors.\n\nThis PR wraps the cached tensors in weak references.",
            "This PR wraps the cached tensors in weak references.",
        ),
        # A reference on a line of its own is not part of the next sentence (vllm-ascend
        # #13888, #13819), and a sentence that only counts the items after it is no summary
        # (#13532).
        (
            "t",
            "### What this PR does / why we need it?\nCome from : https://github.com/o/n/issues/7"
            "\nRefactor the fused MoE runtime arguments into\na dataclass package.",
            "Refactor the fused MoE runtime arguments into a dataclass package.",
        ),
        (
            "t",
            "## Summary\nFollow up from https://github.com/o/n/pull/13216\nThis PR unifies the"
            " dynamic speculative decoding logic.",
            "This PR unifies the dynamic speculative decoding logic.",
        ),
        (  # torchtitan #4162: why it is a re-land is not what it does
            "t",
            "Reland of https://github.com/o/n/pull/4044 because I did\na rookie mistake of"
            " merging ghstack opened PRs.\n\nThis makes the GEMM backend a property of the"
            " model config.",
            "This makes the GEMM backend a property of the model config.",
        ),
        (  # vllm-ascend #500: the PR it backports
            "t",
            "### What this PR does / why we need it?\nBackport: https://github.com/o/n/pull/252"
            "\nThis support speculative decoding in Ascend.",
            "This support speculative decoding in Ascend.",
        ),
        # What the PR does not do is no summary (torchtitan #3559).
        (
            "t",
            "#### Known limitations\n- Pipeline parallelism needs a different capture boundary."
            "\n\n#### No warmup needed\nNumerics already match without a warmup iteration.",
            "Numerics already match without a warmup iteration.",
        ),
        # torchtitan #4045: "inheriting from <url>" over the lead-in of its list.
        (
            "t",
            "## Summary\ninheriting from https://github.com/o/n/pull/3869\n  Fix async TP setup"
            " by:\n\n  - enabling symmetric memory on the TP group\n  - adding a mesh helper",
            "Fix async TP setup by enabling symmetric memory on the TP group; adding a mesh"
            " helper.",
        ),
        (
            "t",
            "### What this PR does / why we need it?\nthis pr accomplish two things\n1. change"
            " some description of input parameter to avoid re-compilation\n2. clean dead code",
            "Change some description of input parameter to avoid re-compilation",
        ),
        # The template's headings pasted as plain lines are headings (vllm-ascend #2037, verl
        # #6715 under a `---`), and how a patch was tested is no summary (vllm-ascend #368: the
        # title again, then "test manually").
        (
            "t",
            "What this PR does / why we need it?\n\ntest device allocator and stream ops\n"
            "Does this PR introduce any user-facing change?\n\nN/A\nHow was this patch tested?"
            "\n\nCI passed with new added test.",
            "Test device allocator and stream ops",
        ),
        (
            "t",
            "## [model] feat: support Gemma4\n\n---\nWhat does this PR do?\n\nAdds support for"
            " Gemma4 multimodal models in RL.\n\nChecklist Before Starting\n\n- [x] Search",
            "Adds support for Gemma4 multimodal models in RL.",
        ),
        (
            "[Doc]Add developer guide for using OpenCompass",
            "### What this PR does / why we need it?\nAdd developer guide for using OpenCompass\n\n"
            "### How was this patch tested?\n\ntest manually",
            "Add developer guide for using OpenCompass",
        ),
        # A commit's subject as the description says what changed without its tags and type
        # (tilelang #2846, verl #1998).
        (
            "[CUDA][TMA] t",
            "[CUDA] Refactor TMA atomic add layout validation",
            "Refactor TMA atomic add layout validation",
        ),
        (
            "t",
            "[doc] fix: revert previous ray cluster description",
            "Revert previous ray cluster description",
        ),
        # So does a type before what is done (TransformerEngine #2580, tilelang #1899); before
        # what went wrong, the type is the verb and stays (verl #2358).
        (
            "fix(build): Handle namespace packages for PyPI CUDA detection",
            "Fix: handle nvidia namespace packages where file is None",
            "Handle nvidia namespace packages where file is None",
        ),
        ("t", "fix(cpu): skip redundant re-lowering", "Skip redundant re-lowering"),
        ("t", "Fix: install NPU requirements", "Install NPU requirements"),
        # A number that ends a sentence is no list's number (verl #1770: "set to 0. This is a
        # breaking change ...").
        (
            "t",
            "In this PR, the default value of entropy_coeff in the actor config is set to 0. This"
            " is a breaking change that may affect your experiment, as the default was 1e-3 for"
            " most of the recipes we ship today.",
            "In this PR, the default value of entropy_coeff in the actor config is set to 0.",
        ),
        ("t", "Fix: pre-commit broken by #2354", "Fix: pre-commit broken by #2354"),
        # A wrapped line that opens with a number goes on with its sentence (vllm-ascend
        # #9780); a numbered list run into one paragraph ends a sentence before each number,
        # and its numbers end nothing (vllm-ascend #9160); after a lead, its items are joined
        # (verl #2421).
        (
            "t",
            "## Summary\n\n- `npu_quant_matmul` does not support weight dimensions >=\n65536. When"
            " DSA context parallel is enabled, the layer fails.\n- Split the weight.\n",
            "`npu_quant_matmul` does not support weight dimensions >= 65536. When DSA context"
            " parallel is enabled, the layer fails.",
        ),
        (
            "t",
            "Revise the KV Pool user guide:\n4. Revise parameters for Memcache for clarity.\n"
            "5. Modify the condition for the warmup.",
            "Revise the KV Pool user guide: revise parameters for Memcache for clarity; modify the"
            " condition for the warmup.",
        ),
        (
            "t",
            "This PR safely bumps the minimum python version of the package to 3.10 for two"
            " reasons: 1. `removeprefix` came in 3.9. 2. Python 3.9 is no longer supported by"
            " the vLLM releases we test against.",
            "This PR safely bumps the minimum python version of the package to 3.10 for two"
            " reasons: `removeprefix` came in 3.9; Python 3.9 is no longer supported by the vLLM"
            " releases we test against.",
        ),
        # A quote elsewhere is someone else's words (an issue, a log), not the summary.
        (
            "t",
            "> RuntimeError: CUDA error: an illegal memory access was encountered\n\n"
            "Guard the index before the gather.",
            "Guard the index before the gather.",
        ),
        # A byte-order mark hid the template heading (vllm-ascend #9801); a zero-width space
        # led the sentence (#8083).
        (
            "t",
            "\ufeff### What this PR does / why we need it?\n\nFixes #9800.\n\n"
            "This PR adds two verified vLLM refs.",
            "This PR adds two verified vLLM refs.",
        ),
        ("t", "\u200b the aim is to add a triton op.", "The aim is to add a triton op."),
        # Paragraph breaks written escaped (vllm-ascend #12605) part sentences; in quoted model
        # output before a heading (#6940) or in code they are the text's own.
        (
            "t",
            "Restore the causal mask for FIA decode paths.\\n\\nThe decode mask optimization"
            " introduced by #11266 causes an accuracy regression.",
            "Restore the causal mask for FIA decode paths.",
        ),
        (
            "t",
            'Join the parts with `"\\n\\n".join(parts)`.\\n\\n## Output',
            'Join the parts with `"\\n\\n".join(parts)`.\\n\\n## Output',
        ),
        # A bot's file list in HTML code spans and a link of two words say nothing; the
        # sentence that counts the files does (vllm-ascend's translation PRs).
        (
            "[Doc] Translated Doc files 2026-04-14",
            "## Auto-Translation Summary\n\nTranslated **42** file(s):\n\n-\n"
            "<code>docs/source/locale/zh_CN/LC_MESSAGES/community/governance.po</code>\n-\n"
            "<code>docs/source/locale/zh_CN/LC_MESSAGES/faqs.po</code>\n\n---\n\n"
            "[Workflow\nrun](https://github.com/vllm-project/vllm-ascend/actions/runs/1)",
            "Translated 42 file(s).",
        ),
        # A link whose words say the change is kept (tilelang's pre-commit.ci updates).
        (
            "[pre-commit.ci] pre-commit autoupdate",
            "updates:\n- [github.com/pre-commit/mirrors-clang-format: v21.1.8 → v22.1.0]"
            "(https://github.com/pre-commit/mirrors-clang-format/compare/v21.1.8...v22.1.0)",
            "github.com/pre-commit/mirrors-clang-format: v21.1.8 → v22.1.0",
        ),
        # Where the PR comes from opens the paragraph; what it does follows (verl #6276), but
        # a fix that names what it fixes says what it does (#3861).
        (
            "t",
            "Split from #6118. This PR adds generic audio data plumbing.",
            "This PR adds generic audio data plumbing.",
        ),
        (
            "t",
            "Follow-up work for #4639, #5297. This is one of the PRs to support FlowGRPO.",
            "This is one of the PRs to support FlowGRPO.",
        ),
        (
            "t",
            "Fix a bug introduced in #3285. Currently the initialization steps are:",
            "Fix a bug introduced in #3285.",
        ),
        # A sentence that only says where to read more is no summary (torchtitan #3950,
        # #3832, verl #6790), unless it also says what is done (vllm-ascend #7446).
        (
            "[rl] Patch readline-import issue which causes VLLMGenerator hang",
            "The reason is explained in the in-line comments. This issue seems to be caused by"
            " a recent change in vllm, which introduces a tilelang import.",
            "This issue seems to be caused by a recent change in vllm, which introduces a"
            " tilelang import.",
        ),
        (
            "Pin MONARCH_ACTOR_QUEUE_DISPATCH to 0",
            "See the inline comments for rationale.",
            "Pin MONARCH_ACTOR_QUEUE_DISPATCH to 0",  # the title: nothing beyond it
        ),
        (
            "t",
            "See above. Currently the colocated group never switches to the rollouter.",
            "Currently the colocated group never switches to the rollouter.",
        ),
        # `--` marks an item like `-` (vllm-ascend #8959); a flag left unformatted is a
        # command, not a sentence (#6442); a pasted table (its delimiter row) and the timings
        # under "Benchmarking" say what was measured (torchtitan #1804).
        (
            "[P/D][BugFix] Fix for transmit kv cache failure",
            "-- When kv cache transmit failed, blocks with load errors are marked invalid.\n"
            "-- For the layerwise connector, add a FAILED_SENDING_MSG signal.",
            "When kv cache transmit failed, blocks with load errors are marked invalid.",
        ),
        (
            "[Refactor] MLP weight prefetch",
            "Refactor MLP weight prefetch to match the MoE prefetching.\n"
            "The environment variables are removed, usage as following:\n\n"
            '--additional-config \'{"weight_prefetch_config": {"enabled": true}}\'',
            "Refactor MLP weight prefetch to match the MoE prefetching.",
        ),
        (
            "[DSV3] Offload dequantization process to DCP QuantizedHFReader",
            "## Benchmarking\nThe whole load took 193.87 seconds on 32 nodes.\n\n"
            "Step | time | log\n-- | -- | --\nto_hf() | 0.11s | converted 189 keys",
            "Offload dequantization process to DCP QuantizedHFReader",
        ),
        # A sentence that went on from the title's words stands alone (verl #2390).
        (
            "[Hardware] feat: Support AMD (ROCm Kernel) - Update Dockerfile/Docker Image",
            "Support AMD (ROCm Kernel) - Update Dockerfile/Docker Image\n\nAlso allow VLM training",
            "Allow VLM training",
        ),
        # What the author folded away is no summary, nor does its HTML run on from the
        # sentence before it (Dependabot's release notes, verl #646).
        (
            "chore(deps): bump sglang from 0.4.3 to 0.4.4",
            "Bumps sglang from\n0.4.3 to 0.4.4.\n<details>\n<summary>Release notes</summary>\n"
            "<p>The SGLang team is excited to announce the release.</p>\n</details>",
            "Bumps sglang from 0.4.3 to 0.4.4.",
        ),
        # A cited source is no summary either (torchtitan #3927, #2389), unless what follows
        # the citation says what changes (vllm-ascend's `Reference #2167 and o_proj TP supports
        # ACL graph.`).
        (
            "[rl] add window FIFO scheduling",
            "**reference: minimax paper section 6.2.4 of\nhttps://arxiv.org/pdf/2605.26494**\n\n"
            "Windowed FIFO relaxes strict ordering only within a bounded look-ahead window.",
            "Windowed FIFO relaxes strict ordering only within a bounded look-ahead window.",
        ),
        (
            "Execute moe.gate in float32",
            "Original discussion #2225.\n\nPer comments this PR now changes the gate to happen"
            " in f32.",
            "Per comments this PR now changes the gate to happen in f32.",
        ),
        (
            "t",
            "Reference #2167 and o_proj TP supports ACL graph.",
            "Reference #2167 and o_proj TP supports ACL graph.",
        ),
        (
            "[CI] Add pre-commit check for patch logger",
            "See https://github.com/o/n/pull/7402, pre-commit hook will forbid init_logger"
            " in patch modules",
            "See https://github.com/o/n/pull/7402, pre-commit hook will forbid init_logger in"
            " patch modules",
        ),
        # Emoji and gitmoji that decorate the start go; a leading code span stays.
        ("t", "📝 Add docstrings to `mxfp4`", "Add docstrings to `mxfp4`"),
        ("t", ":pencil2: fix typo in the guide", "Fix typo in the guide"),
        ("t", "`hexp` is defined to `fast_exp` twice.", "`hexp` is defined to `fast_exp` twice."),
        # A sentence run into the next without a space is two sentences (vllm-ascend #13192);
        # a name with a dot stays one (`torch.Tensor`, `subprocess.Popen`).
        (
            "w4a8_mxfp4 adapted for modelrunnerv2",
            "w4a8_mxfp4 adapted for modelrunnerv2.When `modelrunnerv2.Run` is initialized, the "
            "method is stored in the kwargs.This fixes the lookup.",
            "When `modelrunnerv2.Run` is initialized, the method is stored in the kwargs. This "
            "fixes the lookup.",
        ),
        (
            "t",
            "Replace copy.deepcopy with torch.Tensor.clone and mock subprocess.Popen in tests.",
            "Replace copy.deepcopy with torch.Tensor.clone and mock subprocess.Popen in tests.",
        ),
        # Text under a screenshot a lead-in announced says what the screenshot shows (verl
        # #7408); after a screenshot nothing announced, the text says what the PR does (#4674).
        (
            "add a profiler post hook, fix the torch profiler's behaviour",
            "### What does this PR do?\n\n1. add a profiler post hook, the API works with:\n\n"
            "```\nprofiler.finish_hook_cmd=upload\n```\n\n"
            "2. fix the torch profiler's behaviour.\n\n"
            "Now the torch profiler's discrete mode creates:\n\n"
            '<img width="241" alt="image"\nsrc="https://github.com/user-attachments/assets/f"\n/>'
            "\n\nWhen discrete=False, the actors' results are fused into one trace file.\n\n"
            "For rollout:\n\n![image](https://github.com/user-attachments/assets/d)\n\n"
            "Discrete mode also writes one file per step for the trainer.",
            "Fix the torch profiler's behaviour.",
        ),
        (
            "t",
            "### What does this PR do?\n\nRelated to #4661\n\n"
            '<img width="1000" alt="image"\nsrc="https://github.com/user-attachments/assets/a"\n/>'
            "\n\nUpdated the ignore list to use full commit SHAs so git reads it.\n\n"
            "After the fix:\n\n![image](https://github.com/user-attachments/assets/b)",
            "Updated the ignore list to use full commit SHAs so git reads it.",
        ),
        # A line all in bold titles its list item (tilelang #595) or, outside a list, heads
        # the lines below it as a heading would (vllm-ascend #5119, #9160).
        (
            "Refactor to support upstream tvm",
            "**Summarize part of the rebase pr:**\n\n"
            "1. **Support T.thread_return() → CUDA return syntax**  \n"
            "   Added support for translating `T.thread_return()` to CUDA's `return`.\n\n"
            "2. **Dynamic type support**  \n   Functions now accept dynamic types.",
            "Support T.thread_return() → CUDA return syntax: Added support for translating "
            "`T.thread_return()` to CUDA's `return`.",
        ),
        (
            "t",
            "- **修复 NPU 上的错误**\n  迁移后不再有 Critic worker 可用。",
            "修复 NPU 上的错误：迁移后不再有 Critic worker 可用。",
        ),
        (
            "restore matmul_allreduce_add_rmsnrom aclnn interface",
            "**What this PR does / why we need it?**\n"
            "restore a2 matmul_allreduce_add_rmsnrom kernel aclnn interface\n\n"
            "**Does this PR introduce _any_ user-facing change?**\nNo",
            "Restore a2 matmul_allreduce_add_rmsnrom kernel aclnn interface",
        ),
        (
            "[CI]Remove quantization e2e test case",
            "**Remove quantization e2e test case**\n"
            "To reduce the e2e running time, the e2e test cases related to quantization are"
            " deleted.",
            "To reduce the e2e running time, the e2e test cases related to quantization are"
            " deleted.",
        ),
        # A dunder name is no bold text (verl #2172 read `RayPRIMETrainer.init()`); bold
        # words between double underscores are.
        (
            "[recipe] fix: parameter order in RayPRIMETrainer super().__init__() call",
            "Fixes the parameter order in `RayPRIMETrainer.__init__()` when calling"
            " `super().__init__()` from __main__.py, __really__.",
            "Fixes the parameter order in `RayPRIMETrainer.__init__()` when calling"
            " `super().__init__()` from __main__.py, __really__.",
        ),
        (
            "[NFC] polish colossalai/amp/__init__.py code style",
            "",
            "Polish colossalai/amp/__init__.py code style",
        ),
        (
            "t",
            "Note: __this changes the default__ for all models.",
            "Note: this changes the default for all models.",
        ),
        # A link hard-wrapped after its scheme is one link (verl #5104).
        (
            "t",
            "Based on https:\n//example.com/perf_tuning.rst, add the Ascend tuning methods"
            " for fusion.",
            "Based on https://example.com/perf_tuning.rst, add the Ascend tuning methods"
            " for fusion.",
        ),
        # vllm-ascend's template question as a numbered item over its answer (#5271).
        (
            "moe_gating_top_k",
            "1. What this PR does / why we need it?\nThis PR supports the moe_gating_top_k"
            " operator.\n2. Does this PR introduce any user-facing change?\nNo.",
            "This PR supports the moe_gating_top_k operator.",
        ),
        # A reference after what is done, in either case (verl #487, #1713).
        (
            "t",
            "Set timeout in CI to avoid infinite hang. close #468",
            "Set timeout in CI to avoid infinite hang.",
        ),
        (
            "t",
            "Add fsdp2 to the SFT trainer. Resolve issue #1504. It shards by module.",
            "Add fsdp2 to the SFT trainer. It shards by module.",
        ),
        # A link whose text holds a PR's tags reads as its text (vllm-ascend #806).
        (
            "t",
            "Fix the V1 error broken by [[v1] Pass BlockTable to builders #17483](https://"
            "github.com/vllm-project/vllm/pull/17483), so InputBatch matches vllm.",
            "Fix the V1 error broken by [v1] Pass BlockTable to builders #17483, so InputBatch"
            " matches vllm.",
        ),
        # No emphasis in code or keyword arguments; bold italics and Chinese bold are emphasis.
        (
            "t",
            "Pass `**kwargs` to `model(**inputs)` and f(**a, **b), ***not*** 这是**重要**的.",
            "Pass `**kwargs` to `model(**inputs)` and f(**a, **b), not 这是重要的.",
        ),
    ],
)
def test_summary_is_the_first_author_sentences(title: str, body: str, expected: str) -> None:
    assert summarize(title, body) == expected


def test_a_purpose_section_is_the_authors_summary() -> None:
    """llm-compressor's authors head their text `## Purpose ##`; a bot's `Summary by ...`
    below it was preferred, and #1559's summary read "Breaking Changes"."""
    body = (
        "## Purpose ##\n* Simplify how sequential targets are inferred by dropping the\n"
        "modifiers' own argument\n\n## Changes ##\n* Remove the argument from modifiers\n\n"
        "## Summary by CodeRabbit\n\n* **Breaking Changes**\n* Removed the parameter."
    )
    assert summarize("Remove `sequential_targets` from modifiers", body) == (
        "Simplify how sequential targets are inferred by dropping the modifiers' own argument"
    )
    # A bold `**Purpose**` line heads the section too.
    bold = "**Purpose**\nLet the loader read sharded checkpoints.\n\n**Summary**\nSee below."
    assert summarize("t", bold) == "Let the loader read sharded checkpoints."


def test_an_item_in_bold_over_plain_items_names_them() -> None:
    """CodeRabbit's summary lists `* **New Features**` over its `* Made ...` items: llm-compressor
    #2649's summary read "New Features". Items all in bold stay a list."""
    body = (
        "## Purpose ##\n* Fix #2648\n\n## Summary by CodeRabbit\n\n* **New Features**\n"
        "* Made the maximum sequence length optional; the tokenizer's default governs it.\n"
        "* Warn when padding is used beside a maximum length.\n\n* **Tests**\n"
        "* Added tests for truncation."
    )
    # As a heading over a list, the label leads its items (`_lead_ins_with_their_items`).
    assert summarize("[Bugfix] Truncate pre-tokenized datasets", body) == (
        "New Features: made the maximum sequence length optional; the tokenizer's default"
        " governs it; warn when padding is used beside a maximum length."
    )
    files = "Standardize the install section in three docs:\n\n- **a.md**\n- **b.md**"
    assert summarize("[Doc] x", files) == (
        "Standardize the install section in three docs: a.md; b.md."
    )


def test_a_changes_section_summarises_when_the_purpose_is_the_title() -> None:
    """llm-compressor #2822's `## Purpose ##` item is the title; its `## Changes ##` item says
    what changed, and the summary was the title again."""
    body = (
        "## Purpose ##\n* Remove warnings raised when loading a recipe\n\n"
        "## Changes ##\n* Filter the packages before importing them\n\n"
        "## Testing ##\n* No more warnings in tests"
    )
    assert summarize("Remove warnings raised when loading a recipe", body) == (
        "Filter the packages before importing them"
    )
    # Without such a section the title stands, as for a squash message's commit subjects.
    listed = "## Purpose ##\n* Remove warnings raised when loading a recipe\n* Add a test"
    assert summarize("Remove warnings raised when loading a recipe", listed) == (
        "Remove warnings raised when loading a recipe"
    )


def test_ticked_items_after_a_lead_in_into_the_change_are_the_change() -> None:
    """llm-compressor #2366 writes its change as ticked `- [x]` items under a bare `This PR`,
    which the cleaner dropped as a checklist: the summary was the background before them."""
    body = (
        "SUMMARY:\nThe pipeline offloads subgraph outputs as part of normal usage.\nThis PR\n"
        "- [x] adds an offload map to the cache so that tensors are\nnot offloaded twice\n\n"
        "TEST PLAN:\n- [x] Unit test added"
    )
    assert summarize("t", body) == (
        "This PR adds an offload map to the cache so that tensors are not offloaded twice."
    )
    # A checklist under a line that leads into no change stays out.
    checklist = "Fix the map.\n\nI confirm:\n- [x] I ran the tests\n- [x] I read the guide"
    assert clean_description(checklist) == "Fix the map.\n\nI confirm:"


def test_a_change_said_before_a_summary_label_beats_the_background_under_it() -> None:
    """llm-compressor #2606 says "This PR updates recovery thresholds ..." over its `SUMMARY:`
    of the regression's history, which was its summary; a preface over a heading of the
    author's own (`### Problem`, torchtitan #1226) stays no summary."""
    labelled = (
        "This PR updates the recovery thresholds to address the eval failure.\n\nSUMMARY:\n"
        "This regression occurred after the DDP change to the loss accumulation.\n\n"
        "TEST PLAN:\n- Reran the evals"
    )
    assert summarize("t", labelled) == (
        "This PR updates the recovery thresholds to address the eval failure."
    )
    headed = labelled.replace("SUMMARY:", "### Summary")
    assert summarize("t", headed) == (
        "This regression occurred after the DDP change to the loss accumulation."
    )


def test_section_names_on_lines_of_their_own_head_a_template_description() -> None:
    """llm-compressor's template writes `SUMMARY:` and `TEST PLAN:` as plain lines: #2934's
    summary read "SUMMARY: Fix the AutoRound ...", #2844's the test plan's instruction."""
    filled = (
        "SUMMARY:\nFix the AutoRound DDP rank-local placement regression from #2844.\n\n"
        "TEST PLAN:\n- pytest tests/autoround/test_base.py"
    )
    assert summarize("t", filled) == (
        "Fix the AutoRound DDP rank-local placement regression from #2844."
    )
    left_as_is = (
        'SUMMARY:\n"please provide a brief summary"\n\n'
        'TEST PLAN:\n"please outline how the changes were tested"'
    )
    assert summarize("Add Qwen MoE Example", left_as_is) == "Add Qwen MoE Example"
    # A quote under such a line is quoted, not the author's words (#1806).
    quoting = "SUMMARY:\n> Key to efficiency is the block size\n\nThis exposes a new field."
    assert summarize("t", quoting) == "This exposes a new field."
    # Further down a description that opens with prose, `Summary:` may head test output
    # (torch-mlir #2887).
    results = (
        "This adds passes that lower sparse tensors to loops.\n\nTest results:\n\n"
        "Summary:\n    Passed: 1144\n    Expectedly Failed: 8"
    )
    assert summarize("t", results) == "This adds passes that lower sparse tensors to loops."
    # The same names before the text on one line (verl #7207's "Summary: when a partial
    # rollout ...", llm-compressor's inline `SUMMARY: "please provide a brief summary"`).
    inline = "Summary: when a partial rollout is resumed, the token count can overflow."
    assert (
        summarize("t", inline) == "When a partial rollout is resumed, the token count can overflow."
    )
    assert summarize("Pin auto-round", 'SUMMARY: "please provide a brief summary"') == (
        "Pin auto-round"
    )
    # A template's own name in capitals opens it (llm-compressor's stacked PRs read
    # "<- current PR"); a sentence ending in a colon does not (tvm #10084).
    stacked = (
        "ORDER OF REVIEWS:\n1. https://github.com/o/n/pull/1108 <- current PR\n"
        "2. https://github.com/o/n/pull/1103\n\nSUMMARY:\nRefactor the entrypoint dataclass."
    )
    assert summarize("t", stacked) == "Refactor the entrypoint dataclass."
    # After a line of the author's, a known name in capitals still heads the template's
    # section (llm-compressor #2366's summary read "Updated by @brian-dellabetta").
    updated = (
        "Updated by @reviewer\n\nSUMMARY:\nThe pipeline now offloads each tensor once.\n\n"
        "TEST PLAN:\n- Unit test added"
    )
    assert summarize("t", updated) == "The pipeline now offloads each tensor once."
    versions = "Upgrade the pinned versions:\nkeras moves from 2.4.3 to 2.6 and h5py to 3.1.0."
    assert summarize("t", versions) == (
        "Upgrade the pinned versions: keras moves from 2.4.3 to 2.6 and h5py to 3.1.0."
    )
    assert summarize("t", "Rationale: Sometimes the host compiler is too new for NVCC.") == (
        "Sometimes the host compiler is too new for NVCC."
    )


def test_a_long_summary_is_shortened_to_its_limit() -> None:
    long_body = "This PR " + "does a lot of things " * 40 + "."
    shortened = summarize("t", long_body, limit=100)
    assert len(shortened) <= 100
    assert shortened.startswith("This PR does a lot of things does a lot")
    assert shortened.endswith(" does…")  # cut between words


def test_a_sentence_too_long_for_a_summary_is_what_follows_its_scene_setting_lead() -> None:
    """verl #7085's summary was cut at "...; review the second commit only): wires…": what
    follows the colon says what the PR does, what leads to it only where the PR stands."""
    stacked = (
        "Second half of the split the reviewers asked for (the engine core and the FSDP"
        " exporter moved to #7144, which this PR is stacked on — its first commit is #7144;"
        " review the second commit only): wires **the EP exporter** into the sharded delta"
        " sync end to end. Supersedes #7080 (the exporter replaces the first EP consumer since"
        " it has PPO wiring and an EP-correct full-weight baseline upstream)."
    )
    assert summarize("t", stacked) == (
        "Wires the EP exporter into the sharded delta sync end to end."
    )
    # A lead that says what is done keeps its sentence, as does one before what is no change.
    doing = (
        "Fixing the problem that the changes of earlier pull requests to the nightly"
        " multi-node test configuration were overwritten by later ones in the same folder: add"
        " the external DP test orchestration under tests/e2e/nightly/multi_node/external_dp/."
    )
    assert summarize("t", doing).startswith("Fixing the problem that")
    layout = (
        "Adds a section on the differences between MoE and dense models to the sleep mode"
        " guide, documenting how the expert weight layout is restored after the weights wake"
        " up again: process_weights_after_loading() transposes the expert weights once more."
    )
    assert summarize("t", layout).startswith("Adds a section")


def test_a_cut_summary_does_not_end_on_a_clause_barely_begun() -> None:
    """verl #2292's summary ended "... with full state restoration — including…"."""
    resume = (
        "This PR adds checkpoint resume support to the SFT trainer using the checkpoint"
        " manager, enabling seamless continuation of training with full state restoration —"
        " including the model, the optimizer, the scheduler, the data loader and the random"
        " number generators of every rank."
    )
    assert summarize("t", resume, limit=172) == (
        "This PR adds checkpoint resume support to the SFT trainer using the checkpoint"
        " manager, enabling seamless continuation of training with full state restoration…"
    )


def test_a_sentence_goes_on_after_an_abbreviation() -> None:
    """AReaL #1263's summary ended "... when loading large datasets (e.g.": `e.g.`, `i.e.`,
    `vs.` and `cf.` end no sentence, whatever follows them."""
    timeout = (
        "Previously the gateway's --forward-timeout was hardcoded to 60s, which\ncaused"
        " timeouts when loading large datasets (e.g. HuggingFace datasets\nrequiring download"
        " on first use).\n\nUsers can now set setup_timeout."
    )
    assert summarize("feat: add setup_timeout", timeout) == (
        "Previously the gateway's --forward-timeout was hardcoded to 60s, which caused timeouts"
        " when loading large datasets (e.g. HuggingFace datasets requiring download on first"
        " use)."
    )
    assert len(sentences("Use A (i.e. Qwen) vs. B. Then C (cf. D) runs.")) == 2


def test_a_compound_wrapped_at_its_hyphen_is_one_word() -> None:
    """AReaL #1112's summary read "... env isolation, context- window capping, ..."."""
    wrapped = (
        "Wire the vLLM backend into the inference service, including env isolation, context-\n"
        "window capping, and a dash -\nkept apart."
    )
    assert summarize("feat: x", wrapped) == (
        "Wire the vLLM backend into the inference service, including env isolation,"
        " context-window capping, and a dash - kept apart."
    )


def test_a_cut_summary_keeps_a_value_after_its_label() -> None:
    """vllm-ascend #1879's summary ended "... runner…": the runners named after the colon were
    no clause barely begun, but what the label is for. A word or two still is."""
    e2e = (
        "Add e2e test for 310p: trigger conditions: tag, labels (ready-for-test,"
        " e2e-310p-test), schedule image: quay.io/ascend/cann:8.1.rc1-310p-ubuntu22.04-py3.10"
        " runner: linux-aarch64-310p-1, linux-aarch64-310p-4 and the nightly 310p runners."
    )
    assert shorten(e2e, 210).endswith(" runner: linux-aarch64-310p-1, linux-aarch64-310p-4…")
    words = e2e.replace("linux-aarch64-310p-1, linux-aarch64-310p-4", "two cards")
    assert shorten(words, 180).endswith("ubuntu22.04-py3.10 runner…")


def test_a_summary_is_what_the_author_wrote_beyond_the_title() -> None:
    # verl #4775: the section opens with the title again; the sentence after it says more.
    body = (
        "### What does this PR do?\n\nAdd Checkpoint Engine abstraction.\n\n#### Overview\n"
        "Checkpoint Engine is an unified abstract layer to synchronize weights.\n"
        "- send_weights: send named tensors."
    )
    expected = "Checkpoint Engine is an unified abstract layer to synchronize weights."
    assert summarize("[ckpt] feat: add checkpoint-engine abstraction", body) == expected
    # The rest of a paragraph that opens with the title, when that rest says something.
    body = "Add rl support for veomni. The engine now trains the actor and the critic together."
    expected = "The engine now trains the actor and the critic together."
    assert summarize("[veomni] feat: add rl support for veomni", body) == expected
    # Only the title in the author's words: that is the summary still.
    assert summarize("[doc] fix: typo in perf_tuning.rst", "Typo in perf_tuning doc") == (
        "Typo in perf_tuning doc"
    )


@pytest.mark.parametrize(
    ("title", "body"),
    [
        # GitHub's squash message lists commit subjects after the title.
        ("[x] feat: add allgather method", "* add allgather method\n\n* add tests\n\n* fix lint"),
        # A list whose first item is the title lists lesser changes after it.
        (
            "[x] feat: add a training worker",
            "### Summary\n\n- Add a training worker\n- Fix lint in main_ppo",
        ),
        # Reviewers, credits and a template's fields are no description.
        ("[x] feat: add worker", "Add worker.\n\ncc @alice @bob"),
        ("[x] feat: add worker", "Add worker.\n\nCollaborated with @alice"),
        ("[x] feat: add worker", "### Additional Info.\n\n- **Training**: FSDP and Megatron"),
        ("[x] feat: add worker", "### Design & Code Changes\n\nNo change for the design."),
        # pytorch/torchtitan: ghstack's stack list (#1768 read "Stacked PRs.", 31 others "Stack
        # from ghstack (oldest at bottom)."), a closing request alone (#966), a placeholder
        # (#1555's `[TBA] description + figure`), the order to review the files in (#3642).
        (
            "config compile backend",
            "Stacked PRs:\n * __->__#1768\n\n\n--- --- ---\n\n### config compile backend",
        ),
        (
            "Add docs to explain COMM_MODE",
            "Stack from [ghstack](https://github.com/ezyang/ghstack/tree/0.12.0)\n"
            "(oldest at bottom):\n* #2163\n* __->__ #2162\n\nAs title",
        ),
        ("contributing guidelines for the experiments folder", "Comments are welcome."),
        ("[EP] add support for ETP=1", "### PR summary\n[TBA] description + figure"),
        ("[rl] Async RL loop", "## How to review\n\n1. Read trainer.py\n2. Read batcher.py"),
    ],
)
def test_a_title_and_what_only_goes_with_it_make_no_summary(title: str, body: str) -> None:
    assert summarize(title, body).lower() == parse_title(title).subject.lower()


@pytest.mark.parametrize(
    ("title", "body", "expected"),
    [
        # vllm-ascend #13029, #13111: where the cherry-pick goes and its commit say nothing
        # of the change; what follows does.
        (
            "t",
            "Cherry-pick of PR #13028 to main branch.\n\n`lazy_init` is only needed for the"
            " mooncake backend on A3 hardware.",
            "`lazy_init` is only needed for the mooncake backend on A3 hardware.",
        ),
        (
            "t",
            "## Summary\n- Cherry-pick #13110 (2c2b4b7f88ce) to\n`main`.\n- Keep the patch"
            " scoped to AscendStore group block size handling.",
            "Keep the patch scoped to AscendStore group block size handling.",
        ),
        # vllm-ascend #11431: where it was planned, whose PR it refactors, whom it thanks, and
        # the questions over its lists.
        (
            "t",
            "### What this PR does / why we need it?\n\nIt is planned in\n"
            "https://github.com/o/n/issues/11163.\nRefactor https://github.com/o/n/pull/11196 by"
            "\n@QwertyJack.\n\nThanks for @QwertyJack for the rapid rough adaption of DSv4"
            " DSpark.\n\nWhat does it refactor?\n- Remove a lot of private branches.\n",
            "Remove a lot of private branches.",
        ),
        # A description that only points elsewhere, or only says how it was tried (torchtitan
        # #3127, vllm-ascend #12470, torchtitan #2374 over its checks).
        (
            "quantize on config instead of on model",
            "Continuation of #3032 (accidentally merged to wrong base\nbranch). See\n#3032 for"
            " full description.",
            "Quantize on config instead of on model",
        ),
        (
            "[Feature] Split c8 to li c8 and sfa c8",
            "### What this PR does / why we need it?\n\nport #12351 to main branch.\n",
            "Split c8 to li c8 and sfa c8",
        ),
        (
            "bug fix: don't swallow OutOfMemoryError",
            "fix https://github.com/o/n/issues/2362\n\nclaude ran a OOM job to verified 3 things."
            " super safe!\n\n1. Exit code 1 (not 0): the process failed as expected\n2. The OOM"
            " traceback was surfaced instead of being swallowed",
            "Bug fix: don't swallow OutOfMemoryError",
        ),
    ],
)
def test_a_summary_is_not_where_the_pr_comes_from_nor_how_it_was_tried(
    title: str, body: str, expected: str
) -> None:
    assert summarize(title, body) == expected


SP_FIRST_ITEM = (
    "The engine had already SP-sliced `input_ids` along the sequence dimension, so `torch.roll`"
    " wraps at the local-shard boundary instead of the global sequence."
)
SP_ITEMS = (
    f"- {SP_FIRST_ITEM}\n- Each rank then computes log-probs against labels that belong to the"
    " neighbouring shard of the sequence.\n"
)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # verl #5899: a lead-in that says what the PR does beats the list's first item
        # (`System debugging: ...`), without the words that point at the list.
        (
            "### What does this PR do?\n\nThis PR replaces the crash with a warning and a NaN,"
            " so training can continue in edge cases such as:\n"
            "- **System debugging**: early runs may produce invalid responses\n",
            "This PR replaces the crash with a warning and a NaN, so training can continue in"
            " edge cases.",
        ),
        # verl #6268: a long lead-in that tells the problem beats the list's explanation; one
        # that leaves its telling to the list in its last clause does not (vllm-ascend #5495:
        # "some" in an earlier clause is the problem's), nor one whose last
        # word runs on into it (verl #2469: "..., which supports:").
        *(
            (
                f"### What does this PR do?\n\n{lead}\n\n{SP_ITEMS}",
                expected,
            )
            for lead, expected in (
                (
                    "When `use_fused_kernels=True` is combined with"
                    " `ulysses_sequence_parallel_size > 1`, the fused-forward functions were"
                    " re-rolling SP-sliced inputs locally:",
                    "When `use_fused_kernels=True` is combined with"
                    " `ulysses_sequence_parallel_size > 1`, the fused-forward functions were"
                    " re-rolling SP-sliced inputs locally.",
                ),
                (
                    "When some rollout workers restart after a failure, the fused-forward"
                    " functions were re-rolling SP-sliced inputs locally:",
                    "When some rollout workers restart after a failure, the fused-forward"
                    " functions were re-rolling SP-sliced inputs locally.",
                ),
                (
                    "Affected by the upstream scheduler change in vLLM, we have to make the"
                    " following changes to our own scheduler code:",
                    SP_FIRST_ITEM,
                ),
                (
                    "Introduce a RolloutViewer TUI tool to visualize rollout and reward results"
                    " dumped by the trainer, which supports:",
                    SP_FIRST_ITEM,
                ),
            )
        ),
        # verl #5969: background that ends on a lead-in beats an item's `LCM alignment: ...`.
        (
            "### Background\nThe trainer already supports multi-trajectory rollouts. However,"
            " batches still need padding to a multiple of dp_size. This PR addresses the following:"
            "\n\n"
            "1. **LCM alignment**: `% dp_size == 0` and `% mini_batch_size == 0`.",
            "The trainer already supports multi-trajectory rollouts. However, batches still need"
            " padding to a multiple of dp_size.",
        ),
        # A lead-in that says what the PR does goes on with the short list it introduces
        # (torchtitan #3970 read "... and separates."), without a colon where its words
        # run on into the items.
        (
            "### What does this PR do?\n\nThe vectorized path floored the variance at epsilon.\n\n"
            "This PR makes the vectorized path match canonical GRPO by:\n\n- centering the sums",
            "This PR makes the vectorized path match canonical GRPO by centering the sums.",
        ),
        (
            "## Summary\n\nThis PR unifies the dispatch API and separates:\n\n1. The maximum"
            " token capacity.\n2. The current token capacity.\n\nBuffers no longer grow.",
            "This PR unifies the dispatch API and separates: the maximum token capacity; the"
            " current token capacity.",
        ),
        # Words that run on into the list without a colon go with it when they say the change
        # (torchtitan #1540's summary was "This pr adds"), else they go (#1064's "At the same
        # time"); a sentence without its stop stays one (verl #3763).
        (
            "This pr adds \n- an example script for checkpoint conversion\n- a `conversion.md`",
            "This pr adds an example script for checkpoint conversion; a `conversion.md`.",
        ),
        (
            "As titled.\n\nAt the same time\n- renaming `llama` to `llama3`\n- moving the"
            " multimodal model to experiments",
            "Renaming `llama` to `llama3`",
        ),
        (
            "support training qwen3vl with megatron\n\n1. add an image with vllm0.11 and nemo's"
            " megatron\n2. add a script of training qwen3vl-30b with megatron",
            "Support training qwen3vl with megatron",
        ),
        ("修复了NPU上的精度问题\n- 修改了a\n- 修改了b", "修复了NPU上的精度问题"),
        # A lead-in more than a label goes with its items too (torchtitan #3561 read "Only for
        # full recompute"); its colon stays unless its last word runs on (`by:`, `with:`).
        (
            "Minimal set up for dropless-enough cudagraphable moe:\n1. only for full recompute\n"
            "2. no cpu-sync ep dispatch/combine",
            "Minimal set up for dropless-enough cudagraphable moe: only for full recompute; no"
            " cpu-sync ep dispatch/combine.",
        ),
        (
            "The main modifications are as follows:\n- Added a quick start case\n- Fixed a typo",
            "The main modifications are as follows: added a quick start case; fixed a typo.",
        ),
        # A heading over nothing but a list leads it (torchtitan #1373's summary was its second
        # item), unless a template names it or its items are a template's fields; an item's
        # first word goes lower-case unless it starts a name (`Tensor Parallel`).
        (
            "## Supported Features\n- FSDP, HSDP\n- Activation checkpointing\n- Tensor Parallel"
            " (TP)\n\n## To be added\n- Context Parallel support",
            "Supported Features: FSDP, HSDP; activation checkpointing; Tensor Parallel (TP).",
        ),
        (
            "### Additional Info.\n- **Training**: FSDP and Megatron\n- **Inference**: vLLM",
            "T",
        ),
        # `**Testing**` heads a section as `## Testing` does (torchtitan #2084's summary was its
        # screenshot's caption, "performance and loss on par").
        ("As title\n\n**Testing**\n\nperformance and loss on par", "T"),
        # As many whole items as fit, and `…` for the rest (the author's `- ...` too).
        (
            "Pass all dataset fields to the agent loop, including:\n- raw_prompt\n- tools_kwargs"
            "\n- ...",
            "Pass all dataset fields to the agent loop, including: raw_prompt; tools_kwargs; …",
        ),
        (
            "This PR supports:\n\n- " + "meta device init " * 6 + "\n- " + "weight init " * 9,
            "This PR supports: " + ("meta device init " * 6).strip() + "; …",
        ),
        # Links are no items to read (verl #6335), and a label is no lead-in (`Changes:`).
        (
            "Refactor to use the new helper APIs:\n- https://github.com/o/r/pull/3813\n"
            "- https://github.com/o/r/pull/3866",
            "Refactor to use the new helper APIs.",
        ),
        (
            "Changes:\n\n- Replace direct dict access with `.get(key, {})` for tool kwargs\n"
            "- Validate the prompts",
            "Replace direct dict access with `.get(key, {})` for tool kwargs",
        ),
        # A later sentence that introduces a list stays out of the summary.
        (
            "Support context parallel for the mcore backend.\nChanges on:\n\n- the model loader",
            "Support context parallel for the mcore backend.",
        ),
        # verl #7327: a change beside the main one ("This PR also fixes ...") is not the
        # summary; in the background that stays, the sentence on what is done now is.
        (
            "### What does this PR do?\n\nThe old sender relied on hard-coded module lists,"
            " breaking the vision merger. The receiver now reconciles each incoming name against"
            " the live model.\n\nThis PR also fixes two adjacent bugs hit in the same runs:\n\n"
            "- LoRA adapters spanning multiple transfer buckets",
            "The receiver now reconciles each incoming name against the live model.",
        ),
        # verl #7297: a lead-in that counts the changes (`... with three changes, plus the
        # example-script wiring:`) is no summary; after the background, the item that says
        # what something now does is.
        (
            "### What does this PR do?\n\n#7221 added the contiguous row layout. Turning it on"
            " still fails.\n\nThis PR completes that path with three changes, plus the"
            " example-script wiring:\n\n1. `PackedSeqParams` now carries `cp_partition_mode`,"
            " so the kernels are told how the rows were sharded.\n2. Router-replay tensors are"
            " packed with the same layout.",
            "`PackedSeqParams` now carries `cp_partition_mode`, so the kernels are told how the"
            " rows were sharded.",
        ),
        # vllm-ascend #8289: an item deep in the list after the lead-in is one change of
        # several; the background says more.
        (
            "### What this PR does / why we need it?\n\n`NPUWorker` previously computed the KV"
            " cache memory without the graph capture memory, leading to OOM.\n\nThis pr proposed"
            " some changes:\n- Fast path: skip profiling when the memory is given\n- Track the"
            " peak activation memory separately\n- `capture_model()` now returns the graph pool"
            " bytes consumed",
            "`NPUWorker` previously computed the KV cache memory without the graph capture memory,"
            " leading to OOM.",
        ),
        # vllm-ascend #12896: background that says what is done, in the passive, stays.
        (
            "### What this PR does?\n\nThe build entries are removed with the operator"
            " sources.\n\nThe fused nightly test now compares `y` against a CPU reference.",
            "The build entries are removed with the operator sources.",
        ),
        # vllm-ascend #7902: `now` before what someone intends is still background.
        (
            "### What this PR does?\n\nThe state layouts are not aligned with vLLM. The"
            " operator team now plans to provide a fused operator.",
            "The state layouts are not aligned with vLLM. The operator team now plans to provide"
            " a fused operator.",
        ),
        # vllm-ascend #13012: references on lines of their own open no sentence.
        (
            "### What this PR does / why we need it?\n#11548\n#12226\nLevel-2 sleep discards"
            " model weights,\nso MoE must reload them on wake.",
            "Level-2 sleep discards model weights, so MoE must reload them on wake.",
        ),
        # verl #7107: the fix of what the background described, without pointing back at it.
        (
            "### What does this PR do?\n\nThe NCCL engine always broadcasts the full bucket, even"
            " when it was only partially filled.\n\nThis PR fixes it by passing the bucket"
            " length as metadata.",
            "Fixed by passing the bucket length as metadata.",
        ),
        (
            "This patch addresses the issue by rewriting the computation pattern.",
            "Addressed by rewriting the computation pattern.",
        ),
        # What is fixed is named, or the fix is no `by` clause: the author's words stay.
        (
            "This PR fixes the issue where `model_merger` drops `lora_alpha`.",
            "This PR fixes the issue where `model_merger` drops `lora_alpha`.",
        ),
        (
            "This PR fixes it and adds a nightly test case for it.",
            "This PR fixes it and adds a nightly test case for it.",
        ),
        # verl #4795: items that go on in the next one (`... \`verl-recipe\`,`) end as one
        # sentence with their lead-in, not on a comma.
        (
            "This PR\n\n1. migrates most recipes to the dedicated repo `verl-recipe`,\n"
            "2. adds `verl-recipe` as a submodule,",
            "This PR migrates most recipes to the dedicated repo `verl-recipe`; adds `verl-recipe`"
            " as a submodule.",
        ),
        (
            "1. migrates most recipes to the dedicated repo `verl-recipe`,\n"
            "2. adds `verl-recipe` as a submodule,",
            "Migrates most recipes to the dedicated repo `verl-recipe`.",
        ),
    ],
)
def test_a_summary_says_what_the_pr_does_rather_than_a_list_item(body: str, expected: str) -> None:
    assert summarize("t", body) == expected


@pytest.mark.parametrize(
    ("text", "limit", "shortened"),
    [
        # Between words even when the only space is early (was `... disable_mm_preprocessor_ca…`).
        (
            "auto-convert disable_mm_preprocessor_cache to mm_processor_cache_gb for vllm",
            40,
            "auto-convert…",
        ),
        # One enormous token is cut where it must be.
        (
            "Handle flash_attn_supports_top_left_mask import",
            40,
            "Handle flash_attn_supports_top_left_mas…",
        ),
        # No comma, colon or dash before the `…`.
        (
            "Migrates the recipes to the repo, and adds a submodule",
            35,
            "Migrates the recipes to the repo…",
        ),
        ("Two steps - first the cache, then the rest", 13, "Two steps…"),
        ("Fix the cache. Then the rest", 16, "Fix the cache…"),
        # Never inside a code span: cut before it, or close it when it is most of the line.
        (
            "Run the job with `python -m verl.trainer.main_ppo trainer.n_gpus=8` on each node",
            50,
            "Run the job with…",
        ),
        (
            "Set `actor_rollout_ref.rollout.some_long_key_name` to true",
            40,
            "Set `actor_rollout_ref.rollout.some_lo`…",
        ),
        # Chinese has no spaces: any character boundary will do, and its punctuation goes too.
        ("修复了一个问题，导致训练时崩溃", 8, "修复了一个问题…"),
        # Not inside an aside: the clause before it ends the line (verl #7272), unless that
        # would leave less than half of the room.
        (
            "every packed micro-batch has a different token count, so shape-specialized kernels"
            " (torch.compile, Triton/DeepGEMM) recompile",
            110,
            "every packed micro-batch has a different token count, so shape-specialized kernels…",
        ),
        ("Fix it (see the long discussion in the issue)", 30, "Fix it (see the long…"),
        ("修复训练时的崩溃问题（由于缓存未清空导致）", 16, "修复训练时的崩溃问题…"),
        # Not on a word that leads into what was cut (verl #4986's "..., leading to…").
        (
            "duplicate indices can cause a short routing map, leading to dropped tokens",
            60,
            "duplicate indices can cause a short routing map, leading…",
        ),
        (
            "uses a unified configuration under the profiler key",
            45,
            "uses a unified configuration…",
        ),
    ],
)
def test_shorten_cuts_between_words_and_outside_code(text: str, limit: int, shortened: str) -> None:
    assert shorten(text, limit) == shortened
    assert len(shortened) <= limit


def test_a_text_within_the_slack_is_kept_whole() -> None:
    text = "reuse trainer worker group for hybrid rollout to do validation"  # 62 characters
    assert shorten(text, 60, 1.25) == text
    assert shorten(text, 48, 1.25) == "reuse trainer worker group for hybrid rollout…"
    assert shorten(text, 60) == "reuse trainer worker group for hybrid rollout to do…"


def test_closing_references() -> None:
    assert closing_references("[fsdp] fix: emit outputs (#6293)", "Closes #6293.") == [6293]
    assert closing_references("t", "Fixes: #12 and fix #13; resolves o/n#14") == [12, 13, 14]
    assert closing_references("t", "resolve https://github.com/o/n/issues/7") == [7]
    assert closing_references("[x] feat: thing (#99)", "") == []  # only a fix's title number
    assert closing_references("t", "Related: #5") == []


def test_reverted_number_comes_from_the_body_not_the_title() -> None:
    title = 'Revert "[fsdp] fix: emit distillation outputs (#6293)"'
    revert = read_revert(title, "Reverts verl-project/verl#6350")
    assert revert is not None and reverted_number(revert, {}) == 6350
    title_only = read_revert(title, "")
    assert title_only is not None and reverted_number(title_only, {}) is None
    known = {"[fsdp] fix: emit distillation outputs (#6293)": 6350}
    assert reverted_number(title_only, known) == 6350


def test_reverts_commit_counts_only_where_git_revert_writes_it() -> None:
    sha = "b924f79a79c1e5e0d3a4f2b6c7d8e9f0a1b2c3d4"
    squashed = f'* feat: pad tokens\n\n* Revert "try a default"\n\nThis reverts commit {sha}.'
    assert read_revert("[tokenizer] feat: support tokenizers without a pad token", squashed) is None
    opened = read_revert("Back out the pad token change", f"This reverts commit {sha}.\n\nWhy.")
    assert opened is not None and opened.reverted_sha == sha
    tagged = read_revert(
        '[CI] Revert "[CI] add the aop flag to nightly…', f"x\nThis reverts commit {sha}."
    )
    assert tagged is not None and tagged.reverted_sha == sha


def test_a_revert_names_the_pr_merged_before_it_by_title_or_by_commit() -> None:
    day = timedelta(days=1)
    first = make_pr(1, "[fsdp] feat: X", merged_at=MERGED - 3 * day, merge_commit_sha="a" * 40)
    reland = make_pr(3, "[fsdp] feat: X", merged_at=MERGED + day, merge_commit_sha="c" * 40)
    known = {pr.number: pr for pr in (first, reland)}
    by_title = make_pr(2, 'Revert "[fsdp] feat: X"', merged_at=MERGED)
    assert resolve_revert(by_title, known).reverted_number == 1
    by_commit = make_pr(
        4, "Back out X", body=f"This reverts commit {'c' * 12}.", merged_at=MERGED + 2 * day
    )
    assert resolve_revert(by_commit, known).reverted_number == 3
    # The re-land has the first one's title: a revert quoting it after both undoes the re-land.
    again = make_pr(5, 'Revert "[fsdp] feat: X"', merged_at=MERGED + 3 * day)
    assert resolve_revert(again, known).reverted_number == 3


def test_a_revert_quoting_a_title_cut_short_names_the_one_pr_it_starts() -> None:
    """tpu-inference #1297 `Revert "Update multihost disagg sh to prepare integrate with
    buildkit…` (GitHub cut the title; the git source has no `Reverts #N` body)."""
    day = timedelta(days=1)
    title = "Update multihost disagg sh to prepare integrate with buildkite"
    first = make_pr(1295, title, merged_at=MERGED - day)
    other = make_pr(1290, "Update multihost docs", merged_at=MERGED - 2 * day)
    known = {pr.number: pr for pr in (first, other)}
    cut = make_pr(1297, f'Revert "{title[:-2]}…', merged_at=MERGED)
    assert resolve_revert(cut, known).reverted_number == 1295
    dots = make_pr(1298, f'Revert "{title[:40]}...', merged_at=MERGED)
    assert resolve_revert(dots, known).reverted_number == 1295
    # Too little left, or two titles that start so, name none.
    short = resolve_revert(make_pr(9, 'Revert "Update multihost…', merged_at=MERGED), known)
    assert short.is_revert and short.reverted_number is None
    twin = make_pr(1296, f"{title} v2", merged_at=MERGED - day)
    both = {**known, 1296: twin}
    assert resolve_revert(cut, both).reverted_number is None


def test_a_hand_written_revert_names_its_target_in_its_own_words() -> None:
    """vllm-ascend's reverts by hand: no quotes, a number in the title or body, a link, shas."""
    day = timedelta(days=1)
    kv = make_pr(4138, "[KV-Sharing] Support KV-Sharing in CLA models", merged_at=MERGED - day)
    cache = make_pr(9744, "[Feature] Cache the code start compilation", merged_at=MERGED - day)
    eplb = make_pr(4214, "[Feat] Multi-stream eplb heat collection", files=[("eplb/heat.py", 9, 1)])
    known = {pr.number: pr for pr in (kv, cache, eplb)}

    def target(
        title: str, body: str = "", files: list[tuple[str, int, int]] | None = None
    ) -> int | None:
        revert = make_pr(20000, title, body=body, files=files, merged_at=MERGED + day)
        return resolve_revert(revert, known).reverted_number

    # The reverted title without quotes, or with the closing quote missing.
    assert target("Revert [KV-Sharing] Support KV-Sharing in CLA models (#4138)") == 4138
    assert target('Revert "[Feature] Cache the code start compilation') == 9744
    # A reason after the quoted title (LLaMA-Factory #8554).
    assert target('Revert "[Feature] Cache the code start compilation" - not needed') == 9744
    # A number counts when that PR changed a file the revert changes; an issue or a PR named
    # for context shares none.
    assert target("[Bugfix] Revert pr4214 heat collection", files=[("eplb/heat.py", 1, 9)]) == 4214
    assert target("[Bugfix] Revert pr4214 heat collection", files=[("docs/x.md", 1, 1)]) is None
    assert target("[BugFix] Revert profiling", "This PR reverts #4138 / commit 9099b7f.") == 4138
    assert target("[CI] Revert build cache", "https://github.com/o/n/pull/9744 fails") == 9744
    # Not a revert by its title: a mention is only a mention.
    assert target("[BugFix] Fix profiling", "Follow-up of #4138.") is None
    later = make_pr(4300, "[Feat] X", merged_at=MERGED + 2 * day)
    assert (
        resolve_revert(
            make_pr(20001, "Revert X", body="It broke after #4300.", merged_at=MERGED + day),
            {**known, 4300: later},
        ).reverted_number
        is None
    )  # merged after the revert: it cannot be what the revert undoes


def test_a_revert_of_several_commits_names_the_one_its_title_describes() -> None:
    day = timedelta(days=1)
    image = make_pr(
        6884, "[Image] Fix docker image merge tag", merge_commit_sha="8835236" + "a" * 33
    )
    speedup = make_pr(
        6708, "[CI] Refactor to speedup image building", merge_commit_sha="84b0069" + "b" * 33
    )
    known = {pr.number: pr for pr in (image, speedup)}
    revert = make_pr(
        6891,
        "[CI] Revert speedup image building related PRs",
        body="git revert 8835236aaaa\ngit revert 84b0069bbbb\n",
        merged_at=MERGED + day,
    )
    assert resolve_revert(revert, known).reverted_number == 6708
    by_date = make_pr(6892, "[CI] Revert the 20250528 change", merged_at=MERGED + day)
    assert resolve_revert(by_date, known).reverted_number is None  # a date is no commit


def test_a_revert_behind_tags_with_the_number_after_the_quote() -> None:
    """vllm-ascend: `[Revert] Revert "<title>" (#N)`, body `Revert of PR #N (...)`."""
    title = '[Revert] Revert "[CI] add a5 nightly multi test- #14112" (#14190)'
    by_title = read_revert(title, "")
    assert by_title is not None
    assert reverted_number(by_title, {"[CI] add a5 nightly multi test- #14112": 14190}) == 14190
    assert reverted_number(by_title, {"[CI] add a5 nightly multi test- #14112": 14000}) is None
    by_body = read_revert(title, "Revert of PR #14190 (merged onto `main`).")
    assert by_body is not None and reverted_number(by_body, {}) == 14190
    assert parse_title(title).type == "revert"


def test_a_revert_tag_or_a_manual_revert_statement_makes_a_revert() -> None:
    """vllm-ascend #12228 "[Revert][Refactor][Attention] Restore paged attention fallback
    (reverts #11899)", body "Manually reverts #11899 from `main`.": typed a fix, and #11899
    never marked reverted."""
    day = timedelta(days=1)
    removal = make_pr(
        11899,
        "[Refactor][Attention] Remove paged attention",
        files=[("vllm_ascend/attention.py", 19, 412)],
        merged_at=MERGED - 7 * day,
    )
    known = {removal.number: removal}
    title = "[Revert][Refactor][Attention] Restore paged attention fallback (reverts #11899)"
    assert parse_title(title).type == "revert"
    restore = make_pr(12228, title, files=[("vllm_ascend/attention.py", 412, 19)])
    assert resolve_revert(restore, known).reverted_number == 11899  # by the title's number
    by_body = read_revert("Restore paged attention", "Manually reverts #11899 from `main`.")
    assert by_body is not None and by_body.body_number == 11899
    this_pr = read_revert("Restore profiling", "This PR reverts #9865 / commit 9099b7f.")
    assert this_pr is not None and this_pr.body_number == 9865
    # Reverting is one item of a fix (vllm-ascend #5093): no revert of the PR as a whole.
    assert read_revert("[bugfix] fix mtp accept rate", "4. Reverts #5082, which broke CI") is None
    assert parse_title("[Bugfix][Refactor] Restore the eplb config").type == "fix"


@pytest.mark.parametrize(
    ("path", "patterns", "expected"),
    [
        ("verl/a.py", ["verl/**/*.py"], True),
        ("verl/x/y/z.py", ["verl/**/*.py"], True),
        ("verl/x/run.sh", ["verl/**/*.py"], False),
        ("tests/test_a.py", ["verl/**"], False),
        ("docker/Dockerfile.stable", ["Dockerfile*"], True),
        ("a/b/test_x.py", ["**/test_*.py"], True),
        ("test_x.py", ["**/test_*.py"], True),
        ("tests/a/b.py", ["tests/**"], True),
    ],
)
def test_globs(path: str, patterns: list[str], expected: bool) -> None:
    assert matches_any(path, patterns) is expected


# ---------------------------------------------------------------------------------------------
# Parts


def test_parts_for_a_docs_only_pr() -> None:
    pr = make_pr(1, "[doc] fix: crash in the docs build", files=[("docs/a.md", 500, 10)])
    parts = score_parts(pr, ["doc"], CONFIG)
    assert parts["type"] == TYPE_WEIGHTS["doc"]
    assert parts["core"] == 0 and parts["fix_impact"] == 0
    # A tutorial and its entry in the docs site's settings (vllm-ascend #14279, 8.6 as a feature).
    tutorial = make_pr(
        2,
        "[Doc][Feature] Add Dots3 deployment tutorial",
        files=[("docs/source/tutorials/dots3.md", 300, 0), ("mkdocs.yml", 1, 0)],
    )
    assert change_shape(tutorial, ScoringConfig()).docs_only


def test_parts_for_docs_beside_a_few_code_lines() -> None:
    """torchtitan #2162 "Add docs to explain COMM_MODE" wrote a page and 18 lines of the script
    it explains: a docs change, not the feature its "add" read as."""
    pr = make_pr(
        1,
        "Add docs to explain COMM_MODE",
        files=[("docs/debugging.md", 60, 3), ("run_train.sh", 15, 3)],
    )
    assert not change_shape(pr, ScoringConfig()).docs_only
    assert score_parts(pr, ["doc"], CONFIG)["type"] == TYPE_WEIGHTS["doc"]


def test_a_pr_of_only_tests_ci_or_images_weighs_like_a_test_change() -> None:
    """vllm-ascend's "[CI] Add weekly accuracy tests for ..." (test configs and a workflow) is
    no feature of the code: 114 of its key PRs were such. Reverting one is no revert of the
    code either, though the revert part still counts; code beside them makes it a change of
    the code again."""
    support = [(".github/workflows/nightly.yaml", 40, 2), ("tests/e2e/test_kimi.py", 900, 0)]
    suite = make_pr(1, "[CI] Add weekly accuracy tests for Kimi-K2", files=support)
    image = make_pr(2, "[ci] fix: docker build OOM", files=[("docker/Dockerfile.npu", 30, 3)])
    coded = make_pr(3, "[CI] feat: weekly runs", files=[*support, ("verl/a.py", 20, 0)])
    revert = make_pr(4, 'Revert "[CI] Add weekly tests"', files=support, is_revert=True)
    assert score_parts(suite, ["ci"], CONFIG)["type"] == TYPE_WEIGHTS["test"]
    assert score_parts(image, ["ci"], CONFIG)["type"] == TYPE_WEIGHTS["test"]
    assert score_parts(coded, ["ci"], CONFIG)["type"] == TYPE_WEIGHTS["feat"]
    # A title that adds tests says a test change, whatever else it touches.
    tested = coded.model_copy(update={"title": "[CI] Add weekly tests"})
    assert score_parts(tested, ["ci"], CONFIG)["type"] == TYPE_WEIGHTS["test"]
    reverted = score_parts(revert, ["ci"], CONFIG)
    assert (reverted["type"], reverted["revert"]) == (TYPE_WEIGHTS["test"], REVERT_WEIGHT)
    # What goes into an image is code: slime patches SGLang in `docker/patch/`.
    patch = make_pr(6, "[docker] fix pd prefill abort", files=[("docker/patch/sglang.patch", 9, 2)])
    assert score_parts(patch, [], CONFIG)["type"] == TYPE_WEIGHTS["fix"]
    # A chore on them keeps its own, lower weight.
    bump = make_pr(5, "[ci] chore: bump runner", files=support[:1])
    assert score_parts(bump, ["ci"], CONFIG)["type"] == TYPE_WEIGHTS["chore"]


def test_datasets_weigh_like_documentation_in_size() -> None:
    data = make_pr(1, "[data] feat: demo sets", files=[("data/kto_en_demo.json", 2998, 0)])
    docs = make_pr(2, "[data] feat: demo sets", files=[("docs/kto.md", 2998, 0)])
    code = make_pr(3, "[data] feat: demo sets", files=[("src/kto.py", 2998, 0)])
    sizes = [score_parts(pr, [], CONFIG)["size"] for pr in (data, docs, code)]
    assert sizes[0] == sizes[1] < sizes[2]


def test_a_deleted_file_weighs_like_documentation_in_size_and_stays_core() -> None:
    """slime #1943 deleted an unused 535-line file and scored 7.7 on its size: deleting is
    read, and reviewed, more quickly than writing. A deleted core file is still core."""
    deleted = make_pr(1, "chore: remove", files=[("verl/old.py", 0, 535)])
    written = make_pr(2, "chore: add", files=[("verl/old.py", 535, 0)])
    documented = make_pr(3, "chore: doc", files=[("docs/old.md", 535, 0)])
    deleted = deleted.model_copy(
        update={"files": [deleted.files[0].model_copy(update={"status": "removed"})]}
    )
    sizes = [score_parts(pr, [], CONFIG)["size"] for pr in (deleted, documented, written)]
    assert sizes[0] == sizes[1] < sizes[2]
    assert change_shape(deleted, CONFIG).core_lines == 535
    # A deleted workflow file too; deleted tests weigh in full, as tests do, in a revert (verl
    # #6360), whose deletions are what it undoes. Elsewhere they are code taken out (below).
    for path, removed in ((".github/workflows/old.yml", 535), ("tests/test_old.py", 0)):
        gone = make_pr(4, 'Revert "chore: add"', files=[(path, 0, 535)], is_revert=True)
        gone = gone.model_copy(
            update={"files": [gone.files[0].model_copy(update={"status": "removed"})]}
        )
        assert change_shape(gone, CONFIG).removed_lines == removed, path
    assert score_parts(gone, [], CONFIG)["size"] == sizes[2]


def test_code_taken_out_weighs_like_documentation_in_size_and_core() -> None:
    """vllm-ascend #12440 (+3/-450) took out an obsolete patch and its test: 8.8, 9th of its
    week's 104 PRs, on deleted lines counted in full in size and core. Lines deleted where a
    part of the PR (its code, its tests) adds next to none weigh like docs; the PR stays core,
    and a revert's deletions, what it undoes, count in full (verl #6360)."""
    files = [
        ("verl/patch/__init__.py", 1, 25),
        ("verl/patch/compat.py", 0, 159),
        ("tests/test_compat.py", 0, 258),
    ]
    removal = make_pr(1, "[misc] refactor: remove obsolete compat patch", files=files)
    documented = make_pr(
        2,
        "[misc] refactor: remove obsolete compat docs",
        files=[("verl/patch/__init__.py", 1, 0), ("docs/compat.md", 0, 442)],
    )
    revert = make_pr(3, 'Revert "[misc] feat: compat patch"', files=files, is_revert=True)
    written = make_pr(
        4, "[misc] refactor: rewrite compat patch", files=[(p, d, a) for p, a, d in files]
    )
    shape = change_shape(removal, CONFIG)
    assert (shape.core_lines, shape.taken_out_lines, shape.taken_out_core_lines) == (185, 442, 184)
    parts = {
        pr.number: score_parts(pr, [], CONFIG) for pr in (removal, documented, revert, written)
    }
    assert parts[1]["size"] == parts[2]["size"] < parts[3]["size"] == parts[4]["size"]
    assert parts[1]["core"] < parts[3]["core"] == parts[4]["core"] == CORE_WEIGHT


def test_an_edit_that_deletes_lines_is_not_code_taken_out() -> None:
    """verl #6307 (+11/-94) rewrote a quantization with one fused call, and vllm-ascend #14248
    fixed a precision bug by deleting two lines: edits, weighed as such. Tests rewritten beside
    a removal (vllm-ascend #13769, +79/-15) weigh in full too."""
    rewrite = make_pr(1, "[vllm] refactor: fused quant", files=[("verl/quant.py", 11, 94)])
    fix = make_pr(2, "[fsdp] fix: precision", files=[("verl/a.py", 0, 2), ("tests/t.py", 62, 0)])
    for pr in (rewrite, fix):
        shape = change_shape(pr, CONFIG)
        assert (shape.taken_out_lines, shape.taken_out_core_lines) == (0, 0), pr.title
    kernel = make_pr(
        3,
        "[ops] refactor: remove unused kernel",
        files=[("verl/ops/kernel.py", 0, 168), ("tests/test_kernel.py", 79, 15)],
    )
    assert change_shape(kernel, CONFIG).taken_out_lines == 168


def test_size_stops_growing_at_a_thousand_lines() -> None:
    """verl #1010's move to ruff (19,875 lines) led its week on size: past SIZE_FULL_LINES
    lines a change is no more important for being larger."""
    sizes = [
        score_parts(make_pr(1, "feat: x", files=[("src/a.py", lines, 0)]), [], CONFIG)["size"]
        for lines in (999, 1000, 20000)
    ]
    assert sizes[0] < sizes[1] == sizes[2] == pytest.approx(3.0, abs=0.001)


def test_a_mechanical_sweep_s_size_counts_for_little() -> None:
    """verl #1280 "[Lint] fix: linting errors in all files" (4,130 lines in 179 files) scored
    8.0 on a size of 3.0: a sweep counts as a change of SWEEP_SIZE_LINES lines at most. Its
    other parts stay (type, core); a PR of the same files under another title keeps its size."""
    files = [(f"verl/workers/w{i}.py", 4, 8) for i in range(90)]
    lint = make_pr(1, "[Lint] fix: linting errors in all files", files=files)
    other = make_pr(2, "[worker] fix: retry on timeout", files=files)
    swept, kept = score_parts(lint, [], CONFIG), score_parts(other, [], CONFIG)
    assert change_shape(lint, CONFIG).sweep
    assert not change_shape(other, CONFIG).sweep
    assert kept["size"] == pytest.approx(3.0, abs=0.001)
    assert swept["size"] == round(math.log10(1 + SWEEP_SIZE_LINES), 4)
    assert swept["core"] == kept["core"] == CORE_WEIGHT
    assert swept["type"] == TYPE_WEIGHTS["chore"]  # as verl #1280 scored: a lint is upkeep
    # A small sweep is no larger than the cap already: the rule takes nothing from it.
    small = [(f"verl/t{i}.py", 1, 1) for i in range(4)]
    typo, plain = make_pr(3, "fix: typos", files=small), make_pr(4, "fix: retry", files=small)
    assert change_shape(typo, CONFIG).sweep
    assert score_parts(typo, [], CONFIG)["size"] == score_parts(plain, [], CONFIG)["size"]


def test_docstrings_are_documentation_in_any_file() -> None:
    """AReaL #370 "doc: Add docstrings for engine API" (439 lines of docstrings in areal/api)
    was a 7.6 key PR flagged for changing core code without tests: a title whose whole object
    is docstrings changes documentation, in code files too. Other titles' code stays code."""
    files = [("verl/workers/engine_api.py", 401, 38)]
    docstrings = make_pr(1, "doc: Add docstrings for engine API", files=files)
    refined = make_pr(2, "doc: refine docstrings of controller API", files=files)
    api = make_pr(3, "doc: document the engine API and add a retry", files=files)
    for pr in (docstrings, refined):
        shape = change_shape(pr, CONFIG)
        assert (shape.docs_only, shape.core_lines) == (True, 0)
        assert score_parts(pr, [], CONFIG)["core"] == 0.0
        assert core_tests(pr, CONFIG) is None
    assert change_shape(api, CONFIG).core_lines == 439
    assert core_tests(api, CONFIG) is False


@pytest.mark.parametrize(
    "title",
    [
        "[Lint] fix: linting errors in all files",  # verl #1280
        "[ci] refactor: reduce ruff line-length from 300 to 120",  # verl #2287
        "[misc] fix: fix license",  # verl #110
        "[misc] fix: add `compileall` pre-commit hook checks and improve code quality",
        "[Lint]Style: Convert `root`, `benchmarks`, `tools` and `docs` to `ruff format`",
        "[2/N] Tiny manually fix for Ruff default ruleset and add to pre-commit",  # slime #992
        "[misc] fix typos in comments and help text",  # LLaMA-Factory #10633
        "[BE] Apply pep585 and turn on flake8 rule so no regressions",  # torchtitan #2411
        "Fix Typo",
        "chore: sort imports and remove unused imports",
        "style: reformat with black",
        "refactor: modernize modifiers module with Python 3.10+ type hints",  # llm-compressor
    ],
)
def test_titles_that_name_mechanical_work(title: str) -> None:
    assert names_mechanical_rewrite(title)


@pytest.mark.parametrize(
    "title",
    [
        "[repo] refactor: move experimental/vla to standalone verl-vla repository",  # verl #6162
        "[BREAKING][reward] refactor: remove reward model worker code and invocation",  # #5194
        "[lint] Add response.aclose() and fix lint",  # slime #1520: something else besides
        "[misc] update license year & fix llama pro",  # LLaMA-Factory #6814
        "[misc] fix: main pre-commit and API change",  # verl #2675
        "[rollout] fix: num_preempted metrics fix and typo correction",  # verl #4976
        "[fix]update license check, update transformers",  # LLaMA-Factory #10632
        "[Refactor] Formatting output types related to FuseMoE",  # vllm-ascend #5481
        "fix(data): handle None tool_calls in OpenAI-style messages",
        "[data] feat: support the sharegpt format",
        "Modernize datasets: type hints and data splits handling",  # llm-compressor #1959
    ],
)
def test_titles_that_name_other_work(title: str) -> None:
    assert not names_mechanical_rewrite(title)


def test_a_sweep_edits_files_in_place_a_little_or_evenly() -> None:
    """What a title calls a sweep must look like one: at least SWEEP_MIN_FILES files of code,
    tests or docs edited in place, each a little (verl #1280: a median 12 lines) or all evenly
    (vllm-ascend #5977's move to ruff format: +924/-1049), and hardly any file added or
    deleted."""
    title = "[misc] chore: reformat code"

    def swept(files: list[FileChange]) -> bool:
        pr = make_pr(1, title).model_copy(update={"files": files})
        return change_shape(pr, CONFIG).sweep

    def edit(path: str, added: int, deleted: int, status: FileStatus = "modified") -> FileChange:
        return FileChange(path=path, additions=added, deletions=deleted, status=status)

    thin = [edit(f"verl/a{i}.py", 9, 3) for i in range(5)]
    even = [edit(f"verl/b{i}.py", 300, 340) for i in range(3)]
    assert swept(thin)
    assert swept(even)
    # Too few files; each rewritten heavily and unevenly; CI workflows, whose edits are small
    # because workflows are (vllm-ascend #5762).
    assert not swept(thin[: SWEEP_MIN_FILES - 1])
    assert not swept([edit(f"verl/c{i}.py", 300, 40) for i in range(5)])
    assert not swept([edit(f".github/workflows/w{i}.yml", 3, 3) for i in range(5)])
    # A license sweep adds the checker beside its headers (verl #110: 5 edits, 1 new test file);
    # a deprecation deletes files beside its reformat (verl #6126: 269 of 323).
    checker = edit("tests/sanity/check_license.py", 35, 0, "added")
    assert swept([*thin, checker])
    deleted = [edit(f"verl/old{i}.py", 0, 50, "removed") for i in range(2)]
    assert not swept([*thin, *deleted])
    # Docs count as swept files; data files do not.
    docs = [edit(f"docs/p{i}.md", 2, 2) for i in range(3)]
    assert swept(docs)
    assert not swept([edit(f"data/d{i}.json", 2, 2) for i in range(5)])


def test_lock_files_weigh_like_data_in_size() -> None:
    """AReaL #1056 'megatron bridge adaptation': 2,245 of its 2,681 lines were uv.lock."""
    relock = [("pyproject.toml", 10, 6), ("uv.lock", 2000, 245), ("nested/app/Cargo.lock", 9, 9)]
    locked = make_pr(1, "feat: bridge", files=[("areal/engine.py", 142, 0), *relock])
    plain = make_pr(2, "feat: bridge", files=[("areal/engine.py", 142, 0), relock[0]])
    data = make_pr(
        3, "feat: bridge", files=[("areal/engine.py", 142, 0), relock[0], ("a.jsonl", 2254, 9)]
    )
    shape = change_shape(locked, CONFIG)
    assert (shape.data_lines, shape.code_lines) == (2263, 158)
    sizes = [score_parts(pr, [], CONFIG)["size"] for pr in (locked, data, plain)]
    assert sizes[0] == sizes[1] > sizes[2]


def test_a_tests_data_files_weigh_like_data_in_size() -> None:
    """llm-compressor #453 regenerated two JSON files of expected results (2,574 lines) and led
    its week as a 7.3 key PR. Still the tests' own: a PR of them alone changes only tests."""
    expected = [
        ("tests/onnx/optim/test_sensitivity_ks_data/mobilenet_perf.json", 469, 469),
        ("tests/onnx/optim/test_sensitivity_ks_data/resnet50_perf.json", 803, 833),
    ]
    regenerated = make_pr(1, "update deepsparse tests for nightly build", files=expected)
    shape = change_shape(regenerated, CONFIG)
    assert (shape.data_lines, shape.test_lines, shape.support_only) == (2574, 0, True)
    with_test = make_pr(2, "test: x", files=[*expected, ("tests/test_ks.py", 40, 2)])
    assert change_shape(with_test, CONFIG).test_lines == 42
    code = make_pr(3, "update tests", files=[("tests/test_ks.py", 1287, 1287)])
    sizes = [score_parts(pr, [], CONFIG)["size"] for pr in (regenerated, code)]
    assert sizes[0] < sizes[1]


# Modelled on VeOmni #910: a model's patch config (core code) and the GPU modeling files its
# generator rewrote from it.
GENERATOR_CONFIG = ("verl/models/qwen3/qwen3_gpu_patch_gen_config.py", 40, 22)
GENERATED = [
    ("verl/models/qwen3/generated/patched_modeling_qwen3_gpu.py", 2400, 3),
    ("verl/models/qwen3/generated/patched_modeling_qwen3_gpu.diff", 900, 2),
    ("verl/proto/engine_pb2.py", 300, 0),
]


def test_generated_code_weighs_like_data_and_is_no_core_code() -> None:
    generated = make_pr(1, "feat: qwen3", files=[GENERATOR_CONFIG, *GENERATED])
    plain = make_pr(2, "feat: qwen3", files=[GENERATOR_CONFIG])
    shape = change_shape(generated, CONFIG)
    assert (shape.data_lines, shape.code_lines, shape.core_lines) == (3605, 62, 62)
    # The rewritten `.diff` no longer dilutes the config's share of core code.
    assert shape.core_share == 1.0
    parts = [score_parts(pr, [], CONFIG) for pr in (generated, plain)]
    assert parts[0]["core"] == parts[1]["core"]
    # Were the same lines written by hand, the PR would be larger.
    by_hand = [(path.replace("generated/", ""), a, d) for path, a, d in GENERATED]
    written = make_pr(3, "feat: qwen3", files=[GENERATOR_CONFIG, *by_hand])
    assert parts[0]["size"] < score_parts(written, [], CONFIG)["size"]


# Modelled on LLaMA-Factory #10504 "Patch GDN for NPU": triton kernels copied from a library
# into `third_party/` (3,148 of its 3,222 lines) beside the patch that calls them.
VENDORED_PATCH = ("verl/models/patcher.py", 60, 3)
VENDORED = [
    ("verl/third_party/triton/chunk_o.py", 617, 0),
    ("verl/third_party/triton/chunk_delta_h.py", 594, 0),
    ("3rdparty/cudnn-frontend", 1, 1),
    ("vendor/github.com/pkg/errors/errors.go", 280, 0),
]


def test_vendored_code_weighs_like_data_and_is_no_core_code() -> None:
    vendored = make_pr(1, "feat: gdn on npu", files=[VENDORED_PATCH, *VENDORED])
    plain = make_pr(2, "feat: gdn on npu", files=[VENDORED_PATCH])
    shape = change_shape(vendored, CONFIG)
    assert (shape.data_lines, shape.code_lines, shape.core_lines) == (1493, 63, 63)
    assert [file_kind(path, CONFIG) for path, _, _ in VENDORED] == ["vendored"] * 4
    parts = [score_parts(pr, [], CONFIG) for pr in (vendored, plain)]
    assert parts[0]["core"] == parts[1]["core"]
    # Were the same lines written here, the PR would be larger.
    own = [(path.replace("third_party/", ""), a, d) for path, a, d in VENDORED[:2]]
    written = make_pr(3, "feat: gdn on npu", files=[VENDORED_PATCH, *own])
    assert parts[0]["size"] < score_parts(written, [], CONFIG)["size"]


def test_a_vendor_folder_below_the_root_is_the_projects_own_code() -> None:
    """A TransformerEngine branch keeps its backends for each hardware vendor in
    `plugin/core/backends/vendor/`: its own code, not a library it copied."""
    assert file_kind("verl/plugin/backends/vendor/cuda/flash_attention.py", CONFIG) is None
    assert file_kind("vendor/golang.org/x/sync/errgroup.go", CONFIG) == "vendored"
    # The docs of a library's logos stay docs (LLaMA-Factory's `assets/thirdparty/*.svg`).
    assert file_kind("assets/thirdparty/colab.svg", CONFIG) == "doc"


def test_breaking_marker_and_breadth_raise_the_score() -> None:
    plain = score_parts(make_pr(1, "[fsdp] feat: x"), ["fsdp"], CONFIG)
    breaking = score_parts(make_pr(1, "[BREAKING][fsdp] feat: x"), ["fsdp"], CONFIG)
    four = ["fsdp", "megatron", "ckpt", "ray"]
    spread = [(f"verl/{m}/impl.py", 10, 0) for m in four]
    broad = score_parts(make_pr(1, "[fsdp] feat: x", files=spread), four, CONFIG)
    assert breaking["breaking"] > 0 and sum(breaking.values()) > sum(plain.values())
    assert broad["breadth"] > plain["breadth"] == 0
    # As broad as its code: verl #5548's three tags on one changed file span one place, and
    # two code folders bound four tags to two.
    one_file = score_parts(make_pr(1, "[fsdp] feat: x", files=spread[:1]), four, CONFIG)
    two = score_parts(make_pr(1, "[fsdp] feat: x", files=spread[:2]), four, CONFIG)
    assert one_file["breadth"] == 0 and 0 < two["breadth"] < broad["breadth"]
    # `[BugFix][CUDA]`: the type tag a repository learned as a label is no second area.
    two_places = [("verl/cuda/a.py", 5, 0), ("verl/loader/b.py", 5, 0)]
    typed = score_parts(
        make_pr(1, "[BugFix][CUDA] Fix x", files=two_places), ["bugfix", "cuda"], CONFIG
    )
    assert typed["breadth"] == 0


@pytest.mark.parametrize(
    ("title", "body", "impact"),
    [
        ("[rollout] fix: OOM when batch is large", "", "oom"),
        ("[sglang] fix: add memory saver support to avoid OOMs", "", "oom"),
        ("[megatron] fix: avoid 2x peak host memory", "The peak OOMKills the pod.", "oom"),
        ("[fsdp] fix: deadlock in all-gather", "", "hang"),
        ("[algo] fix: incorrect advantage", "", "wrong_result"),
        ("[ckpt] fix: checkpoint corruption on save", "", "data_loss"),
        ("[tool] fix: sandbox", "Closes a command injection vulnerability.", "security"),
        # AReaL #1323, slime #1587: what an attacker could do.
        ("fix(proxy): refuse default admin key", "Any attacker could authenticate.", "security"),
        ("fix: restrict SymPy parser scope to prevent arbitrary code execution", "", "security"),
        ("[data] fix: loader", "Training crashed with KeyError: 'x'.", "crash"),
        ("[npu] fix: 修复 NPU 上训练卡死的问题", "", "hang"),
        ("[trainer] fix: 修复精度不一致", "", "wrong_result"),
    ],
)
def test_fix_impacts(title: str, body: str, impact: str) -> None:
    assert impact in fix_impacts(title, body)
    parts = score_parts(make_pr(1, title, body=body), [], CONFIG)
    assert parts["fix_impact"] > 0


@pytest.mark.parametrize(
    "body",
    [
        # verl #6348, #6313: the bug did not crash, and the description says so.
        "The recipe does not crash and does not warn; it trains with a smaller scale.",
        "This is quiet: no crash is raised, but the tail is dropped. The rollout does not crash.",
        "140 steps completed without errors, deadlocks or OOM.",
        "It never crashes and doesn't hang; the loss is just off.",
        "训练不会崩溃，只是结果偏小。",
        # An error the fix makes the code raise is what it does (AReaL #1323, #1134).
        "It logged a warning; _setup_openai_client now raises RuntimeError when bound openly.",
        "Invalid mode values that were silently accepted will now raise ValueError.",
        "Added an explicit check to raise a RuntimeError when the method is unsupported.",
    ],
)
def test_a_denied_impact_is_no_impact(body: str) -> None:
    assert fix_impacts("[x] fix: y", body) == {}


@pytest.mark.parametrize(
    ("body", "impact"),
    [
        # What the fix ends says the bug had it.
        ("Training no longer crashes on empty batches.", "crash"),
        ("It doesn't crash anymore when the batch is empty.", "crash"),
        ("Without the fix, both crashes reproduce consistently.", "crash"),
        ("Without fix — hangs indefinitely on rank 0.", "hang"),
        ("Warn instead of crashing when a layer class is missing.", "crash"),
        ("Free the cache before the sync to avoid OOM.", "oom"),
        ("Changes:\n- Don't hang when the queue is full.", "hang"),
        # An error the code raised before the fix is the bug.
        ("Importing it at the top level will raise an ImportError without triton.", "crash"),
    ],
)
def test_what_the_fix_ends_is_no_denial(body: str, impact: str) -> None:
    assert impact in fix_impacts("[x] fix: y", body)
    # A title says what the fix does: `no OOM with ...` is an OOM fixed.
    assert fix_impacts("[rollout] fix: no OOM with long prompts", "") == {"oom": 1.0}


def test_nan_the_fix_returns_is_no_wrong_result() -> None:
    # verl #5899: the bug crashed; NaN is what the fix returns in its place.
    body = (
        "`compute_data_metrics` crashes on empty tensors. This PR returns a warning + NaN return."
    )
    assert fix_impacts("[trainer] fix: return NaN for empty tensors", body) == {"crash": 0.75}
    assert fix_impacts("[x] fix: y", "Add `numel() > 0` checks with NaN fallback.") == {}
    assert fix_impacts("[algo] fix: loss becomes NaN with bf16", "") == {"wrong_result": 1.0}
    assert fix_impacts("[x] fix: prevent NaN when all items are masked", "") == {
        "wrong_result": 1.0
    }


def test_fix_impact_ignores_feats_template_text_and_logs() -> None:
    feat = score_parts(make_pr(1, "[x] feat: better accuracy"), [], CONFIG)
    assert feat["fix_impact"] == 0
    logged = "Small fix.\n\n```\nTraceback: RuntimeError: OOM deadlock\n```\n"
    assert fix_impacts("[x] fix: typo in variable", logged) == {}
    assert fix_impacts("[x] fix: y", VERL_BODY) == {"wrong_result": 0.75}


def test_corrupted_values_are_wrong_results_and_corrupted_files_are_data_loss() -> None:
    assert fix_impacts("[x] fix: y", "This corrupts log-probabilities and entropy.") == {
        "wrong_result": 0.75
    }
    assert fix_impacts("[x] fix: silent label corruption under SP", "") == {"wrong_result": 1.0}
    for title in ("[ckpt] fix: checkpoint corruption on save", "[ckpt] fix: corrupted saved files"):
        assert fix_impacts(title, "") == {"data_loss": 1.0}


def test_a_wrong_thing_in_the_code_is_no_wrong_result() -> None:
    for title in ("[misc] fix the wrong url", "fix: incorrect import of flash_attn"):
        assert fix_impacts(title, "") == {}
    assert fix_impacts("fix: wrong sgl-kernel version in CI", "") == {}
    assert fix_impacts("fix: wrong loss values under SP", "") == {"wrong_result": 1.0}


@pytest.mark.parametrize(
    "title",
    [
        "[rollout] fix: qwen2_vl position_ids shape mismatch",
        "[fsdp] fix: device mismatch between fsdp2 offload and weights transfer",
        "[Misc] Fix type interface mismatch",
        "[Bugfix] Fix W4A4 MXFP4 weight scale K-dim mismatch",
        "[BugFix] Fix bug of mismatching dtype in testing",
        "[Doc][BugFix] Fix port mismatch in Kimi-K2.6 tutorial",
    ],
)
def test_a_mismatch_of_structure_is_no_wrong_result(title: str) -> None:
    """vllm-omni #478 "Fix type interface mismatch" read "addresses wrong results or
    precision": mismatched shapes, types or devices stop a run with an error."""
    assert "wrong_result" not in fix_impacts(title, "")


def test_a_mismatch_of_values_is_a_wrong_result() -> None:
    for title in ("[rollout] fix: logprob mismatch with vLLM", "fix: rollout-training mismatch"):
        assert fix_impacts(title, "") == {"wrong_result": 1.0}, title


def test_something_silent_is_a_wrong_result_only_when_it_happens_to_values() -> None:
    for body in (
        "The rollout engine could silently receive base weights without the LoRA delta.",
        "Such tensors get silently overwritten by the next broadcast.",
        "Router replay silently does nothing: no error, no warning.",
    ):
        assert fix_impacts("[x] fix: y", body) == {"wrong_result": 0.75}, body
    assert fix_impacts("[x] fix: y", "Training silently exits with no new steps.") == {}


def test_a_setting_that_had_no_effect_is_its_own_impact() -> None:
    for title in (
        "[fsdp] fix: FSDP2 silently drops fsdp_config.forward_prefetch",
        "[rollout,vllm] fix: max_num_seqs not take effect",
        "[megatron] fix: CUDA_DEVICE_MAX_CONNECTIONS not taking effect",
    ):
        assert fix_impacts(title, "") == {"ignored_setting": 1.0}, title
    body = "Setting ignore_eos to True in the script had no effect."
    assert fix_impacts("[rollout] fix: propagate ignore_eos", body) == {"ignored_setting": 0.75}
    # What the fix leaves alone (vllm-ascend #13785, #5223), or why it may (verl #6867).
    for body in (
        "The new check has no effect on performance.",
        "It has no effect on the default behavior.",
        "Temperature has no effect on `prompt_logprobs`: the teacher does not sample.",
    ):
        assert fix_impacts("[x] fix: y", body) == {}, body


def test_review_part_counts_threads_and_disagreement() -> None:
    pr = make_pr(1)
    thread = ReviewThread(
        repo=REPO,
        pr_number=1,
        thread_id="t1",
        comments=[ThreadComment(comment_id="c1", author="bob", body="Why?")],
    )
    quiet = score_parts(pr, [], CONFIG, review=PrReview())
    busy = score_parts(
        pr,
        [],
        CONFIG,
        review=PrReview(
            threads=[thread],
            reviews=[
                Review(
                    repo=REPO, pr_number=1, review_id="r", author="bob", state="CHANGES_REQUESTED"
                )
            ],
        ),
    )
    assert quiet["review"] == 0
    assert busy["review"] == pytest.approx(0.25 + 0.25 + 0.5)


def test_revert_parts() -> None:
    fix = make_pr(10, "[fsdp] fix: emit outputs", body="Closes #9.")
    revert = make_pr(11, 'Revert "[fsdp] fix: emit outputs"', is_revert=True, reverted_number=10)
    parts = score_parts(revert, [], CONFIG, reverted_pr=fix)
    assert parts["type"] == TYPE_WEIGHTS["revert"] and parts["revert"] == 1.5
    # Being reverted adds nothing to the reverted PR (verl #6350 ranked above the reference's
    # key PRs on it); the revert chain is a risk observation of its own.
    calibration = fit_calibration(history(), {}, CONFIG)
    no_reviews = ReviewData(available=False)
    [alone] = score_week([fix], {}, no_reviews, CONFIG, calibration)
    both = score_week([fix, revert], {}, no_reviews, CONFIG, calibration)
    assert next(s for s in both if s.number == 10).parts == alone.parts
    assert alone.parts["revert"] == 0


# ---------------------------------------------------------------------------------------------
# Calibration and monotonic scores


def test_a_weeks_calibration_is_fitted_on_its_year_and_nothing_later() -> None:
    """A week scores the same however many later weeks are stored, so a backfill and the
    weekly runs that kept a warehouse up to date agree. A year too quiet for a scale reaches
    back to the latest CALIBRATION_MIN_PRS PRs."""
    day = timedelta(days=1)
    merged = [MERGED + i * day for i in range(400)]
    end = merged[300]
    assert calibration_slice(merged, merged[250], end) == slice(100, 300)
    assert calibration_slice(merged, merged[50], end) == slice(50, 300)
    assert calibration_slice(merged, merged[0], merged[10]) == slice(0, 10)
    assert CALIBRATION_MIN_PRS == 200

    prs = history(300)
    start, week_end = prs[150].merged_at, prs[250].merged_at
    so_far = raw_history(prs[:250], {}, CONFIG).calibration(start, week_end)
    later = raw_history(prs, {}, CONFIG).calibration(start, week_end)
    assert so_far == later and so_far.history_size == 200
    # Whatever order the history comes in.
    assert raw_history(prs[::-1], {}, CONFIG).calibration(start, week_end) == so_far
    young = raw_history(prs[:20], {}, CONFIG).calibration(start, week_end)
    assert (young.method, young.history_size) == ("fixed", 20)


def test_a_run_scores_only_the_history_its_weeks_are_calibrated_on() -> None:
    """A scheduled run of one week scores a year of history, not all of it, and calibrates
    every week of the run as the whole history would, ties at the year's edge included."""
    prs = history(400)
    prs = [  # PRs merged in the same second as their neighbours
        pr.model_copy(update={"merged_at": prs[i - i % 3].merged_at}) for i, pr in enumerate(prs)
    ]
    merged = sorted(pr.merged_at for pr in prs)
    year = timedelta(days=140)  # shorter than the history, so some is left out
    spans = [(prs[i].merged_at - year, prs[i].merged_at) for i in (399, 250, 330)]
    since = calibration_since(merged, spans)
    assert since is not None and merged[0] < since
    whole = raw_history(prs, {}, CONFIG)
    part = raw_history(prs, {}, CONFIG, since=since)
    assert len(part.raw_scores) < len(whole.raw_scores)
    for start, end in spans:
        assert part.calibration(start, end) == whole.calibration(start, end)
    # A history of 230 PRs: the latest 200 reach back past the year's start.
    assert calibration_since(merged[:230], spans[1:2]) == merged[30]
    assert calibration_since(merged, []) is None
    assert calibration_since([], spans) is None


def test_a_reviewed_history_is_calibrated_with_its_review_parts() -> None:
    """With review data the week's PRs score their review (up to REVIEW_CAP raw); the scale
    they are placed on has it too, or every reviewed PR rose above its equals."""
    prs = history(60)
    thread = ReviewThread(
        repo=REPO, pr_number=0, thread_id="t", is_resolved=True, is_outdated=False, comments=[]
    )
    reviews = {
        pr.number: PrReview(
            threads=[thread.model_copy(update={"pr_number": pr.number}) for _ in range(4)]
        )
        for pr in prs
    }
    plain = raw_history(prs, {}, CONFIG)
    reviewed = raw_history(prs, {}, CONFIG, reviews)
    assert [b - a for a, b in zip(plain.raw_scores, reviewed.raw_scores, strict=True)] == [
        pytest.approx(1.0)
    ] * 60


def test_a_toolchain_upgrade_scores_like_a_change_of_all_the_core() -> None:
    """vllm-ascend #13901 moved every image to CANN 9.1.0 and re-pinned torch-npu and
    triton-ascend: what every run runs on, and it scored 4.2 as a chore of CI and image files.
    A re-pin of the project's own requirements with its images is a toolchain upgrade, in the
    week and in the history it is calibrated on. A pin alone (verl #65 re-pinned ray beside a
    fix), an image alone (verl #6269 bumped a CI image), or the pins of a development or a
    recipe's manifest are not."""
    upgrade = make_pr(
        1,
        "[Misc] Upgrade CANN(9.1.0), PTA(2.10.0.post4), and Triton(3.2.2)",
        files=[("Dockerfile", 2, 2), ("requirements.txt", 2, 2), (".github/workflows/a.yml", 1, 1)],
    )
    repins = [
        SettingChange(
            path="requirements.txt", key="torch-npu", before="==2.10.0", after="==2.10.1"
        ),
        SettingChange(
            path="pyproject.toml", key="build: torch-npu", before="==2.10.0", after="==2.10.1"
        ),
    ]
    assert score_parts(upgrade, [], CONFIG)["toolchain"] == 0.0
    assert score_parts(upgrade, [], CONFIG, requirement_changes=repins)["toolchain"] == (
        TOOLCHAIN_WEIGHT
    )
    pin_only = make_pr(2, "[misc] fix: weak reference", files=[("requirements.txt", 1, 1)])
    assert score_parts(pin_only, [], CONFIG, requirement_changes=repins)["toolchain"] == 0.0
    for elsewhere in (
        SettingChange(path="requirements-dev.txt", key="pytest", before="==8.0", after="==8.1"),
        SettingChange(path="setup.py", key="test: pytest", before="==8.0", after="==8.1"),
        SettingChange(
            path="recipe/vla/requirements.txt", key="torch", before="==2.7", after="==2.8"
        ),
        SettingChange(path="requirements.txt", key="torch", before=None, after="==2.8"),
        SettingChange(path="uv.lock", key="locked: torch", before="==2.7", after="==2.8"),
    ):
        parts = score_parts(upgrade, [], CONFIG, requirement_changes=[elsewhere])
        assert parts["toolchain"] == 0.0, elsewhere

    prs = [*history(60), upgrade.model_copy(update={"number": 999})]
    changes = {999: repins}
    plain = raw_history(prs, {}, CONFIG)
    upgraded = raw_history(prs, {}, CONFIG, requirement_changes=changes)
    assert upgraded.raw_scores[-1] == pytest.approx(plain.raw_scores[-1] + TOOLCHAIN_WEIGHT)
    calibration = upgraded.calibration(prs[0].merged_at, prs[-1].merged_at + timedelta(days=1))
    (score,) = score_week(
        prs[-1:], {}, ReviewData(available=False), CONFIG, calibration, requirement_changes=changes
    )
    assert score.raw_score == pytest.approx(upgraded.raw_scores[-1])


def test_settings_users_set_removed_or_renamed_are_breaking() -> None:
    """verl #7374 removed the MindSpeed-LLM backend with its settings and scored 6.6 as a
    feature, though a config that sets them no longer loads: a removal or a rename its config
    flag tells scores the breaking part, in the week and in the history it is calibrated on,
    whether or not the title says `[BREAKING]` (once). What the flag leaves out scores none: a
    generated config brought up to date (verl #5285), a setting moved to another file (#2433),
    a test's config, a setting only added."""
    engine = "verl/workers/config/engine.py"
    generated = "verl/trainer/config/_generated_ppo_trainer.yaml"
    trainer = "verl/trainer/config/ppo_trainer.yaml"
    critic = "verl/trainer/config/critic/critic.yaml"
    removal = make_pr(1, "[ci, trainer] feat: remove mindspeedllm backend", files=[(engine, 2, 40)])
    removed = [
        SettingChange(path=engine, key="MindSpeedEngineConfig.llm_kwargs", before="{}"),
        SettingChange(path=engine, key="MindSpeedEngineConfig.seed", before="42", after="7"),
    ]
    assert score_parts(removal, [], CONFIG)["breaking"] == 0.0
    assert score_parts(removal, [], CONFIG, requirement_changes=removed)["breaking"] == (
        SETTINGS_DROPPED_WEIGHT
    )
    renamed = [
        SettingChange(path=trainer, key="trainer.resume_path", before="null"),
        SettingChange(path=trainer, key="trainer.resume_from_path", after="null"),
    ]
    rename = make_pr(2, "[trainer] feat: resume from a path", files=[(trainer, 1, 1)])
    assert score_parts(rename, [], CONFIG, requirement_changes=renamed)["breaking"] == (
        SETTINGS_DROPPED_WEIGHT
    )
    said = make_pr(3, "[BREAKING][trainer] feat: x", files=[(engine, 2, 40)])
    assert score_parts(said, [], CONFIG, requirement_changes=removed)["breaking"] == (
        BREAKING_WEIGHT
    )
    moved = [
        SettingChange(path=trainer, key="critic.optim.lr", before="1e-5"),
        SettingChange(path=critic, key="optim.lr", after="1e-5"),
    ]
    for files, edits in (
        ([(generated, 0, 2)], [SettingChange(path=generated, key="a.b", before="1")]),
        ([(trainer, 0, 2), (critic, 2, 0)], moved),
        (
            [("tests/config/tiny.yaml", 0, 2)],
            [SettingChange(path="tests/config/tiny.yaml", key="a", before="1")],
        ),
        ([(trainer, 2, 0)], [SettingChange(path=trainer, key="trainer.new", after="1")]),
    ):
        kept = make_pr(4, "[trainer] feat: x", files=files)
        assert score_parts(kept, [], CONFIG, requirement_changes=edits)["breaking"] == 0.0

    prs = [*history(60), removal.model_copy(update={"number": 999})]
    changes = {999: removed}
    plain = raw_history(prs, {}, CONFIG)
    breaking = raw_history(prs, {}, CONFIG, requirement_changes=changes)
    assert breaking.raw_scores[-1] == pytest.approx(plain.raw_scores[-1] + SETTINGS_DROPPED_WEIGHT)
    calibration = breaking.calibration(prs[0].merged_at, prs[-1].merged_at + timedelta(days=1))
    (score,) = score_week(
        prs[-1:], {}, ReviewData(available=False), CONFIG, calibration, requirement_changes=changes
    )
    assert score.raw_score == pytest.approx(breaking.raw_scores[-1])
    assert not score.breaking  # what the PR says of itself, which the report counts


def test_a_deleted_config_file_users_run_with_is_breaking() -> None:
    """verl #5382 deleted `sft_trainer.yaml` (run as `--config-name sft_trainer`) and its config
    flag said so, but importance read only setting changes, of which a deleted file has none: a
    config file the flag names as deleted scores the breaking part. A test's config, or a
    generated one alone, is none users run with."""
    sft = "verl/trainer/config/sft_trainer.yaml"

    def deleting(path: str) -> PullRequest:
        pr = make_pr(1, "[trainer] refactor: remove fsdp_sft_trainer.py", files=[(path, 0, 80)])
        gone = pr.files[0].model_copy(update={"status": "removed"})
        return pr.model_copy(update={"files": [gone]})

    assert score_parts(deleting(sft), [], CONFIG)["breaking"] == SETTINGS_DROPPED_WEIGHT
    for kept in ("tests/e2e/configs/tiny.yaml", "verl/trainer/config/_generated_sft.yaml"):
        assert score_parts(deleting(kept), [], CONFIG)["breaking"] == 0.0, kept


def test_a_deleted_example_or_recipe_config_is_not_breaking() -> None:
    """slime #1431 "cleanup redundant example and scripts" deleted an eval example's
    `config/local_cluster.yaml` and scored the breaking part: users copy an example's or a
    recipe's config and run their copy. A config right in `examples/configs/` is the one the
    examples share (NeMo RL #7 deleted `base.yaml`, which `grpo.yaml` extended)."""

    def deleting(path: str, settings: list[SettingChange] | None = None) -> dict[str, float]:
        pr = make_pr(1431, "[doc] cleanup redundant example and scripts", files=[(path, 0, 30)])
        gone = pr.files[0].model_copy(update={"status": "removed"})
        pr = pr.model_copy(update={"files": [gone]})
        return score_parts(pr, [], CONFIG, requirement_changes=settings or [])

    for copied in (
        "examples/eval/nemo_skills/config/local_cluster.yaml",
        "recipe/dapo/config/dapo_trainer.yaml",
        "examples/configs/recipes/llm/grpo-qwen3-0.6b-1n8g-sglang.yaml",
    ):
        assert deleting(copied)["breaking"] == 0.0, copied
    assert deleting("examples/configs/base.yaml")["breaking"] == SETTINGS_DROPPED_WEIGHT
    # torchtitan #3582 deleted its RL example's `examples/sum_digits/env.py`.
    env = "torchtitan/experiments/rl/examples/sum_digits/env.py"
    removed = [SettingChange(path=env, key="MAX_DIGITS", before="8")]
    assert deleting(env, removed)["breaking"] == 0.0


def test_settings_of_a_deleted_settings_module_are_breaking() -> None:
    """slime #424 removed the xtuner backend with its arguments.py, whose options launch scripts
    pass, and scored 5.8: its stored settings count as removed, as its config flag says them."""
    xtuner = "slime/backends/xtuner_utils/arguments.py"
    pr = make_pr(424, "[xtuner] remove xtuner backend", files=[(xtuner, 0, 90)])
    pr = pr.model_copy(update={"files": [pr.files[0].model_copy(update={"status": "removed"})]})
    removed = [SettingChange(path=xtuner, key="--ep-size", before="1")]
    assert score_parts(pr, [], CONFIG)["breaking"] == 0.0
    assert score_parts(pr, [], CONFIG, requirement_changes=removed)["breaking"] == (
        SETTINGS_DROPPED_WEIGHT
    )


def test_calibration_maps_history_percentiles_and_round_trips_as_json() -> None:
    calibration = fit_calibration(history(), {}, CONFIG)
    assert calibration.method == "history" and calibration.history_size == 120
    assert calibration.raw_points == sorted(calibration.raw_points)
    values = [calibration.importance(x / 10) for x in range(-10, 200)]
    assert values == sorted(values)
    assert values[0] == 0.0 and values[-1] == 10.0
    assert all(round(v, 1) == v for v in values)
    restored = ScoreCalibration.model_validate_json(calibration.model_dump_json())
    assert restored.importance(5.0) == calibration.importance(5.0)


def test_short_history_falls_back_to_a_fixed_scale() -> None:
    calibration = fit_calibration(history(10), {}, CONFIG)
    assert calibration.method == "fixed"
    assert 0.0 <= calibration.importance(6.0) <= 10.0


def test_a_short_historys_scale_finds_key_prs_as_a_calibrated_one_would() -> None:
    """llm-compressor's first three stored weeks (from 2026-01-26, 25 PRs) read 0 key PRs on
    the old fixed scale, which made a PR key from raw 8.4 (at most 0.3% of any of twelve
    repositories' PRs reach it), and 6 once a year of history was stored."""
    feature = make_pr(
        1,
        "[trainer] feat: add sequence packing to the trainer",
        body="Adds sequence packing to the trainer and the rollout, with a flag to turn it on.",
        files=[
            ("verl/trainer/packing.py", 220, 10),
            ("verl/workers/rollout.py", 60, 20),
            ("tests/test_packing.py", 90, 0),
        ],
    )
    typo = make_pr(2, "[doc] chore: fix a typo", files=[("docs/index.md", 1, 1)])
    young = fit_calibration(history(8), {}, CONFIG)
    assert young.method == "fixed"
    scores = score_week([feature, typo], {}, ReviewData(available=False), CONFIG, young)
    assert [(s.number, s.is_key) for s in scores] == [(1, True), (2, False)]
    # The typical scale's 70th percentile is a calibrated scale's key threshold.
    assert young.importance(TYPICAL_RAW_POINTS[7]) == 7.0 == CONFIG.key_threshold
    values = [young.importance(x / 10) for x in range(-10, 200)]
    assert values == sorted(values) and values[0] == 0.0 and values[-1] == 10.0


def test_the_same_pr_scores_the_same_in_any_week() -> None:
    calibration = fit_calibration(history(), {}, CONFIG)
    pr = make_pr(1, "[fsdp] fix: deadlock", files=[("verl/x.py", 50, 5)])
    later = pr.model_copy(update={"merged_at": MERGED + timedelta(weeks=30)})
    crowd = [make_pr(n, "[doc] chore: x", files=[("docs/a.md", 1, 0)]) for n in range(2, 30)]
    alone = score_week([pr], {}, ReviewData(available=False), CONFIG, calibration)
    crowded = score_week([later, *crowd], {}, ReviewData(available=False), CONFIG, calibration)
    assert alone[0].importance == next(s for s in crowded if s.number == 1).importance


@pytest.mark.parametrize(
    "title", ["[fsdp] fix: crash", "[fsdp] feat: new engine", "[fsdp] chore: x"]
)
@pytest.mark.parametrize("other_lines", [0, 40, 2000])
def test_a_bigger_core_change_never_scores_lower(title: str, other_lines: int) -> None:
    calibration = fit_calibration(history(), {}, CONFIG)
    previous_raw = previous_importance = -1.0
    raw_scores = []
    for core_lines in [0, 1, 3, 9, 10, 30, 99, 100, 101, 500, 5000, 50000]:
        files = [
            ("verl/core.py", core_lines, 0),
            ("examples/run.sh", other_lines, 0),
            ("tests/t.py", 5, 0),
        ]
        pr = make_pr(1, title, files=files)
        score = score_week([pr], {1: ["fsdp"]}, ReviewData(available=False), CONFIG, calibration)[0]
        assert score.raw_score >= previous_raw
        assert score.importance >= previous_importance
        previous_raw, previous_importance = score.raw_score, score.importance
        raw_scores.append(score.raw_score)
    # Never lower, and not flat either: core lines count.
    assert raw_scores[-1] > raw_scores[0]


def test_core_share_is_not_diluted_by_tests() -> None:
    bare = score_parts(make_pr(1, files=[("verl/a.py", 200, 0)]), [], CONFIG)
    tested = score_parts(
        make_pr(1, files=[("verl/a.py", 200, 0), ("tests/t.py", 300, 0)]), [], CONFIG
    )
    assert bare["core"] == tested["core"] == CORE_WEIGHT


def test_score_week_orders_flags_key_prs_and_handles_an_empty_week() -> None:
    calibration = fit_calibration(history(), {}, CONFIG)
    prs = [
        make_pr(1, "[doc] chore: typo", files=[("docs/a.md", 1, 1)]),
        make_pr(
            2, "[fsdp] fix: wrong gradients", files=[("verl/x.py", 300, 40), ("tests/t.py", 80, 0)]
        ),
    ]
    scores = score_week(prs, {}, ReviewData(available=False), CONFIG, calibration)
    assert [s.number for s in scores] == [2, 1]
    assert scores[0].is_key and not scores[1].is_key
    assert scores[0].fix_impacts == ["wrong_result"]
    assert sum(scores[0].parts.values()) == pytest.approx(scores[0].raw_score, abs=1e-3)
    assert score_week([], {}, ReviewData(available=False), CONFIG, calibration) == []


def test_a_batch_landed_long_after_it_was_written_keeps_its_highest_key_prs() -> None:
    """ColossalAI's pipeline branch, rebased onto main on 2023-08-15, made 40 of its 54 PRs
    key: a batch is ranked as any PRs are, but keeps BATCH_KEY_LIMIT key PRs."""
    calibration = fit_calibration(history(), {}, CONFIG)
    written = MERGED - timedelta(days=30)
    batch = [
        make_pr(
            n,
            "[fsdp] fix: wrong gradients",
            files=[("verl/x.py", 300 + n, 40), ("tests/t.py", 80, 0)],
            batch_written_at=written,
        )
        for n in range(1, BATCH_KEY_LIMIT + 3)
    ]
    alone = make_pr(
        99, "[fsdp] fix: wrong gradients", files=[("verl/x.py", 300, 40), ("tests/t.py", 80, 0)]
    )
    no_data = ReviewData(available=False)
    scores = score_week([*batch, alone], {}, no_data, CONFIG, calibration)
    unbatched = [pr.model_copy(update={"batch_written_at": None}) for pr in batch]
    assert all(s.is_key for s in score_week([*unbatched, alone], {}, no_data, CONFIG, calibration))
    assert [s.number for s in scores if s.is_key] == [
        *range(BATCH_KEY_LIMIT + 2, 2, -1),
        99,
    ]
    assert [s.number for s in scores if not s.is_key] == [2, 1]
    # Ranked as before: they reach the key threshold, and are no key PRs of the week.
    assert all(s.importance >= CONFIG.key_threshold for s in scores)


def test_score_week_finds_a_revert_target_in_history() -> None:
    calibration = fit_calibration(history(), {}, CONFIG)
    fix = make_pr(10, "[fsdp] fix: emit outputs (#9)", merged_at=MERGED - timedelta(days=10))
    revert = make_pr(11, 'Revert "[fsdp] fix: emit outputs (#9)"', body="Reverts o/n#10")
    score = score_week([revert], {}, ReviewData(available=False), CONFIG, calibration, {10: fix})[0]
    assert score.pr_type == "revert"
    assert score.parts["revert"] == 1.5  # a revert of a fix


def test_a_revert_whose_change_landed_again_within_its_week_undid_nothing_it_kept() -> None:
    """vllm-ascend #12619 reverted #12515 and led its week at 9.9; #12650 re-landed the fix
    14 hours later, in the same week. A re-land of a later week is unknown at the week's end,
    so it changes nothing, whenever the week is scored."""
    calibration = fit_calibration(history(), {}, CONFIG)
    hour = timedelta(hours=1)
    files = [("verl/eplb.py", 272, 17)]
    fix = make_pr(12515, "[Bugfix] Fix main2main eplb", files=files, merged_at=MERGED - 3 * hour)
    revert = make_pr(
        12619, '[Revert] "[Bugfix] Fix main2main eplb"', body="Reverts o/n#12515", merged_at=MERGED
    )
    reland = make_pr(
        12650, "[Bugfix] fix main2main eplb", files=files, merged_at=MERGED + 14 * hour
    )
    no_data = ReviewData(available=False)

    def revert_part(week: list[PullRequest], stored: list[PullRequest]) -> float:
        known = {pr.number: pr for pr in stored}
        scores = score_week(week, {}, no_data, CONFIG, calibration, known)
        return next(s for s in scores if s.number == revert.number).parts["revert"]

    assert revert_part([fix, revert, reland], []) == 0.0
    assert revert_part([fix, revert], []) == 1.5
    later = reland.model_copy(update={"merged_at": MERGED + timedelta(weeks=1)})
    assert revert_part([fix, revert], [later]) == 1.5  # stored by a later run
    # A revert of two PRs (torchtitan #3212) undid something the week kept unless both came back.
    bucketing = [("verl/pass.py", 40, 0)]
    other = make_pr(3107, "Enable the bucketing pass", files=bucketing, merged_at=MERGED - hour)
    both = make_pr(
        12619,
        "Revert eplb PRs (#12515, #3107)",
        files=[("verl/eplb.py", 17, 272), ("verl/pass.py", 0, 40)],
        merged_at=MERGED,
    )
    assert revert_part([fix, other, both, reland], []) == 1.5
    again = make_pr(3213, "Enable the bucketing pass", files=bucketing, merged_at=MERGED + hour)
    assert revert_part([fix, other, both, reland, again], []) == 0.0


def relanded_revert() -> list[PullRequest]:
    """verl #5525 reverted #5149, and #5528 landed it again 3 hours later, in the same week."""
    hour = timedelta(hours=1)
    files = [("verl/workers/rollout/trtllm.py", 120, 30)]
    fix = make_pr(5149, "[rollout] fix: partial load", files=files, merged_at=MERGED - 3 * hour)
    revert = make_pr(
        5525, 'Revert "[rollout] fix: partial load"', body="Reverts o/n#5149", merged_at=MERGED
    )
    reland = make_pr(5528, "[rollout] fix: partial load", files=files, merged_at=MERGED + 3 * hour)
    return [fix, revert, reland]


def week_raw_scores(week: list[PullRequest]) -> list[float]:
    """The raw scores `score_week` gives `week`'s PRs, in their order."""
    calibration = fit_calibration(history(), {}, CONFIG)
    scores = score_week(week, {}, ReviewData(available=False), CONFIG, calibration)
    return [next(s.raw_score for s in scores if s.number == pr.number) for pr in week]


def test_the_scale_holds_a_revert_at_the_score_its_week_gave_it() -> None:
    """verl #5525's week scored it 5.7 raw, without the revert part, as #5528 landed the change
    again; the history the scale is fitted on scored it 6.7, with it (6 of verl's 27
    reverts). A re-land of a later week leaves the revert's part in both."""
    fix, revert, reland = relanded_revert()
    same_week = raw_history([fix, revert, reland], {}, CONFIG, weeks=[[5149, 5525, 5528]])
    assert same_week.raw_scores == pytest.approx(week_raw_scores([fix, revert, reland]), abs=1e-4)
    later = reland.model_copy(update={"merged_at": MERGED + timedelta(weeks=1)})
    weeks_apart = raw_history([fix, revert, later], {}, CONFIG, weeks=[[5149, 5525], [5528]])
    assert weeks_apart.raw_scores[:2] == pytest.approx(week_raw_scores([fix, revert]), abs=1e-4)
    assert weeks_apart.raw_scores[1] == pytest.approx(same_week.raw_scores[1] + 1.5, abs=1e-4)


def test_a_run_fits_its_scale_on_the_weeks_it_stored(tmp_path: Path) -> None:
    """The scoring stage reads the stored weeks for the calibration's history: #5525 sits on
    the scale at the raw score its week gave it."""
    settings = load_settings(write_config(tmp_path, tmp_path))
    repo = settings.repos[0].model_copy(update={"name": REPO, "scoring": CONFIG})
    prs = [*history(60), *relanded_revert()]
    by_week: dict[date, list[PullRequest]] = defaultdict(list)
    for pr in prs:
        by_week[week_of(pr.merged_at, settings.timezone)].append(pr)
    with connect(settings.database) as con:
        for week, stored in by_week.items():
            replace_partition(con, REPO, week, pr_tables(week, stored))
        loaded = load_history(
            con, repo, windows_for(settings, [week_of(MERGED, settings.timezone)])
        )
    revert_raw = week_raw_scores(prs[-3:])[1]
    assert loaded.raw.raw_scores[-2] == pytest.approx(revert_raw, abs=1e-4)


def test_scoring_counts_no_module_the_classifier_was_unsure_of(tmp_path: Path) -> None:
    """TransformerEngine #3009 ("Bitmap topk") went from 5.3 to 7.5, key, on the breadth a
    `jax` guessed at 0.30 gave it beside its own `[PyTorch]`, when the classifier was trained
    on one more tagged PR; the reports list such a guess's PR as unlabelled."""
    settings = load_settings(write_config(tmp_path, tmp_path))
    repo = settings.repos[0].model_copy(update={"name": REPO, "scoring": CONFIG})
    pr = make_pr(3009, "Bitmap topk", merged_at=MERGED)
    week = week_of(MERGED, settings.timezone)
    labels = [
        ModuleLabel(repo=REPO, number=3009, module="pytorch", origin="title", confidence=1.0),
        ModuleLabel(repo=REPO, number=3009, module="jax", origin="model", confidence=0.3),
        ModuleLabel(repo=REPO, number=3009, module="common", origin="model", confidence=0.5),
    ]
    with connect(settings.database) as con:
        replace_partition(
            con, REPO, week, [*pr_tables(week, [pr]), *module_tables(week, labels, [], [])]
        )
        loaded = load_history(con, repo, windows_for(settings, [week]))
    assert sorted(loaded.modules[3009]) == ["common", "pytorch"]


def test_an_untyped_pr_of_tests_or_ci_alone_is_a_test_change_or_upkeep() -> None:
    """torchtitan: 22 of its 242 untyped PRs changed only tests, CI or image builds (#2855 "Skip
    GPU CI workflows for draft PRs ...", #3157 "Use CrossEntropyLoss for torchcomms 3D compile
    tests")."""
    calibration = fit_calibration(history(), {}, CONFIG)

    def typed(title: str, files: list[tuple[str, int, int]]) -> str:
        pr = make_pr(1, title, files=files)
        return score_week([pr], {}, ReviewData(available=False), CONFIG, calibration)[0].pr_type

    workflows = [(".github/workflows/gpu.yaml", 12, 3), ("tests/test_loss.py", 2, 2)]
    assert typed("Skip GPU CI workflows for draft PRs", workflows) == "chore"
    tests = [("tests/integration_tests/features.py", 8, 8), ("tests/README.md", 1, 0)]
    assert typed("Use CrossEntropyLoss for torchcomms 3D compile tests", tests) == "test"
    # Code changed too, or a title that says its type: the title's word stands.
    assert typed("Merge lora and float8 tests", [*tests, ("verl/config.py", 4, 4)]) == "other"
    assert typed("Fix the flaky loss check", tests) == "fix"
    # Mechanical work alone, in code too (AReaL #559, slime #1021), is upkeep.
    code = [("verl/a.py", 40, 44), ("verl/b.py", 37, 43)]
    assert typed("format: ruff format examples directory", code) == "chore"
    assert typed("pre-commit run --all-files", code) == "chore"
    assert typed("Format the rollout output", code) == "other"


def test_an_untyped_pr_that_adds_much_new_code_is_a_feature() -> None:
    """LLaMA-Factory's "[model] gemma4" (+442/-6 in code) weighed as an "other" change and was
    in no section of its week's report; verl's "Activation Offloading" (+563) too. A small
    addition, or one that rewrites as much as it adds, stays untyped."""
    calibration = fit_calibration(history(), {}, CONFIG)

    def typed(title: str, files: list[tuple[str, int, int]]) -> str:
        pr = make_pr(1, title, files=files)
        return score_week([pr], {}, ReviewData(available=False), CONFIG, calibration)[0].pr_type

    gemma4 = [("src/llamafactory/model/gemma4.py", 400, 0), ("src/llamafactory/data/t.py", 42, 6)]
    assert typed("[model] gemma4", gemma4) == "feat"
    assert typed("[model] gemma4", [*gemma4, ("tests/test_gemma4.py", 300, 0)]) == "feat"
    assert typed("[v1] model loader", [("src/loader.py", 449, 305)]) == "other"
    assert typed("[data] bailing template", [("src/template.py", 10, 0)]) == "other"
    # Tests and docs are no new work of the code.
    small_code = ("src/a.py", 20, 2)
    assert typed("[v1] more cases", [small_code, ("tests/test_a.py", 300, 0)]) == "other"
    assert typed("[v1] gemma4 guide", [small_code, ("docs/gemma4.md", 300, 0)]) == "other"
    # Nor are CI workflows and image builds (vllm-ascend #1623: a workflow and its script).
    workflow = [(".github/workflows/pr_body.yaml", 63, 0), ("tools/pr_body.sh", 52, 0)]
    assert typed("Record vLLM commit in PR description", workflow) == "other"
    # Tags whose types disagree said no feature, unless one of them is (vllm-ascend #10102,
    # #11431).
    assert typed("[BugFix][Refactor] Reduce KV cache regions", gemma4) == "other"
    assert typed("[Feature][Refactor] DSv4 DSpark", gemma4) == "feat"


def test_a_pr_changing_documentation_alone_is_a_docs_change_whatever_its_verb() -> None:
    """verl's NPU PRs of 2026-05-11 read "8 chores, 6 refactors" in the report: `[doc] chore:
    NPU model migration guidance`, `[doc] refactor: ... add new FAQ questions`. A PR that also
    changes code keeps its title's type, and a revert of documentation stays a revert."""
    calibration = fit_calibration(history(), {}, CONFIG)
    docs = [("docs/ascend/faq.rst", 120, 4), ("README.md", 3, 1)]
    prs = [
        make_pr(1, "[doc] refactor: add new FAQ questions", files=docs),
        make_pr(2, "[doc] fix: delete sglang_multiturn", files=[("docs/sglang.md", 0, 80)]),
        make_pr(3, "[doc] fix: the example's flag", files=[*docs, ("examples/run.sh", 1, 1)]),
        make_pr(4, 'Revert "[doc] chore: faq"', files=docs, is_revert=True),
    ]
    scores = score_week(prs, {}, ReviewData(available=False), CONFIG, calibration)
    assert {s.number: s.pr_type for s in scores} == {1: "doc", 2: "doc", 3: "fix", 4: "revert"}
    assert {s.number: s.parts["type"] for s in scores if s.number != 3} == dict.fromkeys(
        (1, 2, 4), TYPE_WEIGHTS["doc"]
    )


@pytest.mark.parametrize(
    ("body", "impacts"),
    [
        ("Reject unsafe replay annotations during pipeline injection.", set()),
        ("Prevent SQL injection in the chat API.", {"security"}),
        ("Add an SM100 regression for packed float32 reductions.", set()),
        ("Add regressions for atomic target reads.", set()),
        ("Provides regression testing for future changes.", set()),
        ("This PR fixes a startup regression for Ascend hybrid attention.", {"regression"}),
        # Precision as a number format is no wrong result (verl #6644, tilelang #1602).
        ("Pass the mixed precision config to veomni.", set()),
        ("Mangle Single Precision math functions; keep low-precision dtypes.", set()),
        ("Fix the precision issue in GQA decode when block_N exceeds seqlen.", {"wrong_result"}),
        # Numerics a test checks are no wrong result; a compile failure is an error (tilelang
        # #2894); numerics as a symptom still count.
        (
            "The kernels failed to compile with 'identifier htan is undefined'. The test asserts"
            " that numerical results match torch.tan; the change is numerically neutral.",
            {"crash"},
        ),
        ("Fix a numerical error in the online softmax.", {"wrong_result"}),
        ("Loss curves were numerically unstable at bf16.", {"wrong_result"}),
        # Words that name another change or what stays unchanged (verl #7328, #7413, #7334).
        ("Rebased on a MoE residual-memory leak fix.", set()),
        ("There is a memory leak in the rollout workers.", {"oom"}),
        ("This PR is a memory leak fix for the rollout worker.", {"oom"}),
        ("Checked the non-regression cases too.", set()),
        ("Warn when flash-attn is built against a mismatched CUDA runtime.", set()),
        ("Fix the logprob mismatch between rollout and training.", {"wrong_result"}),
    ],
)
def test_compiler_words_and_added_tests_are_no_impacts(body: str, impacts: set[str]) -> None:
    """tilelang: a pass's "injection" is no security hole, an added regression test no
    regression."""
    assert set(fix_impacts("[BugFix] Fix reduce lowering", body)) == impacts


def test_a_fix_that_changes_no_behaviour_has_no_impact() -> None:
    """ColossalAI #4253 `[NFC] Fix format for mixed precision` was scored as a precision fix."""
    assert fix_impacts("[NFC] Fix format for the precision check", "It crashed the linter.") == {}
    assert fix_impacts("[zero] Fix the precision check", "") == {"wrong_result": 1.0}


def test_a_description_that_says_no_behaviour_changed_names_no_impact() -> None:
    """torchtitan #3733 (a warning's missing f-prefix) was a key "wrong results" fix by the
    "resharding mismatch" its warning helps to debug, though its author wrote "no
    behavioral/numerical impact"."""
    body = (
        "The warning helps when debugging a resume / resharding mismatch.\n\n"
        "Logging-only change; no behavioral/numerical impact."
    )
    assert fix_impacts("Fix missing f-prefix in dataloader resume warning", body) == {}
    assert fix_impacts("Fix the NaN loss", body) == {"wrong_result": 1.0}  # the title still says
    # A denial with slashes denies each word; "no behavior change for X" leaves the rest.
    assert fix_impacts("Fix x", "There is no crash/hang either way.") == {}
    assert fix_impacts(
        "Fix x", "It returned a wrong shape. No behavior change for the default path."
    ) == {"wrong_result": 0.75}


def test_a_squashed_list_of_commits_is_no_description() -> None:
    """tilelang #682's body is its branch's commits; the first is another PR's subject."""
    body = (
        "* Refactor buffer index handling for improved precision (#668)\n\n"
        "* Fix the copy lowering\n\n"
        "* lint"
    )
    title = "[Refactor] Use access_ptr for cp async params (#682)"
    assert summarize(title, body) == summarize(title, "")
    # A description that merely uses a list is still one.
    written = "This PR moves the pass earlier.\n\n* faster\n* simpler"
    assert summarize(title, written) == "This PR moves the pass earlier."
    # aibrix #2273: the commits a line each, the first from the PR its branch grew from.
    one_a_line = (
        "* Add brixbench benchmark module\n"
        "* Add Qwen3-8B 4P4D PD routing benchmark scenarios\n"
        "* Update Qwen3-8B routing benchmark YAMLs\n\n"
        "Signed-off-by: A <a@example.com>"
    )
    title = "[Misc] Add Qwen3-8B 4P4D PD routing benchmark scenarios"
    assert summarize(title, one_a_line) == summarize(title, "")
    # A list the author wrote a line an item, which does not name the title, describes.
    listed = "* Add a retry to the provisioner\n* Log each failed attempt"
    assert summarize(title, listed).startswith("Add a retry to the provisioner")
    # aibrix #2564: every line a conventional commit subject, none of them the title.
    conventional = (
        "* chore(batch): log result persistence failures\n"
        "* fix(batch): expose actionable processing errors\n"
        "* fix(batch): reject stale job refresh updates"
    )
    assert summarize(title, conventional) == summarize(title, "")


def test_a_squash_whose_first_commit_is_the_pr_says_what_that_commit_says() -> None:
    """lmdeploy #4838: the branch's first commit is the PR's own change, its message the only
    description the PR has; the fixups after it say nothing."""
    title = "fix(turbomind): dispatch cuMemcpyBatchAsync by CUDA runtime version"
    body = (
        "* fix(turbomind): dispatch cuMemcpyBatchAsync by CUDA runtime version\n\n"
        "CUDA 13 removed failIdx from batched memcpy APIs, so calling the v12080 entry point"
        " segfaults during Engine setup on cu13 builds.\n\n"
        "* fix lint\n\n"
        "* resolve comment"
    )
    assert summarize(title, body).startswith("CUDA 13 removed failIdx from batched memcpy APIs")
    # The message may follow the subject without a blank line.
    tight = body.replace("version\n\nCUDA", "version\nCUDA")
    assert summarize(title, tight) == summarize(title, body)
    # Under another subject, the first commit describes only itself (tilelang #583).
    other = "[Enhancement] align shared memory allocations"
    assert summarize(other, body) == summarize(other, "")
    # A first commit that names its PR came from that PR.
    taken = body.replace("runtime version\n", "runtime version (#4801)\n", 1)
    assert summarize(title, taken) == summarize(title, "")
    # lmdeploy #4812's title names the number too: a backport of #4804, its own change.
    assert summarize(f"{title} (#4801)", taken) == summarize(title, body)


def test_a_squash_of_commits_that_say_the_change_is_summarised_by_their_subjects() -> None:
    """OpenRLHF #1307's body is GitHub's squash message of two detailed commits, neither the
    title: its summary was the title, and the report said the message did not summarise it."""
    title = "Cleanup/simplicity tier1 2"
    body = (
        "* fix: correct latent bugs surfaced by simplicity review\n\n"
        "- train_ppo_ray: `max_len` was defined only inside the `vllm.num_engines>0`\n"
        "  branch but read unconditionally, so running with 0 engines raised NameError.\n\n"
        "Co-Authored-By: A <a@example.com>\n\n"
        "* refactor: remove dead params and unreachable code\n\n"
        "No behavior change; every removed symbol is unused or always-constant:\n"
        "- CriticModel.forward `values_allgather` (never read) + 2 call sites\n\n"
        "* fix lint\n\n"
        "* Merge branch 'main' into cleanup\n\n"
        "---------\n\n"
        "Co-authored-by: B <b@example.com>"
    )
    assert summarize(title, body) == (
        "Correct latent bugs surfaced by simplicity review; remove dead params and unreachable"
        " code."
    )
    # As many subjects as fit, and `…` for the rest.
    many = "\n\n".join(f"* Remove the dead {name} parameter for simplicity" for name in "abcdefgh")
    assert summarize(title, many) == (
        "Remove the dead a parameter for simplicity; remove the dead b parameter for simplicity;"
        " remove the dead c parameter for simplicity; remove the dead d parameter for simplicity; …"
    )


@pytest.mark.parametrize(
    "body",
    [
        # A branch's diary: fixups are most of the list (TE #147's `5k -> 173 errors`, `next
        # round fixes`, `final cpp cleanup`).
        "* Port initial changes\n\n* fix\n\n* next round fixes\n\n* final cpp cleanup\n\n"
        "* Remove the cleanup of stale userbuffers\n\n* [pre-commit.ci] auto fixes from"
        " pre-commit.com hooks\n\n* Update README.rst",
        # The title reworded is the PR's own commit; what follows it are fixups (TE #1697).
        "* Remove unreachable cleanup code paths\n\n* Handle a stale engine handle on shutdown",
        # One change alone, the title reworded with a word or two more (TE #329's `FA v2.0
        # support` under "FlashAttention 2.0 support"), or a name's parts (ColossalAI #4138).
        "* Drop the unreachable cleanup branches\n\n* fix lint",
        "* Remove unreachable_cleanup code paths now\n\n* fix lint",
        # No commit shares a word with the title: they came with the branch (ColossalAI #300).
        "* Init shard param from shape tuple\n\n* Add more unit tests for shard param",
        # A commit of another PR: main merged in (AReaL's `PullRequest: 67 ...`) or a stacked
        # branch (tilelang #682's `(#668)`).
        "* Remove dead cleanup code in the trainer\n\n* PullRequest: 67 Update v0.2.0 Dockerfile",
        "* Remove dead cleanup code in the trainer\n\n* Refactor buffer index handling (#668)",
    ],
)
def test_a_squash_of_fixups_or_other_work_is_no_summary(body: str) -> None:
    title = "Remove unreachable cleanup code"
    assert summarize(title, body) == summarize(title, "")


def test_a_title_shares_no_fixup_word_with_the_commits_of_its_branch() -> None:
    """AReaL #70 changed its Dockerfile alone; its squash message lists the benchmark commits
    its branch carried, which shared only `update` with the title (stemmed, `updat` passed
    for a word of the title)."""
    title = "[Feature] Update Dockerfile to v0.3.0"
    body = "* update benchmark script\n\n* .\n\n* add benchmark docs\n\n* update dockerfile"
    assert summarize(title, body) == summarize(title, "")


def test_a_squash_leaves_out_the_commits_other_prs_landed_before() -> None:
    """ColossalAI #1597 ("fix variable names", seven files of the checkpoint solvers) lists the
    memory-estimation commits of #1587, which its branch carried: its summary named them."""
    title = "[hotfix/rotor] fix variable names"
    body = (
        "* [fx] add dataflow analysis for an autograd graph.\n\n"
        "* add intepretation for graph analysis.\n\n"
        "* [fx] provide an accurate estimation of memory except for GPT-2.\n\n"
        "* [fx] refactor code.\n\n"
        "* [fx] fix variable names in ckpt_solvers and unskip tests.\n\n"
        "* [fx] change stage into phase."
    )
    earlier = {
        key: 1587
        for subject in (
            "[fx] add dataflow analysis for an autograd graph.",
            "add intepretation for graph analysis.",
            "[fx] provide an accurate estimation of memory except for GPT-2.",
            "[fx] refactor code.",
        )
        for key in subject_keys(subject)
    }
    assert summarize(title, body).startswith("Add dataflow analysis for an autograd graph")
    assert summarize(title, body, landed_through=earlier.get) == (
        "Fix variable names in ckpt_solvers and unskip tests; change stage into phase."
    )
    # One subject alike is chance, not a branch carried (TE #3156's `add missing license`,
    # landed in #235 three years before).
    once = {key: 235 for key in subject_keys("[fx] add dataflow analysis for an autograd graph.")}
    assert summarize(title, body, landed_through=once.get) == summarize(title, body)
    # Nor does the PR's own subject go, though another PR listed it first: the title again
    # still makes no summary of the list.
    own = body + "\n\n* fix variable names"
    both = {**earlier, **{key: 1587 for key in subject_keys("fix variable names")}}
    assert summarize(title, own, landed_through=both.get) == summarize(title, "")


def test_a_squashed_review_round_says_no_change() -> None:
    """TE #2981's summary listed `address grouped MLP fused op review comments` among its
    changes, TE #765's `renaming based on reviewers suggestions`."""
    title = "GGEMM+srelu kernels for MxFP8 Nemotron"
    body = (
        "* Add MXFP8 grouped MLP SReLU fusion\n\n"
        "* address grouped MLP fused op review comments\n\n"
        "* Avoid quantizing ScaledSReLU backward\n\n"
        "* renaming based on reviewers suggestions\n\n"
        "* Wire ScaledSReLU recompute in grouped MLP"
    )
    assert summarize(title, body) == (
        "Add MXFP8 grouped MLP SReLU fusion; avoid quantizing ScaledSReLU backward; wire"
        " ScaledSReLU recompute in grouped MLP."
    )
    assert summarize(title, body.replace("renaming based on", "fixes per PR")) == summarize(
        title, body
    )
    # A round that goes on to say what it changed says a change (TE #2959), and so does a
    # change a review found (OpenRLHF #1307).
    said = body.replace("renaming based on reviewers suggestions", "address review: drop FP8 guard")
    assert "; address review: drop FP8 guard;" in summarize(title, said)
    found = body.replace(
        "renaming based on reviewers suggestions", "Correct bugs surfaced by simplicity review"
    )
    assert "; correct bugs surfaced by simplicity review;" in summarize(title, found)


def test_a_squashed_subject_ends_at_its_words() -> None:
    """TE #765's summary read "...; fixes to pass all unit tests in
    test_custom_call_compute.py,; ...": the subject's trailing comma stayed."""
    title = "[JAX] Unifying GeLU and GeGLU in LayerNorm MLP"
    body = (
        "* Combined layernorm_geglu with layernorm_gelu into fused_layernorm\n\n"
        "* fixes to pass all unit tests in test_custom_call_compute.py,\n\n"
        "* implemented partial fused layernorm;"
    )
    assert summarize(title, body) == (
        "Combined layernorm_geglu with layernorm_gelu into fused_layernorm; fixes to pass all unit"
        " tests in test_custom_call_compute.py; implemented partial fused layernorm."
    )


def test_a_lead_in_that_cannot_end_as_a_sentence_is_no_summary_even_as_a_last_resort() -> None:
    """verl #5453's summary read "Fix dapo multi model practice The accuracy comparison are as
    follows.", its title and the lead-in to a screenshot."""
    title = "[doc] fix: fix dapo multi model practice"
    body = (
        "fix dapo multi model practice\nThe accuracy comparison are as follows:\n\n"
        '<img width="1523" src="https://github.com/user-attachments/assets/52ef" />'
    )
    assert summarize(title, body) == summarize(title, "")


def test_an_error_pasted_as_a_line_of_text_is_no_summary() -> None:
    """verl #5234 quoted the error under verl's template question: its summary was the error."""
    body = (
        "### What does this PR do?\n\n"
        "> AttributeError: 'Parameter' object has no attribute 'weight_loader'\n\n"
        "After the async rollout refactor, loading a MoE model fails because the weight loader"
        " patch is not applied."
    )
    assert summarize("[vllm] fix: apply moe weight loader patch", body) == (
        "After the async rollout refactor, loading a MoE model fails because the weight loader"
        " patch is not applied."
    )
    # A sentence that names the error says what happened.
    named = "Fixes `KeyError: 'kv_cache'` during NCCL weight sync with SGLang rollout."
    assert summarize("[vllm] fix: x", named) == named


def test_a_paragraph_of_figures_is_no_summary() -> None:
    """verl #884's summary read "Ckpt 0 16m Dataset 1 1m dcf 1 6m ...", its CI timings."""
    body = (
        "Also try to reduce CI time in this version, grpo hangs too much tasks in\nL20-1\n"
        "In current CI device mapping:\n\nCkpt 0 16m\nDataset 1 1m\ndcf 1 6m\ndc 0 6m\n"
        "Ea 1 8m\ngrpo 0 15m\n\n0 16+6+15+15+3+1+12=68\n1 1+6+8+15+2+24+1+2+3+5+3=70"
    )
    assert summarize("[ci] chore: rebalance CI", body) == (
        "Try to reduce CI time in this version, grpo hangs too much tasks in L20-1 In current CI"
        " device mapping."
    )
    # Versions and sizes in a sentence are words among words.
    assert summarize("[model] feat: x", "Works with qwen2.5vl 3b + geo3k on 8 GPUs.") == (
        "Works with qwen2.5vl 3b + geo3k on 8 GPUs."
    )


def test_calibration_places_each_raw_score_at_the_mid_rank_of_its_ties(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Worked by hand: 30 PRs at raw 1, 20 at 2 and 10 at 3 sit at the 25th, 66.7th and
    91.7th percentiles (the middle of each run of ties), so raw 2.5 maps to 7.9 between them,
    anything under raw 1 to 0 and over raw 3 to 10."""
    raws = [1.0] * 30 + [2.0] * 20 + [3.0] * 10
    monkeypatch.setattr(importance_module, "_history_raw_scores", lambda *_: raws)
    calibration = fit_calibration([], {}, CONFIG)
    assert calibration.history_size == 60
    assert calibration.raw_points == [1.0, 2.0, 3.0]
    assert calibration.percentiles == [25.0, 66.667, 91.667]
    assert [calibration.importance(x) for x in (0.5, 1.0, 2.0, 2.5, 3.0, 3.5)] == [
        0.0,
        2.5,
        6.7,
        7.9,
        9.2,
        10.0,
    ]
    # More distinct raw scores than it keeps: the first, the last and evenly spaced ones.
    many = [float(n) for n in range(1000)]
    monkeypatch.setattr(importance_module, "_history_raw_scores", lambda *_: many)
    thinned = fit_calibration([], {}, CONFIG)
    assert len(thinned.raw_points) == 200
    assert thinned.raw_points[0] == 0.0 and thinned.raw_points[-1] == 999.0
    # Too short a history: a typical repository's scale, on which raw 4.08 is its 70th
    # percentile.
    monkeypatch.setattr(importance_module, "_history_raw_scores", lambda *_: raws[:29])
    fixed = fit_calibration([], {}, CONFIG)
    assert fixed.method == "fixed" and fixed.importance(4.08) == 7.0


def test_a_score_at_the_key_threshold_is_key() -> None:
    """Key means importance 7.0 or more, as the report's header says."""
    pr = make_pr(1, "[fsdp] chore: x", files=[("verl/x.py", 5, 1)])
    no_reviews = ReviewData(available=False)
    (first,) = score_week(
        [pr], {}, no_reviews, CONFIG, ScoreCalibration(method="fixed", history_size=0)
    )
    raw = first.raw_score
    at = ScoreCalibration(
        method="history", history_size=60, raw_points=[raw / 2, raw], percentiles=[0, 70]
    )
    (score,) = score_week([pr], {}, no_reviews, CONFIG, at)
    assert score.importance == 7.0 == CONFIG.key_threshold
    assert score.is_key


def test_an_error_the_bug_failed_to_raise_or_a_wrong_argument_is_no_impact() -> None:
    """verl #885's bug was that "the NotImplementedError is not raised", and #4836's "error due
    to using incorrect export weights method" is a wrong call, not a wrong result: both read
    as what the bug caused, and #4836 became a key PR on it."""
    assert (
        fix_impacts("fix: hf rollout", "With megatron, the NotImplementedError is not raised.")
        == {}
    )
    assert "wrong_result" not in fix_impacts(
        "fix: export", "Megatron: error due to using incorrect export weights method."
    )
    assert "wrong_result" not in fix_impacts("fix: copy", "calls with incorrect argument usage")
    # An error the fix turns away with on purpose (verl #7243).
    rejected = "EP export is explicitly rejected with `NotImplementedError` instead."
    assert "crash" not in fix_impacts("fix: export", rejected)
    # What the bug did to requests is the bug's.
    assert "crash" in fix_impacts("fix: x", "Requests were rejected with `RuntimeError`.")
    # An error the bug raises, and a wrong value, still are.
    assert "crash" in fix_impacts("fix: hf rollout", "A NotImplementedError is raised at start.")
    assert "wrong_result" in fix_impacts("fix: loss", "The loss is incorrect after resume.")


def test_a_pr_that_changes_no_behaviour_is_no_feature_or_fix() -> None:
    """ColossalAI's `[NFC] polish doc style for ColoTensor` (#1457, 270 new lines) was a key
    feature and `[nfc] fix typo colossalai/pipeline tensor nn` (#3899) a key fix: the tag says
    that no behaviour changed. What a refactor, docs or tests are, they stay."""
    new_lines = [("verl/tensor.py", 270, 12)]
    typed = {
        title: pr_type(pr := make_pr(1, title, files=new_lines), change_shape(pr, CONFIG))
        for title in (
            "[NFC] polish doc style for ColoTensor",
            "[nfc] fix typo colossalai/pipeline tensor nn",
            "[NFC] perf: faster polishing",
            "[NFC] remove redundant dependency",
            "[NFC] refactor: split the module",
            "[tensor] polish doc style for ColoTensor",
            "[tensor] fix typo",
        )
    }
    assert typed == {
        "[NFC] polish doc style for ColoTensor": "chore",
        "[nfc] fix typo colossalai/pipeline tensor nn": "chore",
        "[NFC] perf: faster polishing": "chore",
        "[NFC] remove redundant dependency": "refactor",
        "[NFC] refactor: split the module": "refactor",
        "[tensor] polish doc style for ColoTensor": "feat",
        "[tensor] fix typo": "fix",
    }


def test_the_lines_of_a_pr_that_changes_no_behaviour_weigh_like_docs() -> None:
    """ColossalAI's `[NFC] polish colossalai/nn/layer/parallel_sequence/layers.py code style`
    (#1280, +26/-53 in one core file) stayed a key PR on its core lines once it was no fix:
    read like docs, they weigh a fifth."""
    layers = [("verl/nn/layers.py", 26, 53)]
    nfc = score_parts(make_pr(1280, "[NFC] polish layers.py code style", files=layers), [], CONFIG)
    same = score_parts(make_pr(1281, "[nn] polish layers.py code style", files=layers), [], CONFIG)
    as_docs = score_parts(make_pr(1282, "[nn] polish", files=[("docs/l.md", 26, 53)]), [], CONFIG)
    assert nfc["size"] == pytest.approx(as_docs["size"]) and nfc["size"] < same["size"]
    assert 0 < nfc["core"] < same["core"]


@pytest.mark.parametrize(
    "title",
    [
        "[format] applied code formatting on changed files in pull request 4441",
        "Apply formatting",
        "[Lint] fix: linting errors in all files",
        "Fix Pyrefly type errors for Tensor.item() return type",
    ],
)
def test_a_pr_that_only_satisfies_a_checker_changes_no_behaviour(title: str) -> None:
    """ColossalAI's formatting bot's `[format] applied code formatting on changed files in pull
    request 4441` (#4445, 80 lines of a core file) was a key PR at 8.3: a formatter's or a
    linter's changes weigh as an `[NFC]` PR's do."""
    layers = [("verl/nn/layers.py", 40, 40)]
    checks = score_parts(make_pr(1, title, files=layers), [], CONFIG)
    nfc = score_parts(make_pr(2, "[NFC] polish layers.py", files=layers), [], CONFIG)
    same = score_parts(make_pr(3, "[nn] fix: the layer's padding", files=layers), [], CONFIG)
    assert checks["size"] == pytest.approx(nfc["size"]) and checks["size"] < same["size"]
    assert checks["core"] == pytest.approx(nfc["core"]) and checks["core"] < same["core"]
    assert declares_no_functional_change(title)
    assert not declares_no_functional_change("Fix the output format of the report")


@pytest.mark.parametrize(
    ("title", "declared"),
    [
        ("feat: modernize pipelines module to Python 3.10+ syntax", True),
        ("refactor: modernize type hints in utils/ module (part of #1927)", True),
        ("Modernization of typehints in llmcompressor/core/lifecycle.py", True),
        ("Modernize type hints - dataclass arguments and recipe metadata", True),
        ("Modernize ModuleSparsificationInfo typing", True),
        # A further change, or a rewrite of more than the syntax, may change behaviour
        # (llm-compressor #2003, #1959, #1951, slime #1049).
        ("[AWQ] modernized typehints, allow for n_grid/duo_scaling parameters", False),
        ("Modernize datasets: type hints and data splits handling", False),
        ("Modernize structural pattern matching", False),
        ("fix: modernize type hint and add distributed init checks in utils", False),
        ("refactor: modernize type hints in utils and add a retry", False),
    ],
)
def test_a_pr_that_only_modernises_type_hints_changes_no_behaviour(
    title: str, declared: bool
) -> None:
    """llm-compressor #2291 `feat: modernize pipelines module to Python 3.10+ syntax` (+73/-76
    in seven core files, `Set[Module]` to `set[Module]`) ranked first of its week on its size
    and core lines as a feature: its lines weigh as an `[NFC]` PR's do, it is upkeep, and it
    needs no test."""
    pipelines = [("verl/pipelines/helpers.py", 73, 76)]
    modernised = make_pr(1, title, files=pipelines)
    scored = score_parts(modernised, [], CONFIG)
    nfc = score_parts(make_pr(2, "[NFC] polish helpers.py", files=pipelines), [], CONFIG)
    assert declares_no_functional_change(title) is declared
    assert (scored["core"] == pytest.approx(nfc["core"])) is declared
    assert (scored["size"] == pytest.approx(nfc["size"])) is declared
    assert core_tests(modernised, CONFIG) is (None if declared else False)
    feature = make_pr(3, "feat: modernize pipelines module to Python 3.10+ syntax", files=pipelines)
    assert pr_type(feature, change_shape(feature, CONFIG)) == "chore"


@pytest.mark.parametrize(
    ("title", "declared"),
    [
        ("[doc] Update booster user documents.", True),
        ("docs: fix typo in kl_penalty docstring", True),
        ("Documentation fixes", True),
        # An area's tag says that area's code changes too (vllm-ascend #9690, #3756; verl #4105).
        ("[Worker][Doc] Add A5 server disaggregated PD endpoint configuration", False),
        ("[Misc][Doc] Add service profiling feature with user guide", False),
        ("[doc] fix: improve docs clarity, fix IS gradient flow", False),
        # Nor is a further change the title lists that is no documentation (NVIDIA-NeMo/RL #526).
        ("docs: Fixing some Megatron types and small cleanup", False),
        ("docs: add a guide, and fix broken links", True),
    ],
)
def test_a_pr_its_title_types_as_documentation_changes_no_behaviour(
    title: str, declared: bool
) -> None:
    """ColossalAI #4669 `[doc] Update booster user documents.` rewrote 97 lines of docstrings in
    booster.py and was a key PR at 8.3, flagged as a core change without tests: its lines weigh
    as an `[NFC]` PR's do, and it needs no test."""
    booster = [("verl/booster.py", 72, 43)]
    documented = make_pr(1, title, files=booster)
    scored = score_parts(documented, [], CONFIG)
    nfc = score_parts(make_pr(2, "[NFC] polish booster.py", files=booster), [], CONFIG)
    assert declares_no_functional_change(title) is declared
    assert (scored["core"] == pytest.approx(nfc["core"])) is declared
    assert core_tests(documented, CONFIG) is (None if declared else False)
