"""Reading the requirements a dependency manifest declares, and the dependency risk they give."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.scoring.config_diff import (
    compare_config,
    compared_files,
    config_file_diffs,
)
from prhub_pipeline.modelling.scoring.requirement_edits import ENGLISH, describe, requirement_edits
from prhub_pipeline.modelling.scoring.requirements import (
    is_read_manifest,
    requirement_settings,
    shown_version,
)
from prhub_pipeline.modelling.scoring.risks import flag_risks
from prhub_pipeline.records import FileVersions, ReviewData, RiskFlag, SettingChange
from prhub_pipeline.reporting import facts
from prhub_pipeline.reporting.facts import FlaggedPr, RiskGroup, requirement_chains
from prhub_pipeline.reporting.wording import EN, ZH
from prhub_pipeline_tests.test_importance import REPO, make_pr

PYPROJECT = """\
[build-system]
requires = ["setuptools>=61", "wheel"]

[project]
name = "demo"
requires-python = ">=3.10"
dependencies = ["torch==2.7.1", "numpy", "ray[default]>=2.41; sys_platform == 'linux'"]

[project.optional-dependencies]
test = ["pytest>=8"]

[tool.ruff]
line-length = 100
"""


def change(key: str, before: str | None, after: str | None) -> SettingChange:
    return SettingChange(key=key, before=before, after=after)


def test_pyproject_requirements_are_keyed_by_name_and_group() -> None:
    assert requirement_settings("pyproject.toml", PYPROJECT) == {
        "torch": "==2.7.1",
        "numpy": "",
        'ray[default]; sys_platform == "linux"': ">=2.41",
        "test: pytest": ">=8",
        "build: setuptools": ">=61",
        "build: wheel": "",
        "python": ">=3.10",
    }
    # Tool settings and a name's spelling (`NumPy`, `numpy`) are no requirement change.
    tooling = PYPROJECT.replace("line-length = 100", "line-length = 120").replace(
        '"numpy"', '"NumPy"'
    )
    assert compare_config("pyproject.toml", PYPROJECT, tooling) == []
    bumped = PYPROJECT.replace("torch==2.7.1", "torch==2.8.0").replace(
        '"numpy", ', '"numpy", "xgrammar>=0.1.21", '
    )
    assert compare_config("pyproject.toml", PYPROJECT, bumped) == [
        change("torch", "==2.7.1", "==2.8.0"),
        change("xgrammar", None, ">=0.1.21"),
    ]
    assert requirement_settings("pyproject.toml", "[project\nname=") is None
    assert requirement_settings("pyproject.toml", 'project = "demo"\n') is None
    assert requirement_settings("package.json", "[1, 2]") is None
    # Two lines of one project apply together: one line saying the same is no change (tilelang
    # #1487); a pin for another environment is its own requirement (LLaMA-Factory #6786).
    two = (
        "tvm-ffi~=0.1.0\ntvm-ffi>=0.1.6\n"
        "x<=4.48.1; python_version >= '3.10'\nx<=4.47; python_version < '3.10'\n"
    )
    one = two.replace("tvm-ffi~=0.1.0\ntvm-ffi>=0.1.6", "tvm-ffi>=0.1.6,~=0.1.0").replace(
        "4.48.1", "4.48.2"
    )
    assert compare_config("requirements.txt", two, one) == [
        change('x; python_version >= "3.10"', "<=4.48.1", "<=4.48.2")
    ]


def test_requirements_files_keep_options_and_unreadable_lines_whole() -> None:
    text = (
        "# pinned for CANN 8.1\n"
        "-r requirements-lint.txt\n"
        "--extra-index-url https://download.pytorch.org/whl/cpu\n"
        "torch-npu==2.5.1.post1  # the NPU build\n"
        "pytest-mock\n"
        "pytest-mock\n"
        "git+https://github.com/org/repo.git#egg=thing\n"
        # pytorch/ao #136 read "adds -e git+https://...pytorch_sphinx_theme.git#egg=...".
        "-e git+https://github.com/pytorch/pytorch_sphinx_theme.git#egg=pytorch_sphinx_theme\n"
    )
    assert requirement_settings("requirements-dev.txt", text) == {
        "-r requirements-lint.txt": "listed",
        "--extra-index-url https://download.pytorch.org/whl/cpu": "listed",
        "torch-npu": "==2.5.1.post1",
        "pytest-mock": "",
        "thing": "@ git+https://github.com/org/repo.git",
        "pytorch-sphinx-theme": "@ git+https://github.com/pytorch/pytorch_sphinx_theme.git",
    }
    assert is_read_manifest("requirements/npu.txt") and is_read_manifest("docs/requirements.txt")
    assert not is_read_manifest("Pipfile.lock") and not is_read_manifest("requirements/README.md")


def test_a_pinned_commit_shows_its_first_twelve_digits() -> None:
    """tpu-inference's risk wrote tokamax's 40-digit pin four times in one sentence."""
    sha = "5802a3d225c661be603cefbea9843c7e928f6dd0"
    text = f"tokamax @ git+https://github.com/openxla/tokamax.git@{sha}\n"
    pinned = requirement_settings("requirements.txt", text)
    assert pinned == {"tokamax": f"@ git+https://github.com/openxla/tokamax.git@{sha}"}
    shown = "@ git+https://github.com/openxla/tokamax.git@5802a3d225c6"
    assert shown_version(pinned["tokamax"]) == shown
    assert shown_version("@ https://host/x.git@v1.2") == "@ https://host/x.git@v1.2"
    assert shown_version("==1.0") == "==1.0" and shown_version("listed") == ""


def test_a_requirement_line_is_read_apart_from_its_options_and_continuations() -> None:
    # ColossalAI #3940 listed "nvidia-dali-cuda110>=1.8.0 --extra-index-url https://..." as
    # one unreadable line; pip-compile's hashed pins came out as their hash lines.
    text = (
        "nvidia-dali-cuda110>=1.8.0 --extra-index-url https://developer.download.nvidia.com\n"
        "torch==2.1.0 \\\n"
        "    --hash=sha256:0a1b \\\n"
        "    --hash=sha256:2c3d\n"
        'numpy>=1.26 ; python_version >= "3.10" --hash=sha256:4e5f\n'
    )
    assert requirement_settings("requirements.txt", text) == {
        "nvidia-dali-cuda110": ">=1.8.0",
        "--extra-index-url https://developer.download.nvidia.com": "listed",
        "torch": "==2.1.0",
        'numpy; python_version >= "3.10"': ">=1.26",
    }


def test_setup_py_reads_literal_requirements_and_leaves_computed_ones_out() -> None:
    # verl's setup.py lists its extras by module-level name; vllm-ascend's computes
    # install_requires from requirements.txt, which is compared itself.
    verl = """\
from setuptools import setup
install_requires = ["hydra-core", "numpy>=2.0.0"]
TEST_REQUIRES = ["pytest"]
setup(name="verl", install_requires=install_requires, extras_require={"test": TEST_REQUIRES})
"""
    assert requirement_settings("setup.py", verl) == {
        "hydra-core": "",
        "numpy": ">=2.0.0",
        "test: pytest": "",
    }
    computed = 'setup(install_requires=get_requirements(), python_requires=">=3.10")\n'
    assert requirement_settings("setup.py", computed) == {"python": ">=3.10"}
    rebuilt = computed.replace("setup(", "build_ext()\nsetup(")
    assert compare_config("setup.py", computed, rebuilt) == []


def test_package_json_and_setup_cfg() -> None:
    package = '{"dependencies": {"react": "^18.2.0"}, "devDependencies": {"vite": "^5"}}'
    assert requirement_settings("web/package.json", package) == {
        "react": "^18.2.0",
        "dev: vite": "^5",
    }
    cfg = "[options]\ninstall_requires =\n    requests>=2\n    tqdm\n"
    assert requirement_settings("setup.cfg", cfg) == {"requests": ">=2", "tqdm": ""}


def _dependency_flag(number: int, path: str, before: str, after: str) -> RiskFlag:
    """The dependency flag of a PR that changed one manifest from `before` to `after`."""
    diffs = config_file_diffs(
        REPO, [FileVersions(pr_number=number, path=path, before=before, after=after)]
    )
    pr = make_pr(number, files=[(path, 2, 1)])
    config = ScoringConfig(core_paths=["verl/**/*.py"])
    [flag] = flag_risks([pr], {}, ReviewData(available=False), config, {}, config_diffs=diffs)
    return flag


def _dependency_group(flag: RiskFlag) -> RiskGroup:
    return RiskGroup("dependency_change", [flag.number], [_flagged(flag)], unlisted=0, reverts=[])


def _flagged(flag: RiskFlag) -> FlaggedPr:
    return FlaggedPr(
        number=flag.number,
        subject="",
        lines=None,
        paths=flag.paths,
        modules=[],
        asks=[],
        settings=flag.settings,
        uncompared_paths=flag.uncompared_paths,
        deleted_paths=[],
    )


def test_a_dependency_flag_names_the_requirements_and_skips_tooling_edits() -> None:
    config = ScoringConfig(core_paths=["verl/**/*.py"])
    bump = make_pr(1, files=[("pyproject.toml", 2, 1), ("Pipfile.lock", 40, 30)])
    tooling = make_pr(2, files=[("pyproject.toml", 1, 1)])
    lint = make_pr(3, files=[("requirements-dev.txt", 1, 0)])
    assert [f.path for f in compared_files(bump, config)] == ["pyproject.toml"]
    bumped = (
        PYPROJECT.replace("torch==2.7.1", "torch==2.8.0")
        .replace('"numpy", ', '"numpy", "xgrammar", ')
        .replace('test = ["pytest>=8"]', "test = []")
    )
    diffs = config_file_diffs(
        REPO,
        [
            FileVersions(pr_number=1, path="pyproject.toml", before=PYPROJECT, after=bumped),
            FileVersions(
                pr_number=3, path="requirements-dev.txt", before="pytest\n", after="-r lint.txt\n"
            ),
            FileVersions(
                pr_number=2,
                path="pyproject.toml",
                before=PYPROJECT,
                after=PYPROJECT.replace("100", "120"),
            ),
        ],
    )
    flags = flag_risks(
        [bump, tooling, lint], {}, ReviewData(available=False), config, {}, config_diffs=diffs
    )
    flag, options = [f for f in flags if f.risk == "dependency_change"]
    # An option line is there or not: no version to show.
    assert options.detail == "changes requirements: adds -r lint.txt; removes pytest"
    assert flag.number == 1
    assert flag.detail == (
        "changes requirements: removes test: pytest >=8; torch ==2.7.1 → ==2.8.0;"
        " adds xgrammar; changes dependency files: Pipfile.lock"
    )
    assert flag.paths == ["pyproject.toml", "Pipfile.lock"]
    group = RiskGroup("dependency_change", [1], [_flagged(flag)], unlisted=0, reverts=[])
    assert EN.risk_text(group) == (
        "#1: pyproject.toml, Pipfile.lock (removes test: pytest >=8, torch ==2.7.1 → ==2.8.0,"
        " adds xgrammar)."
    )
    assert ZH.risk_text(group) == (
        "#1：pyproject.toml、Pipfile.lock（移除 test: pytest >=8、torch ==2.7.1 → ==2.8.0、"
        "新增 xgrammar）。"
    )


def test_a_requirement_repinned_for_the_build_and_the_runtime_alike_is_one_change() -> None:
    """vllm-ascend #13901 re-pinned torch-npu in pyproject.toml's build requirements and in
    requirements.txt: "build: torch-npu ==2.10.0.post2 → ==2.10.0.post4, build: triton-ascend
    ..., torch-npu ==2.10.0.post2 → ==2.10.0.post4". It is told once, as the requirement; a
    build requirement re-pinned alone, or to other versions, keeps its group."""
    pin = "==2.10.0.post2", "==2.10.0.post4"
    build = [
        SettingChange(key="build: torch-npu", before=pin[0], after=pin[1], path="pyproject.toml"),
        SettingChange(
            key="build: triton-ascend", before="==3.2.1", after="==3.2.2", path="pyproject.toml"
        ),
    ]
    runtime = [
        SettingChange(
            key="torch-npu", before="==2.10.0.post2", after="==2.10.0.post4", path="req.txt"
        ),
        SettingChange(key="triton-ascend", before="==3.2.1", after="==3.2.3", path="req.txt"),
    ]
    edits = requirement_edits([*build, *runtime])
    assert [describe(edit, ENGLISH) for edit in edits] == [
        "torch-npu ==2.10.0.post2 → ==2.10.0.post4",
        "build: triton-ascend ==3.2.1 → ==3.2.2",
        "triton-ascend ==3.2.1 → ==3.2.3",
    ]


def test_a_requirement_for_some_environments_names_them_after_its_version() -> None:
    """torchtitan #1009 read "adds tomli; python_version < "3.11" >=1.1.0 and 2 more": the
    `;` between name and version read as the end of an item."""
    marker = 'tomli; python_version < "3.11"'
    edits = requirement_edits(
        [
            SettingChange(key=marker, before=None, after=">=1.1.0", path="requirements.txt"),
            SettingChange(key=f"dev: {marker}", before=">=1.0", after=">=1.1.0", path="r.txt"),
            SettingChange(key="colorama; os_name == 'nt'", before="", after=None, path="r.txt"),
        ]
    )
    assert [describe(edit, ENGLISH) for edit in edits] == [
        'adds tomli >=1.1.0 (python_version < "3.11")',
        'dev: tomli (python_version < "3.11") >=1.0 → >=1.1.0',
        "removes colorama (os_name == 'nt')",
    ]


def test_an_extra_named_after_its_package_is_named_once() -> None:
    """torchtitan #4123 read "adds torch-checkpointing: torch-checkpointing >=0.1.0"."""
    edits = requirement_edits(
        [
            SettingChange(
                key="torch-checkpointing: torch-checkpointing", after=">=0.1.0", path="p.toml"
            ),
            SettingChange(key="Torch_Remat: torch-remat", after=">=0.2", path="p.toml"),
            SettingChange(key="dev: pytest", after=">=8", path="p.toml"),
        ]
    )
    assert [describe(edit, ENGLISH) for edit in edits] == [
        "adds torch-checkpointing >=0.1.0",
        "adds torch-remat >=0.2",
        "adds dev: pytest >=8",
    ]


def test_a_requirement_moved_to_another_manifest_is_one_change() -> None:
    """verl #3616 moved flash-attn to requirements-cuda.txt; #6354 moved transferqueue from a
    setup.py extra to two requirements files, re-pinned; #1385 swapped sglang's extras."""
    config = ScoringConfig(core_paths=["verl/**/*.py"])
    setup = 'setup(extras_require={"transferqueue": ["transferqueue==0.1.6"], "x": ["%s"]})\n'
    prs = [
        make_pr(3616, files=[("requirements.txt", 0, 1), ("requirements-cuda.txt", 1, 0)]),
        make_pr(
            6354,
            files=[("setup.py", 1, 1), ("requirements.txt", 1, 0), ("requirements-npu.txt", 1, 0)],
        ),
        make_pr(1385, files=[("setup.py", 1, 1)]),
    ]
    diffs = config_file_diffs(
        REPO,
        [
            FileVersions(
                pr_number=3616, path="requirements.txt", before="flash-attn\nray\n", after="ray\n"
            ),
            FileVersions(
                pr_number=3616, path="requirements-cuda.txt", before="", after="flash-attn\n"
            ),
            FileVersions(
                pr_number=6354,
                path="setup.py",
                before=setup % "ray",
                after='setup(extras_require={"x": ["ray"]})\n',
            ),
            *(
                FileVersions(
                    pr_number=6354, path=path, before="ray\n", after="ray\ntransferqueue==0.1.7\n"
                )
                for path in ("requirements.txt", "requirements-npu.txt")
            ),
            FileVersions(
                pr_number=1385,
                path="setup.py",
                before=setup % "sglang[all]==0.4.5.post3",
                after=setup % "sglang[openai,srt]==0.4.6.post1",
            ),
        ],
    )
    flags = flag_risks(prs, {}, ReviewData(available=False), config, {}, config_diffs=diffs)
    by_number = {f.number: f for f in flags if f.risk == "dependency_change"}
    assert by_number[3616].detail == (
        "changes requirements: moves flash-attn from requirements.txt to requirements-cuda.txt"
    )
    assert by_number[6354].detail == (
        "changes requirements: moves transferqueue from setup.py (transferqueue) to"
        " requirements.txt and requirements-npu.txt (==0.1.6 → ==0.1.7)"
    )
    assert by_number[1385].detail == (
        "changes requirements: x: sglang[all] ==0.4.5.post3 → x: sglang[openai,srt] ==0.4.6.post1"
    )
    group = RiskGroup(
        "dependency_change", [6354], [_flagged(by_number[6354])], unlisted=0, reverts=[]
    )
    assert EN.risk_text(group).endswith(
        " (moves transferqueue from setup.py (transferqueue) to requirements.txt and"
        " requirements-npu.txt (==0.1.6 → ==0.1.7))."
    )
    assert ZH.risk_text(group).endswith(
        "（将 transferqueue 从 setup.py（transferqueue） 移至 requirements.txt 和 "
        "requirements-npu.txt，==0.1.6 → ==0.1.7）。"
    )
    # Within one file, from one group to another (verl #36).
    flag = _dependency_flag(
        36,
        "setup.py",
        'setup(install_requires=["pytest", "ray"])\n',
        'setup(install_requires=["ray"], extras_require={"test": ["pytest"]})\n',
    )
    assert (
        flag.detail
        == "changes requirements: moves pytest in setup.py from the main list to the group test"
    )
    group = _dependency_group(flag)
    # The risk's own sentence names the one file, so the move does not name it again
    # (vllm-omni #97 read "pyproject.toml (moves gradio in pyproject.toml from dev to ...)").
    assert EN.risk_text(group).endswith(
        "#36: setup.py (moves pytest from the main list to the group test)."
    )
    assert ZH.risk_text(group).endswith("#36：setup.py（将 pytest 从主依赖列表移至 test 分组）。")
    # A move to several extras beside other edits reads as one of them (apache/tvm #19723 read
    # "moves psutil from the main list to all, popen-pool, rpc, adds all: tornado").
    group = _dependency_group(
        _dependency_flag(
            19723,
            "pyproject.toml",
            '[project]\ndependencies = ["numpy", "psutil"]\n'
            '[project.optional-dependencies]\nall = ["xgboost"]\n',
            '[project]\ndependencies = ["numpy"]\n[project.optional-dependencies]\n'
            'all = ["xgboost", "psutil", "tornado"]\npopen-pool = ["psutil"]\n'
            'rpc = ["tornado", "psutil"]\n',
        )
    )
    assert EN.risk_text(group).endswith(
        "#19723: pyproject.toml (moves psutil from the main list to the groups all, popen-pool"
        " and rpc; adds all: tornado)."
    )
    assert ZH.risk_text(group).endswith(
        "#19723：pyproject.toml（将 psutil 从主依赖列表移至 all、popen-pool 和 rpc 分组；"
        "新增 all: tornado）。"
    )
    # One line split into two for other environments, in its file and group (VeOmni #901).
    flag = _dependency_flag(
        901,
        "pyproject.toml",
        "[project.optional-dependencies]\ngpu = [\"av>=14.3; python_version == '3.11'\"]\n",
        '[project.optional-dependencies]\ngpu = ["av>=14.2; platform_machine =='
        " 'aarch64'\", \"av>=14.3; platform_machine == 'x86_64'\"]\n",
    )
    assert flag.detail == (
        "changes requirements: re-declares av in pyproject.toml (gpu) for other environments or"
        " extras (1 → 2 declarations)"
    )
    assert ZH.risk_text(_dependency_group(flag)).endswith(
        "（在 pyproject.toml（gpu） 中按其他环境或 extras 重新声明 av（1 → 2 条））。"
    )
    # A project removed from a manifest and another one added stay two changes.
    flag = _dependency_flag(9, "requirements.txt", "a\n", "b\n")
    assert flag.detail == "changes requirements: removes a; adds b"


def test_a_pyproject_that_hands_its_requirements_to_the_build_backend_removes_none() -> None:
    """verl #769: `dynamic = ["dependencies"]`, setup.py declares them; a requirement setup.py
    newly declares is a move, the rest went with the hand-off."""
    config = ScoringConfig(core_paths=["verl/**/*.py"])
    static = '[project]\nname = "verl"\ndependencies = ["accelerate", "codetiming", "ray>=2.10"]\n'
    dynamic = '[project]\nname = "verl"\ndynamic = ["dependencies"]\n'
    setup = 'setup(install_requires=["accelerate", "codetiming"%s])\n'
    pr = make_pr(769, files=[("pyproject.toml", 1, 2), ("setup.py", 1, 1)])
    diffs = config_file_diffs(
        REPO,
        [
            FileVersions(pr_number=769, path="pyproject.toml", before=static, after=dynamic),
            FileVersions(
                pr_number=769, path="setup.py", before=setup % "", after=setup % ', "ray>=2.10"'
            ),
        ],
    )
    [flag] = flag_risks([pr], {}, ReviewData(available=False), config, {}, config_diffs=diffs)
    assert flag.detail == (
        "changes requirements: makes the dependencies of pyproject.toml dynamic (the build"
        " backend reads them), no longer listing 2 requirements there; moves ray from"
        " pyproject.toml to setup.py"
    )
    group = RiskGroup("dependency_change", [769], [_flagged(flag)], unlisted=0, reverts=[])
    assert (
        "(makes the dependencies of pyproject.toml dynamic (the build backend reads them),"
        " no longer listing 2 requirements there; moves ray" in EN.risk_text(group)
    )
    # An edit said with a comma of its own stands apart from the next (verl #7127's read
    # "...，不再动态声明、python >=3.10 → ..." in Chinese).
    assert (
        "将 pyproject.toml 的 dependencies 改为动态声明（由构建后端读取），"
        "不再在其中列出 2 个依赖；将 ray 从" in (ZH.risk_text(group))
    )
    # And back: listing them again adds none either.
    back = config_file_diffs(
        REPO, [FileVersions(pr_number=770, path="pyproject.toml", before=dynamic, after=static)]
    )
    again = make_pr(770, files=[("pyproject.toml", 2, 1)])
    [flag] = flag_risks([again], {}, ReviewData(available=False), config, {}, config_diffs=back)
    assert flag.detail == (
        "changes requirements: lists 3 requirements as the dependencies of pyproject.toml"
        " itself, no longer dynamic"
    )
    group = RiskGroup("dependency_change", [770], [_flagged(flag)], unlisted=0, reverts=[])
    assert "pyproject.toml 改为直接列出 3 个依赖作为 dependencies，不再动态声明" in ZH.risk_text(
        group
    )


UV_LOCK = """\
version = 1
requires-python = ">=3.11"

[[package]]
name = "torch"
version = "2.7.1"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "Triton"
version = "3.3.1"

[[package]]
name = "numpy"
version = "1.26.4"
resolution-markers = ["python_full_version < '3.12'"]

[[package]]
name = "numpy"
version = "2.2.6"
resolution-markers = ["python_full_version >= '3.12'"]
"""


def test_a_lock_file_names_the_packages_it_relocks() -> None:
    """uv.lock (VeOmni edits it in 47 PRs, verl since #7127): a re-lock says which packages
    moved, a lock whose versions stay (hashes, markers) is no dependency change."""
    assert requirement_settings("uv.lock", UV_LOCK) == {
        "locked: torch": "==2.7.1",
        "locked: triton": "==3.3.1",
        "locked: numpy": "==1.26.4 | ==2.2.6",
    }
    assert is_read_manifest("uv.lock") and is_read_manifest("poetry.lock")
    config = ScoringConfig(core_paths=["verl/**/*.py"])
    relock = make_pr(1, files=[("uv.lock", 30, 30)])
    rehash = make_pr(2, files=[("uv.lock", 3, 3)])
    relocked = UV_LOCK.replace('"2.7.1"', '"2.8.0"').replace('name = "Triton"', 'name = "triton-x"')
    diffs = config_file_diffs(
        REPO,
        [
            FileVersions(pr_number=1, path="uv.lock", before=UV_LOCK, after=relocked),
            FileVersions(
                pr_number=2, path="uv.lock", before=UV_LOCK, after=UV_LOCK.replace("1\n", "2\n", 1)
            ),
        ],
    )
    flags = flag_risks(
        [relock, rehash], {}, ReviewData(available=False), config, {}, config_diffs=diffs
    )
    [flag] = [f for f in flags if f.risk == "dependency_change"]
    assert flag.number == 1
    assert flag.detail == (
        "changes requirements: locked: torch ==2.7.1 → ==2.8.0; removes locked: triton ==3.3.1;"
        " adds locked: triton-x ==3.3.1"
    )


def test_a_lock_file_with_many_changed_packages_is_one_relock() -> None:
    """verl #7127 added uv.lock with 320 packages: told one by one, its first three read like
    requirement changes and "(+317 more)" like that many more; as one re-lock they are
    counted by kind, after the manifest's own edit, which stays first."""
    packages = "".join(f'[[package]]\nname = "pkg{i}"\nversion = "1.{i}"\n\n' for i in range(6))
    relocked = (
        packages.replace('"1.0"', '"2.0"')
        .replace('"1.1"', '"2.1"')
        .replace('name = "pkg5"', 'name = "other"')
    )
    manifest = '[project]\nname = "x"\ndependencies = []\n'
    diffs = config_file_diffs(
        REPO,
        [
            FileVersions(
                pr_number=3,
                path="pyproject.toml",
                before=manifest,
                after=manifest.replace("[]", '["pkg0>=2"]'),
            ),
            FileVersions(pr_number=3, path="uv.lock", before="version = 1\n", after=packages),
            FileVersions(pr_number=4, path="uv.lock", before=packages, after=relocked),
        ],
    )
    prs = [
        make_pr(3, files=[("pyproject.toml", 1, 1), ("uv.lock", 24, 1)]),
        make_pr(4, files=[("uv.lock", 2, 2)]),
    ]
    config = ScoringConfig(core_paths=["verl/**/*.py"])
    flags = flag_risks(prs, {}, ReviewData(available=False), config, {}, config_diffs=diffs)
    new_lock, relock = [f for f in flags if f.risk == "dependency_change"]
    assert new_lock.detail == (
        "changes requirements: adds pkg0 >=2; uv.lock: adds 6 packages (pkg0 ==1.0, pkg1 ==1.1, …)"
    )
    # Each kind counted; a lone package of a kind in the singular.
    [lock] = requirement_edits(relock.settings)
    assert describe(lock, ENGLISH) == (
        "uv.lock: re-pins 2 packages (pkg0 ==1.0 → ==2.0, pkg1 ==1.1 → ==2.1), adds 1 package,"
        " removes 1 package"
    )
    assert describe(lock, ZH.requirements) == (
        "uv.lock：更新 2 个包的锁定版本（pkg0 ==1.0 → ==2.0、pkg1 ==1.1 → ==2.1），新增 1 个包，"
        "移除 1 个包"
    )
    # In the report, a lock file the sentence names alone is not named again in its parenthesis
    # (VeOmni #790 read "uv.lock (uv.lock: adds 6 packages …)"); beside a manifest it is.
    groups = [
        RiskGroup("dependency_change", [f.number], [_flagged(f)], unlisted=0, reverts=[])
        for f in (new_lock, relock)
    ]
    assert EN.risk_text(groups[0]) == (
        "#3: pyproject.toml, uv.lock (adds pkg0 >=2; uv.lock: adds 6 packages"
        " (pkg0 ==1.0, pkg1 ==1.1, …))."
    )
    assert EN.risk_text(groups[1]) == (
        "#4: uv.lock (re-pins 2 packages (pkg0 ==1.0 → ==2.0, pkg1 ==1.1 → ==2.1), adds 1 package,"
        " removes 1 package)."
    )
    assert ZH.risk_text(groups[1]).startswith("#4：uv.lock（更新 2 个包的锁定版本（")


def test_a_requirement_several_prs_changed_in_turn_is_told_taken_together() -> None:
    """verl's week of 2026-08-10: #7345 drops triton-ascend ==3.2.1, #7293 (merged after it,
    though numbered before) brings it back at ==3.2.2."""
    config = ScoringConfig(core_paths=["verl/**/*.py"])
    monday = datetime(2026, 8, 10, tzinfo=UTC)
    npu = "requirements-npu.txt"
    pinned = "einops\ntriton-ascend==3.2.1\n"
    prs = [
        make_pr(7293, files=[(npu, 1, 0)], merged_at=monday + timedelta(days=2)),
        make_pr(7345, files=[(npu, 0, 1), ("requirements.txt", 1, 1)], merged_at=monday),
        make_pr(7400, files=[("requirements.txt", 1, 1)], merged_at=monday + timedelta(days=3)),
    ]
    diffs = config_file_diffs(
        REPO,
        [
            FileVersions(pr_number=7345, path=npu, before=pinned, after="einops\n"),
            FileVersions(
                pr_number=7293, path=npu, before="einops\n", after="einops\ntriton-ascend==3.2.2\n"
            ),
            # The same name in another manifest is another requirement; and a pair of changes
            # that does not join up (==2 -> ==3, then ==4 -> ==5) tells no history.
            FileVersions(
                pr_number=7345,
                path="requirements.txt",
                before="triton-ascend==2\n",
                after="triton-ascend==3\n",
            ),
            FileVersions(
                pr_number=7400,
                path="requirements.txt",
                before="triton-ascend==4\n",
                after="triton-ascend==5\n",
            ),
        ],
    )
    flags = flag_risks(prs, {}, ReviewData(available=False), config, {}, config_diffs=diffs)
    dependency = [f for f in flags if f.risk == "dependency_change"]
    merged = {pr.number: pr.merged_at for pr in prs}
    [chain] = requirement_chains(dependency, merged)
    assert (chain.path, chain.key, chain.before, chain.after) == (
        npu,
        "triton-ascend",
        "==3.2.1",
        "==3.2.2",
    )
    assert [step.number for step in chain.steps] == [7345, 7293]
    group = RiskGroup("dependency_change", [7293, 7345], [], 0, [], [chain])
    assert EN.risk_text(group).endswith(
        " Taken together, triton-ascend in requirements-npu.txt went from ==3.2.1 to ==3.2.2"
        " (#7345 removes it, then #7293 adds it at ==3.2.2)."
    )
    assert ZH.risk_text(group).endswith(
        "合起来看，requirements-npu.txt 中的 triton-ascend 从 ==3.2.1 变为 ==3.2.2"
        "（#7345 移除，随后 #7293 新增 ==3.2.2）。"
    )
    # Added and removed again the same week: nothing left of it.
    there_and_gone = facts.RequirementChain(
        "setup.py",
        "pyext",
        [facts.RequirementStep(233, None, ""), facts.RequirementStep(279, "", None)],
    )
    assert "pyext in setup.py was added and removed again, with no net change (#233 adds it," in (
        EN.risk_text(RiskGroup("dependency_change", [233, 279], [], 0, [], [there_and_gone]))
    )
    moved_out = facts.RequirementChain(
        "pyproject.toml",
        "sglang[all]",
        [
            facts.RequirementStep(646, "==0.4.3.post3", "==0.4.4"),
            facts.RequirementStep(769, "==0.4.4", None),
        ],
    )
    text = EN.risk_text(RiskGroup("dependency_change", [646, 769], [], 0, [], [moved_out]))
    assert "sglang[all] in pyproject.toml went from ==0.4.3.post3 to not listed (#646" in text
    text = ZH.risk_text(RiskGroup("dependency_change", [646, 769], [], 0, [], [moved_out]))
    assert (
        "sglang[all] 从 ==0.4.3.post3 变为不再列出（#646 ==0.4.3.post3 → ==0.4.4，随后 #769 移除）"
        in text
    )
