from __future__ import annotations

from collections.abc import Sequence

import pytest

from prhub_pipeline.config import ThemeRule
from prhub_pipeline.modelling.tagging.themes import (
    DEFAULT_THEME_RULES,
    SubjectThemes,
    path_matches,
    rule_matches,
    subject_themes,
    tag_themes,
    themes_named_modules_stand_for,
)
from prhub_pipeline.records import (
    ConfigFileDiff,
    FileChange,
    FileStatus,
    ModuleLabel,
    ModuleOrigin,
    PullRequest,
    SettingChange,
    ThemeTag,
)
from prhub_pipeline_tests.module_fixtures import MODULES, REPO, make_pr

TEMPLATE = """### What does this PR do?

{text}

### Checklist Before Submitting

- [ ] Update the documentation about your changes in the docs. Add CI test(s) if necessary.
"""


CI = "CI/infrastructure"
DEPS = "Dependencies"
CODE = ["src/data/collator.py", "src/data/processor.py", "tests/test_packing.py"]


def themes_of(
    prs: Sequence[PullRequest],
    rules: Sequence[ThemeRule] | None = None,
    labels: Sequence[ModuleLabel] = (),
) -> dict[int, set[str]]:
    found: dict[int, set[str]] = {}
    for tag in tag_themes(prs, rules, list(labels), MODULES):
        found.setdefault(tag.number, set()).add(tag.theme)
    return found


def test_default_rules_find_verl_themes() -> None:
    prs = [
        make_pr(1, "[megatron] fix: mxfp8 training on Ascend NPU"),
        make_pr(2, "[trainer] feat: on-policy distillation with teacher colocate"),
        make_pr(3, "[model] feat: Qwen3-30B-A3B MoE support"),
        make_pr(4, "[misc] chore: tidy", paths=("docker/Dockerfile.stable",)),
        make_pr(5, "[worker] fix: x", paths=("verl/utils/npu_patch.py",)),
        make_pr(6, "[fsdp] fix: y", body=TEMPLATE.format(text="Speeds up grad clipping.")),
    ]
    found = themes_of(prs)
    assert "NPU/Ascend" in found[1]
    assert "Distillation" in found[2]
    assert "MoE" in found[3]
    assert "Docker" in found[4]
    assert "NPU/Ascend" in found[5]
    # The template's checklist mentions docs and CI; that alone is no theme.
    assert 6 not in found


def test_every_ci_systems_files_are_ci_work() -> None:
    """llm-compressor #2983 changed two `.buildkite/` pipelines only: flagged as a CI change,
    it had no CI/infrastructure theme, and the trends said no CI PR that week."""
    prs = [
        make_pr(1, "Simplify tests detection", paths=(".buildkite/gpu-tests/gpu-tests-L4.yml",)),
        make_pr(2, "Run nightly jobs", paths=("Jenkinsfile", ".gitlab-ci.yml")),
        make_pr(3, "Tidy pipeline", paths=(".circleci/config.yml", "src/a.py", "src/b.py")),
    ]
    found = themes_of(prs)
    assert CI in found[1]
    assert CI in found[2]
    assert CI not in found.get(3, set())  # a third of the files


def test_agent_tools_are_named_so_and_a_tool_tag_alone_is_no_agent() -> None:
    """A `[tool]` tag is as often a developer tool (tilelang #1353's layout visualiser, verl
    #4740's MLflow run) as an agent's, whose titles and paths say so."""
    prs = [
        make_pr(1, "[Tool] Provide layout visualization tool", paths=("tools/plot_layout.py",)),
        make_pr(2, "[tool] fix: attach to existing MLflow run when MLFLOW_RUN_ID is set"),
        make_pr(3, "[tool] feat: Add Search Tool implemented with MCP"),
        make_pr(4, "[tool] feat: simpler function-based tool registration"),
        make_pr(5, "[rollout] fix: x", paths=("verl/tools/search_tool.py",)),
    ]
    labels = [
        ModuleLabel(repo=REPO, number=n, module="tool", origin="title", confidence=1.0)
        for n in (1, 2, 3, 4)
    ]
    found = themes_of(prs, labels=labels)
    assert "Agent/tools" not in found.get(1, set()) | found.get(2, set())
    assert all("Agent/tools" in found[n] for n in (3, 4, 5))


def test_async_training_is_a_theme_and_an_async_identifier_is_not() -> None:
    prs = [
        make_pr(1, "[trainer] feat: asynchronous rollout with partial rollouts"),
        make_pr(2, "[CUDA] Improve cp.async lowering and add async_copy op"),
    ]
    found = themes_of(prs)
    assert "Async/fully-async" in found[1]
    assert "Async/fully-async" not in found.get(2, set())


def test_a_refactor_across_every_backend_is_no_amd_work() -> None:
    backends = [f"src/backend/{name}/copy.cc" for name in ("cuda", "metal", "cpu", "webgpu")]
    prs = [
        make_pr(
            1,
            "[Refactor] Split copy lowering by backend",
            paths=(*backends * 2, "src/backend/rocm/copy.cc"),
        ),
        make_pr(2, "[Backend] Fix copy lowering", paths=("src/backend/rocm/copy.cc", backends[0])),
    ]
    found = themes_of(prs)
    assert "AMD/ROCm" not in found.get(1, set())
    assert "AMD/ROCm" in found[2]


def test_npu_path_rule_does_not_match_input() -> None:
    prs = [make_pr(1, "[data] feat: audio", paths=("tests/test_audio_input_support.py",))]
    assert "NPU/Ascend" not in themes_of(prs).get(1, set())


def test_a_prs_own_tags_give_themes_and_the_classifiers_guesses_do_not() -> None:
    tagged = ModuleLabel(repo=REPO, number=1, module="ci", origin="title", confidence=1.0)
    labelled = ModuleLabel(repo=REPO, number=1, module="ci", origin="label", confidence=1.0)
    for label in (tagged, labelled):
        assert "CI/infrastructure" in themes_of([make_pr(1, "tidy")], labels=[label])[1]
    # slime #629 "Super tiny rename total_train_time to step_time", guessed `ci` at 0.10.
    guessed = ModuleLabel(repo=REPO, number=2, module="ci", origin="model", confidence=0.9)
    pr = make_pr(2, "Super tiny rename total_train_time to step_time", paths=("slime/a.py",))
    assert "CI/infrastructure" not in themes_of([pr], labels=[guessed]).get(2, set())


def test_a_conventional_commit_type_gives_the_theme_its_tag_would() -> None:
    """NVIDIA-NeMo/RL #2739 "perf: pool IsolatedWorkerInitializer per node ..." and #617
    "ci: Refactor unit tests to run in concurrent jobs" said their kind of work as `[perf]` and
    `[CI]` do, yet had no theme: the type goes with the tags before the title patterns look."""
    prs = [
        make_pr(2739, "perf: pool IsolatedWorkerInitializer per node", paths=("rl/workers.py",)),
        make_pr(617, "ci: Refactor unit tests to run in concurrent jobs", paths=tuple(CODE)),
        make_pr(2316, "docs(security): add SECURITY.md", paths=("SECURITY.md",)),
        make_pr(3, "fix: pool workers per node", paths=("rl/workers.py",)),
    ]
    found = themes_of(prs)
    assert found[2739] == {"Performance"}
    assert found[617] == {CI}
    assert found[2316] == {"Docs"}
    assert 3 not in found


def test_a_deps_tag_is_dependency_work_whatever_else_the_pr_changes() -> None:
    """LLaMA-Factory #10634 "[deps] exclude broken transformers release" changed a line of
    pyproject.toml and the version check in its code to match: under half of its lines."""
    files = [
        FileChange(path="pyproject.toml", additions=1, deletions=1),
        FileChange(path="src/llamafactory/extras/misc.py", additions=3, deletions=1),
    ]
    tagged, untagged = (
        make_pr(number, title).model_copy(update={"files": files})
        for number, title in (
            (10634, "[deps] exclude broken transformers release"),
            (10635, "exclude broken transformers release"),
        )
    )
    label = ModuleLabel(repo=REPO, number=10634, module="deps", origin="title", confidence=1.0)
    found = themes_of([tagged, untagged], labels=[label])
    assert "Dependencies" in found[10634] and 10635 not in found


def test_an_own_tag_that_reads_as_a_themes_title_gives_the_theme() -> None:
    # tilelang #2855 "[CUDA][ROCm][Metal] Split backend-specific builtin ops": its tag says
    # ROCm, though its title (tags removed) and its one ROCm file among 45 do not.
    def label(number: int, module: str, origin: ModuleOrigin = "title") -> ModuleLabel:
        return ModuleLabel(repo=REPO, number=number, module=module, origin=origin, confidence=1)

    prs = [
        make_pr(1, "Split backend-specific builtin ops", paths=("src/op/a.cc",)),
        make_pr(2, "Support float8 matrix core", paths=("src/op/b.cc",)),
        make_pr(3, "Tidy the kernels", paths=("src/op/c.cc",)),
        make_pr(4, "Tidy the runner", paths=("src/op/d.cc",)),
    ]
    labels = [
        label(1, "rocm"),
        label(2, "amd"),
        label(3, "perf_moe"),  # read as words: `perf moe`
        label(4, "rocm", origin="model"),  # a guess says nothing
    ]
    found = themes_of(prs, labels=labels)
    assert found[1] == {"AMD/ROCm"}
    assert found[2] == {"AMD/ROCm"}
    assert found[3] == {"Performance", "MoE"}
    assert 4 not in found


def test_configured_rules_replace_the_defaults() -> None:
    rules = [ThemeRule(name="Kernels", title=[r"\bkernel"], paths=["csrc/**"])]
    prs = [
        make_pr(1, "fix: rope kernel"),
        make_pr(2, "x", paths=("csrc/attention/a.cu",)),
        make_pr(3, "[ci] fix: NPU docker"),
    ]
    assert themes_of(prs, rules) == {1: {"Kernels"}, 2: {"Kernels"}}


def test_globs() -> None:
    assert path_matches("docs/a/b.rst", "docs/**")
    assert path_matches("Dockerfile.rocm", "**/Dockerfile*")
    assert path_matches("a/b/Dockerfile", "**/Dockerfile*")
    assert not path_matches("src/docs.py", "docs/**")
    assert path_matches("a/b.py", "*.py")  # a pattern without "/" matches at any depth
    assert not path_matches("a/b.py", "/*.py")


def test_a_path_share_keeps_a_fix_with_a_ci_test_out_of_ci() -> None:
    core_fix = make_pr(
        1,
        "[model, fsdp] fix: honor SP-rolled labels in fused kernels",
        paths=(
            "tests/special_distributed/test_fused_kernels_ulysses_sp.py",
            "verl/models/transformers/dense_common.py",
            "verl/workers/engine/fsdp/transformer_impl.py",
        ),
    )
    workflow_change = make_pr(
        2,
        "[trainer] chore: run the e2e job on two GPUs",
        paths=(".github/workflows/e2e_ppo_trainer.yml", "tests/special_e2e/run_ppo.sh"),
    )
    half = make_pr(3, "[trainer] chore: x", paths=(".github/workflows/a.yml", "verl/a.py"))
    found = themes_of([core_fix, workflow_change, half])
    assert "CI/infrastructure" not in found.get(1, set())
    assert "CI/infrastructure" in found[2]
    assert "CI/infrastructure" in found[3]  # the share is "at least"
    # Without a share, one matching path is enough (the NPU rule: NPU files are NPU work).
    any_one = ThemeRule(name="CI", paths=["tests/special_*/**"])
    assert themes_of([core_fix], rules=[any_one]) == {1: {"CI"}}
    # A test file in a CI folder is the PR's test: verl #7347 added one to
    # tests/special_distributed/ and registered it with run_all.sh, three of its five paths.
    own_test = make_pr(
        4,
        "[fsdp] feat: enable non-blocking FSDP2 model transfers",
        paths=(
            "tests/special_distributed/run_all.sh",
            "tests/special_distributed/test_fsdp2_pinned_model_transfer.py",
            "tests/special_sanity/check_license.py",
            "tests/utils/test_fsdp2_model_transfer_on_cpu.py",
            "verl/utils/fsdp_utils.py",
        ),
    )
    assert "CI/infrastructure" not in themes_of([own_test]).get(4, set())
    no_tests = ThemeRule(name="CI", paths=["tests/special_*/**"], except_paths=["**/test_*.py"])
    assert themes_of([core_fix], rules=[no_tests]) == {}


def test_a_workflow_and_the_template_it_is_rendered_from_count_as_one_path() -> None:
    """slime's fixes register their test in `pr-test.yml` and its template `pr-test.yml.j2`:
    counted apart, CI made half of the four paths of 'whiten advantages over the DP group'."""
    registered = make_pr(
        1,
        "fix: whiten advantages over the DP group that includes context parallel",
        paths=(
            ".github/workflows/pr-test.yml",
            ".github/workflows/pr-test.yml.j2",
            "slime/backends/megatron_utils/loss.py",
            "tests/test_whiten_advantages.py",
        ),
    )
    templated_ci = make_pr(
        2,
        "chore: run the long tests nightly",
        paths=(".github/workflows/pr-test.yml", ".github/workflows/pr-test.yml.j2", "a.py"),
    )
    found = themes_of([registered, templated_ci])
    assert "CI/infrastructure" not in found.get(1, set())
    assert "CI/infrastructure" in found[2]


def test_shared_files_alone_do_not_make_a_docs_agent_or_async_pr() -> None:
    audio = make_pr(
        1,
        "[data, rollout] feat: add audio data support",
        paths=(
            "verl/utils/dataset/rl_dataset.py",
            "verl/utils/dataset/audio.py",
            "verl/experimental/agent_loop/agent_loop.py",
            "verl/experimental/fully_async_policy/fully_async_rollouter.py",
            "examples/audio/README.md",
        ),
    )
    guide = make_pr(2, "[trainer] chore: x", paths=("docs/a.rst", "docs/b.rst", "verl/c.py"))
    found = themes_of([audio, guide])
    assert found[1] == {"Multimodal"}
    assert found[2] == {"Docs"}


def test_a_sweeping_change_is_no_npu_or_distillation_work_for_one_file_of_many() -> None:
    sweeping = make_pr(
        1,
        "[misc] refactor: re-format examples",
        paths=(
            "examples/grpo/run_qwen3_npu.sh",
            "verl/trainer/distillation/__init__.py",
            *(f"examples/grpo/run_{i}.sh" for i in range(8)),
        ),
    )
    # The demo adds its scripts: a new NPU script beside its GPU twin is NPU support.
    twin = make_pr(2, "[veomni] feat: demo").model_copy(
        update={
            "files": [
                FileChange(path=p, status="added", additions=3, deletions=0)
                for p in ("run_gpu.sh", "run_npu.sh", "README.md")
            ]
        }
    )
    distill = make_pr(3, "[trainer] fix: x", paths=("verl/trainer/distillation/losses.py",))
    found = themes_of([sweeping, twin, distill])
    assert 1 not in found
    assert found[2] == {"NPU/Ascend"}
    assert found[3] == {"Distillation"}


def test_a_path_share_holds_for_the_changed_lines_too() -> None:
    """VeOmni #893 refactored parallel state in 40 files, 8 of them Ascend kernels (20% of
    its files, 36 of its 1813 lines): no NPU work. verl #6184, a VeOmni feature that bumped a
    pin in five workflows (2 lines each of 105), is no CI work. An NPU script added beside its
    GPU twin still is NPU work, and so is a refactor of NPU kernels alone."""

    def pr(
        number: int, title: str, files: list[tuple[str, int]], status: FileStatus = "modified"
    ) -> PullRequest:
        changes = [FileChange(path=p, status=status, additions=n, deletions=0) for p, n in files]
        return make_pr(number, title).model_copy(update={"files": changes})

    parallel = pr(
        1,
        "[dist] feat: per-module local parallel state",
        [(f"veomni/ops/_ascend/k{i}.py", 4) for i in range(8)]
        + [(f"veomni/distributed/p{i}.py", 55) for i in range(32)],
    )
    pinned = pr(
        2,
        "[veomni] feat: use the native log-probs path",
        [(f".github/workflows/e2e_{i}.yml", 2) for i in range(5)]
        + [(f"verl/workers/engine/veomni/f{i}.py", 19) for i in range(5)],
    )
    twin = pr(
        3,
        "[veomni] feat: demo",
        [("run_gpu.sh", 170), ("run_npu.sh", 170), ("a.md", 9)],
        status="added",
    )
    kernels = pr(4, "[ops] refactor: split kernels", [("veomni/ops/_ascend/k.py", 40)])
    found = themes_of([parallel, pinned, twin, kernels])
    assert 1 not in found and 2 not in found
    assert found[3] == {"NPU/Ascend"} and found[4] == {"NPU/Ascend"}


def test_a_file_edited_with_its_gpu_twin_is_no_npu_or_amd_work() -> None:
    """VeOmni #772 changed a model feature in 43 files, 12 of them generated NPU modeling
    files rewritten beside their GPU twins: no NPU work. torchtitan #2315 updated the CUDA
    and ROCm loss baselines together: no AMD work. A file of the NPU backend's own folder, a
    twin the PR adds, and an NPU file alone still count."""
    models = [f"veomni/models/m{i}/generated/patched_modeling_m{i}" for i in range(3)]
    generated = [f"{m}_{hw}.py" for m in models for hw in ("gpu", "npu")]
    feature = make_pr(
        1, "[model, data] feat: precompute metadata", paths=(*generated, "veomni/data/a.py")
    )
    baselines = make_pr(
        2,
        "Fix the CI loss issue",
        paths=("tests/losses/llama3_cuda.txt", "tests/losses/llama3_rocm.txt"),
    )
    backends = make_pr(
        3,
        "[Backend] Fix copy lowering",
        paths=("src/backend/rocm/copy.cc", "src/backend/cuda/copy.cc"),
    )
    added = make_pr(4, "[model] feat: add m").model_copy(
        update={"files": [FileChange(path=p, status="added", additions=9) for p in generated[:2]]}
    )
    npu_only = make_pr(5, "[model] fix: rms norm", paths=(generated[1], "veomni/data/a.py"))
    found = themes_of([feature, baselines, backends, added, npu_only])
    assert 1 not in found and found[2] == {CI}
    assert found[3] == {"AMD/ROCm"}
    assert found[4] == {"NPU/Ascend"} and found[5] == {"NPU/Ascend"}


def test_one_incidental_body_sentence_is_no_theme() -> None:
    # verl #5969: a hard-wrapped list item names VLM twice in passing; the PR is about padding.
    incidental = TEMPLATE.format(
        text="Pads batches for multi-trajectory training.\n\n"
        "5. Maintains the position_ids shape and add\n"
        "multi-modal inputs placeholder in VLM case when necessary."
    )
    two_sentences = TEMPLATE.format(
        text="Fixes VLM training with SP. The multi-modal inputs were split twice."
    )
    npu_script = ("examples/grpo/run_qwen3_npu.sh", *(f"verl/m{i}.py" for i in range(9)))
    corroborated = TEMPLATE.format(text="The new script runs on Ascend.")
    prs = [
        make_pr(1, "[data, trainer] fix: batch padding", body=incidental),
        make_pr(2, "[worker] fix: sequence parallel inputs", body=two_sentences),
        # One NPU file in ten is below the path share; the description confirms it.
        make_pr(3, "[trainer] feat: new example", body=corroborated, paths=npu_script),
        make_pr(4, "[trainer] feat: new example", body=corroborated, paths=npu_script[1:]),
    ]
    found = themes_of(prs)
    assert "Multimodal" not in found.get(1, set())
    assert "Multimodal" in found[2]
    assert "NPU/Ascend" in found[3]
    assert "NPU/Ascend" not in found.get(4, set())


def test_a_ci_workflow_named_after_hardware_is_ci_work() -> None:
    # verl #4775 touched the NPU unit-test workflow and renamed an NPU test script in passing.
    abstraction = make_pr(
        1,
        "[ckpt] feat: add checkpoint-engine abstraction",
        paths=(
            ".github/workflows/npu_unit_tests.yml",
            "tests/special_npu/run_qwen3_30b_grpo_mindspeed.sh",
            "tests/checkpoint_engine/test_nccl_checkpoint_engine.py",
            "tests/checkpoint_engine/test_utils.py",
            "verl/checkpoint_engine/__init__.py",
            "verl/checkpoint_engine/base.py",
            "verl/checkpoint_engine/nccl_checkpoint_engine.py",
            "verl/utils/net_utils.py",
        ),
    )
    workflow_only = make_pr(
        2, "[trainer] chore: x", paths=(".github/workflows/npu_unit_tests.yml",)
    )
    found = themes_of([abstraction, workflow_only])
    assert "NPU/Ascend" not in found.get(1, set())
    assert found[2] == {"CI/infrastructure"}


def test_titles_name_themes_through_model_and_library_names() -> None:
    prs = [
        make_pr(1, "fix sequence parallelism conflict in kimiVL"),
        make_pr(2, "[worker] fix: correctly determine is_vlm_model if sp > 1"),
        make_pr(3, "[Megatron] feat: 1f1b overlap/moe_a2a_overlap"),
        make_pr(4, "[CustomOp] Register AscendSharedFusedMoE custom op"),
        make_pr(5, "[EPLB] Support redundant experts in EPLB"),
        make_pr(6, "[ckpt] feat: add Hccl ckpt engine backend"),
        # An import cycle is no package dependency (verl #31).
        make_pr(7, "[example] fix: fix math circular dependency"),
        make_pr(8, "[misc] chore: Install mlflow dependency"),
    ]
    found = themes_of(prs)
    assert "Multimodal" in found[1] and "Multimodal" in found[2]
    assert "MoE" in found[3] and "MoE" in found[4] and "MoE" in found[5]
    assert "NPU/Ascend" in found[6]
    assert 7 not in found
    assert "Dependencies" in found[8]


def test_a_manifest_whose_requirements_did_not_change_is_no_dependency_work() -> None:
    """huggingface/trl filters pytest warnings in pyproject.toml: 'Filter triton AnnAssign
    warnings' was a Dependencies PR."""
    prs = [
        make_pr(1, "Filter triton AnnAssign warnings", paths=("pyproject.toml",)),
        make_pr(2, "Support vLLM 0.25", paths=("pyproject.toml", "trl/import_utils.py")),
        make_pr(3, "Tidy setup", paths=("setup.py",)),
    ]
    diffs = [
        ConfigFileDiff(repo=REPO, pr_number=1, path="pyproject.toml", comparable=True),
        ConfigFileDiff(
            repo=REPO,
            pr_number=2,
            path="pyproject.toml",
            comparable=True,
            changes=[SettingChange(key="vllm", before="<=0.24", after="<=0.25.1")],
        ),
        # Not comparable: nothing is known, so the edit still counts.
        ConfigFileDiff(repo=REPO, pr_number=3, path="setup.py", comparable=False),
    ]
    assert {t.number for t in tag_themes(prs, None, [], MODULES) if t.theme == "Dependencies"} == {
        1,
        2,
        3,
    }
    found = {
        t.number for t in tag_themes(prs, None, [], MODULES, diffs) if t.theme == "Dependencies"
    }
    assert found == {2, 3}


@pytest.mark.parametrize(
    ("title", "paths", "theme", "expected"),
    [
        ("[v1] use async streamer", [], "Async/fully-async", False),
        ("[Pipeline] Simplify async copy lowering", [], "Async/fully-async", False),
        ("[ckpt] feat: wait for prev async save to finish", [], "Async/fully-async", False),
        ("[sglang] feat: Add SGLang async multi-turn rollout", [], "Async/fully-async", True),
        ("feat: one/two step off async on-policy distillation", [], "Async/fully-async", True),
        ("[ci] fix: full async npu ci test", [], "Async/fully-async", True),
        ("[Feature] Add lower-trace support", ["tools/lower_trace.py"], "Agent/tools", False),
        ("[tool] feat: add a search tool", ["verl/tools/search_tool.py"], "Agent/tools", True),
        # The notes beside the images are documentation (verl #2569, slime #1682).
        ("[release] bump to v0.2.3", ["docker/README.md", "setup.py"], "Docker", False),
        ("[misc] chore: tidy", ["docker/README.md", "docker/Dockerfile.vllm"], "Docker", True),
        # A talk's recording and the GPU's memory are no video models (ColossalAI #2619).
        ("[tutorial] add video link", ["README.md"], "Multimodal", False),
        ("[EPLB][Bugfix]Reduce unnecessary video memory usage", [], "Multimodal", False),
        ("[data] support glm4.1v video training", [], "Multimodal", True),
        # "cann't" is a typo of "can't" (LLaMA-Factory #3987, a WebUI fix), not Ascend's CANN.
        ("Fix cann't interrupt training in webui", ["src/webui/runner.py"], "NPU/Ascend", False),
        ("[docker] upgrade NPU images to CANN 9.1", [], "NPU/Ascend", True),
        ("Follow CANN's new default for the graph cache size", [], "NPU/Ascend", True),
        # A training workflow or a process is no CI workflow (LLaMA-Factory #10303 changed
        # src/llamafactory/train/mca/workflow.py, vllm-ascend #8968 added a guide to its issues'
        # workflow); CI's own workflows still are, by name or by their files.
        ("chore: mca workflow compatible with qwen-vl", ["src/mca/workflow.py"], CI, False),
        ("[v1] add LoRA/Freeze support and merge workflow", ["src/a.py"], CI, False),
        ("[Doc] Add issue-workflow-guidelines.md", ["docs/a.md"], CI, False),
        ("feat: update docker build workflow to 8.3.RC1", ["docker/Dockerfile"], CI, True),
        ("add building workflow for TE/Jax", ["qa/test.sh", "setup.py"], CI, True),  # TE #53
        ("Skip GPU CI workflows for draft PRs", ["scripts/a.py"], CI, True),
        ("fix the workflow file of the deploy job", [], CI, True),
        ("Fix the deploy workflow", [".github/workflows/deploy.yml"], CI, True),
        # A fix that raises a requirement on its way is no dependency work (LLaMA-Factory
        # #10283); a manifest edit that is most of the PR is.
        ("fit neat_packing & mrope model packing", [*CODE, "pyproject.toml"], DEPS, False),
        ("raise the torch floor", ["pyproject.toml", "requirements.txt", "src/a.py"], DEPS, True),
        # Housekeeping a title names after the change it leads with is that change's own (AReaL
        # #806, vllm-ascend #1477, slime #990): its files decide, as they do for a feature.
        ("chore: remove legacy code, config, and documentation", CODE, "Docs", False),
        ("support pangumoe w8a8c8 and docs", [*CODE, "docs/pangu.md"], "Docs", False),
        ("support pangumoe and docs", ["docs/a.md", "docs/b.md", "src/a.py"], "Docs", True),
        ("Update README and add collect_env info", ["collect_env.py"], "Docs", True),
        ("Fix per token loss scale and add e2e ci", CODE, CI, False),
        ("[misc] fix issue in hf_weight_loader & bump vllm", CODE, DEPS, False),
        # Objects "and" or "&" join to the lead with no verb of their own are the lead's
        # change's (vllm-ascend #3973, verl #1010), when the item names the housekeeping as
        # what it is about; a change with a verb of its own is not (OpenRLHF #1186, slime #559),
        # nor a guide on building images (verl #6298).
        ("Add qwen3-235b-w8a8 and qwen3-30b-w8a8 nightly test", CODE, CI, True),
        ("feat: immigrate from yapf & pylint to ruff based on pre-commit", CODE, CI, True),
        ("support build wheel and docker image by workflow", CODE, "Docker", True),
        ("Support transformers v5: update deprecated APIs and dependencies", CODE, DEPS, False),
        ("offload router replay indices and cleanup requirements.txt", CODE, DEPS, False),
        ("doc refactor of precision guide and dockerfile build guidance", CODE, "Docker", False),
        ("Rework main2main skill for upgrade and CI failure analysis", CODE, CI, False),
        ("Fix per token loss, and e2e ci", CODE, CI, False),
        # A version alone after the lead moves the lead's subject (vllm-ascend #12019).
        ("[CI] vllm drop v0.23.0 and upgrade v0.24.0", ["Dockerfile", "README.md"], DEPS, True),
        ("remove legacy code and bump to v0.5.0", CODE, DEPS, False),
        # A bumped timeout or limit, or the project's own version, is no dependency work
        # (NVIDIA-NeMo/RL #3258, vllm-ascend #11998, AReaL's releases); an upstream's is.
        ("ci: bump async-gym megatron test wall-clock budget to 120 min", [], DEPS, False),
        ("ci: bump NUM_MINUTES +20% for nightly tests hitting Slurm timeout", [], DEPS, False),
        ("bump bisect trial timeout", [], DEPS, False),
        ("bump v0.5.0", ["areal/version.py"], DEPS, False),
        ("[misc] chore: bump main branch version to v0.5.0.dev", [], DEPS, False),
        ("bump vllm to 0.10.1", [], DEPS, True),
        ("Bump to sglang 0.4.6.post4", [], DEPS, True),
        ("upgrade to 0.18.0", [], DEPS, True),
        ("[misc] bump transformers version upperbound", [], DEPS, True),
        # A document mask is no documentation (torchtitan #3462).
        ("Faster doc mask for flex flash", ["torchtitan/attention.py"], "Docs", False),
        # LoRA by its variants and in the names of its code (ColossalAI #5586, verl's
        # `save_lora_only`, `TensorLoRARequest`), not in a word that holds the letters.
        ("[Feature] qlora support", [], "LoRA", True),
        ("[ckpt] feat: add save_lora_only checkpoint support", [], "LoRA", True),
        ("[vllm] feat: TensorLoRARequest support newer vLLM versions", [], "LoRA", True),
        ("Fix update_weight_lora_xccl vllm 0.14.0", [], "LoRA", True),
        ("add exploration bonus to the reward", [], "LoRA", False),
        ("[data] fix: Flora dataset loader", [], "LoRA", False),
    ],
)
def test_a_theme_means_its_subject_not_a_word_it_shares(
    title: str, paths: list[str], theme: str, expected: bool
) -> None:
    """tilelang's `cp.async` pipelines, VeOmni's async checkpoint saves and tilelang's tools/
    folder of debugging scripts are neither asynchronous training nor agent tools; a docker
    folder's notes are no image, a talk's video no video model."""
    (rule,) = [r for r in DEFAULT_THEME_RULES if r.name == theme]
    assert rule_matches(rule, title, "", paths, []) is expected


def test_themes_come_from_what_a_pr_leaves_changed() -> None:
    """verl #4795 moved its recipes to a submodule and so removed a Dockerfile: no Docker PR."""
    moved = make_pr(1, "[recipe] chore: move recipes to verl-recipe").model_copy(
        update={
            "files": [
                FileChange(path="recipe/r1_ascend/Dockerfile.a3", status="removed", deletions=40),
                FileChange(path=".gitmodules", additions=3),
                FileChange(path="verl/trainer/main.py", additions=5, deletions=2),
            ]
        }
    )
    dropped = make_pr(2, "[misc] chore: drop stale images").model_copy(
        update={"files": [FileChange(path="docker/Dockerfile.old", status="removed", deletions=9)]}
    )
    found = themes_of([moved, dropped])
    assert "Docker" not in found.get(1, set())
    assert "Docker" in found[2]  # only removals: the PR is about what it removed


def test_files_a_pr_removes_count_against_a_path_share_they_are_no_evidence_for() -> None:
    """torchtitan #3151 removed its VLM experiment and edited one line of the experiments'
    README beside one of their `__init__.py`: half of what it left changed, but no Docs work.
    A removal the theme's globs take counts neither way."""
    deprecated = make_pr(1, "depreciate vlm experiment").model_copy(
        update={
            "files": [
                FileChange(path="torchtitan/experiments/README.md", deletions=1),
                FileChange(path="torchtitan/experiments/__init__.py", deletions=1),
                FileChange(path="torchtitan/experiments/vlm/README.md", status="removed"),
                FileChange(path="torchtitan/experiments/vlm/model.py", status="removed"),
                FileChange(path="torchtitan/experiments/vlm/configs.py", status="removed"),
            ]
        }
    )
    moved_docs = make_pr(2, "tidy the install guide").model_copy(
        update={
            "files": [
                FileChange(path="docs/install.md", additions=30, deletions=5),
                FileChange(path="setup.cfg", additions=1),
                FileChange(path="docs/old_install.md", status="removed", deletions=80),
            ]
        }
    )
    found = themes_of([deprecated, moved_docs])
    assert "Docs" not in found.get(1, set())
    assert "Docs" in found[2]


def tagged(theme: str, numbers: range) -> list[ThemeTag]:
    return [ThemeTag(repo=REPO, number=n, theme=theme) for n in numbers]


def labelled(module: str, numbers: range, origin: ModuleOrigin = "title") -> list[ModuleLabel]:
    return [
        ModuleLabel(repo=REPO, number=n, module=module, origin=origin, confidence=1.0)
        for n in numbers
    ]


def test_a_theme_most_of_the_prs_beyond_housekeeping_carry_is_the_repositorys_subject() -> None:
    """vllm-ascend's NPU/Ascend was 48-55% of all its PRs as its history's first week moved,
    and 80% of those doing more than docs and CI work; housekeeping is no repository's subject."""
    housekeeping = ["Docs", "CI/infrastructure"]
    # PRs 0-99 do more than housekeeping (90-99 carry no theme), 100-199 are docs or CI only.
    tags = tagged("NPU/Ascend", range(80)) + tagged("MoE", range(60, 90))
    tags += tagged("Docs", range(70, 80)) + tagged("Docs", range(100, 180))
    tags += tagged("CI/infrastructure", range(180, 200))
    tags += tagged("NPU/Ascend", range(1))  # a PR counts once
    assert subject_themes(tags, range(200), housekeeping) == SubjectThemes(
        shares={"NPU/Ascend": 0.8}, measured_prs=100
    )
    # A topic among many (verl's NPU/Ascend: 15-33%), or exactly half, is not most.
    for carried in (40, 50):
        few = tagged("NPU/Ascend", range(carried)) + tagged("Docs", range(100, 200))
        assert subject_themes(few, range(200), housekeeping).shares == {}
    # Too few PRs beyond housekeeping to tell.
    short = tagged("NPU/Ascend", range(99)) + tagged("Docs", range(99, 200))
    assert subject_themes(short, range(200), housekeeping) == SubjectThemes(measured_prs=99)


def test_a_module_of_a_themes_name_stands_for_it_when_it_tags_most_of_the_themes_prs() -> None:
    """vllm-ascend tags 57 of its 71 Performance PRs `[Performance]`: the module says the
    subject, and the theme beside it ("Performance-related work") says it again. Its 3 `[MoE]`
    PRs among 99 MoE PRs, and the classifier's guesses, stand for nothing."""

    tags = tagged("Performance", range(10)) + tagged("MoE", range(10, 20))
    tags += tagged("Docker", range(20, 30))
    labels = labelled("performance", range(6)) + labelled("moe", range(10, 13))
    labels += labelled("docker", range(20, 22)) + labelled("docker", range(22, 30), "model")
    labels += labelled("perf", range(6, 10))  # another name: another label
    assert themes_named_modules_stand_for(tags, labels) == {"Performance"}
    assert themes_named_modules_stand_for(tags, labelled("performance", range(5))) == set()


def test_a_module_the_theme_takes_under_another_name_stands_for_it_if_it_tags_nearly_all() -> None:
    """vllm-ascend tags 332 of its 355 Docs PRs `[Doc]` and 433 of its 480 CI/infrastructure
    PRs `[CI]`: its 2026-07-20 read "Doc 34" beside "Docs 35" and "CI 26" beside
    "CI/infrastructure 26". verl's `ci` tags 76% of its CI/infrastructure PRs and `perf` 57% of
    its Performance PRs, whose other PRs are CI and speed work of PRs tagged for their area:
    there the theme says more than the module."""

    tags = tagged("Docs", range(10)) + tagged("CI/infrastructure", range(10, 20))
    tags += tagged("Performance", range(20, 30))
    labels = labelled("doc", range(8)) + labelled("docs", range(8, 9))  # 9 of 10
    labels += labelled("ci", range(10, 17)) + labelled("ci", range(17, 20), "model")  # 7 own
    labels += labelled("perf", range(20, 26))
    assert themes_named_modules_stand_for(tags, labels) == {"Docs"}
    # A repository's own rules name the modules they take.
    manuals = [ThemeRule(name="Docs", paths=["docs/**"], modules=["manual"])]
    by_manual = labelled("manual", range(9))
    assert themes_named_modules_stand_for(tags, by_manual, manuals) == {"Docs"}
    assert themes_named_modules_stand_for(tags, labels, manuals) == set()
