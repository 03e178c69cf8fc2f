from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from prhub_pipeline.config import (
    ConfigError,
    GitHubConfig,
    ModulesConfig,
    RepoConfig,
    ScoringConfig,
    Settings,
    ThemeRule,
    find_config_path,
    load_settings,
)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "prhub.yaml"
    path.write_text(text, encoding="utf-8")
    return path


VALID = """
database: data/prhub.duckdb
timezone: Asia/Shanghai
language: zh
repos:
  - name: verl-project/verl
    source: git
    git_path: clone
    start: 2024-10-28
"""


def test_valid_config_resolves_paths_relative_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "clone").mkdir()
    settings = load_settings(
        write(tmp_path, VALID.replace("start:", "branch: release/v0.5\n    start:"))
    )
    assert settings.repos[0].branch == "release/v0.5"
    assert settings.database == tmp_path / "data" / "prhub.duckdb"
    assert settings.repos[0].git_path == tmp_path / "clone"
    assert settings.repos[0].start.isoformat() == "2024-10-28"
    assert settings.language == "zh"


@pytest.mark.parametrize(
    ("replace", "by", "message"),
    [
        ("language: zh", "language: zh\ncolour: blue", r"colour: unknown key"),
        ("timezone: Asia/Shanghai", "timezone: Mars/Olympus", r"timezone: unknown time zone"),
        (
            "git_path: clone",
            "git_path: clone\n    branch: --all",
            r"repos\.0\.branch: '--all' is not",
        ),
        ("git_path: clone", "git_path: clone\n    branch: a..b", r"repos\.0\.branch: 'a\.\.b'"),
        (
            "git_path: clone",
            "git_path: clone\n    github: {api_url: api.github.com/graphql}",
            r"repos\.0\.github\.api_url: 'api\.github\.com/graphql' is not an http",
        ),
        ("name: verl-project/verl", "name: verl", r"repos\.0\.name: 'verl' is not a repository"),
        # The report files would go to reports/, beside every repository's folder.
        ("name: verl-project/verl", "name: evil/..", r"repos\.0\.name: 'evil/\.\.' is not a"),
        ("name: verl-project/verl", 'name: "x/r\\n"', r"repos\.0\.name: 'x/r\\n' is not a"),
        (
            "start: 2024-10-28",
            "start: 2024-10-29",
            r"repos\.0\.start: 2024-10-29 is a Tuesday; .* \(that week's: 2024-10-28\)",
        ),
        ("source: git", "source: svn", r"repos\.0\.source"),
        ("    git_path: clone\n", "", r"repos\.0: git_path is required when source is git"),
        (
            "git_path: clone",
            "git_path: clone\n    modules: {label_modules: {area/model: model}}",
            r"repos\.0: modules\.label_modules maps GitHub labels, which the git source does not",
        ),
        ("language: zh", "language: fr", r"language"),
        ("language: zh", "language: zh\nsql_models_dir: models", r"sql_models_dir: no such dir"),
        ("language: zh", "language: zh\nreports_url: reports/", r"reports_url: 'reports/' is not"),
        ("    start: 2024-10-28", "    start: 2024-10-28\n    colour: red", r"repos\.0\.colour"),
        (
            "    start: 2024-10-28",
            "    start: 2024-10-28\n    modules: {allowed: [algo], display_names: {algoo: Algo}}",
            r"repos\.0\.modules: display_names: 'algoo' is not one of the allowed modules \(algo\)",
        ),
        (
            "    start: 2024-10-28",
            "    start: 2024-10-28\n    modules: {allowed: [doc, fsdp], aliases: {docs: dcos}}",
            r"repos\.0\.modules: aliases: 'docs' maps to 'dcos', which is not one of the allowed"
            r" modules \(doc, fsdp\)",
        ),
        (
            "    start: 2024-10-28",
            "    start: 2024-10-28\n    modules: {allowed: [doc], label_modules: {'area/ci': ci}}",
            r"repos\.0\.modules: label_modules: 'area/ci' maps to 'ci', which is not one",
        ),
        (
            "    start: 2024-10-28",
            "    start: 2024-10-28\n    modules: {display_names: {algo: {zh: ' '}}}",
            r"repos\.0\.modules: display_names: 'algo' needs a non-empty name",
        ),
        (
            "    start: 2024-10-28",
            "    start: 2024-10-28\n    modules: {display_names: {Doc: Docs, doc: Documents}}",
            r"display_names: 'Doc' and 'doc' are one module",
        ),
        (
            "    start: 2024-10-28",
            "    start: 2024-10-28\n    modules: {display_names: {algo: {fr: Algorithmes}}}",
            r"repos\.0\.modules\.display_names\.algo",
        ),
        (
            "    start: 2024-10-28",
            "    start: 2024-10-28\n    modules: {aliases: {docs: doc, doc: docs}}",
            r"repos\.0\.modules: aliases: 'docs' maps to 'doc', which is itself an alias \(of"
            r" 'docs'\); map 'docs' to the module it stands for",
        ),
        (
            "    start: 2024-10-28",
            "    start: 2024-10-28\n    modules: {allowed: [doc, ci], aliases: {doc: ci}}",
            r"repos\.0\.modules: aliases: 'doc' is an allowed module; an alias renames a tag",
        ),
        (
            "    start: 2024-10-28",
            "    start: 2024-10-28\n    modules: {allowed: []}",
            r"repos\.0\.modules\.allowed: an empty list allows no module; leave `allowed` out",
        ),
        (
            "    start: 2024-10-28",
            "    start: 2024-10-28\n    modules: {allowed: [doc]}\n"
            "    themes: [{name: Docs, paths: ['docs/**'], modules: [docs]}]",
            r"repos\.0: themes\.0\.modules: 'docs' is not one of the allowed modules \(doc\)",
        ),
        (
            "    start: 2024-10-28",
            "    start: 2024-10-28\n    themes: [{name: NPU, title: [npu]}, {name: Docs}]",
            r"repos\.0\.themes: 1 \(Docs\): no title, body, paths or modules to match",
        ),
        (
            "    start: 2024-10-28",
            "    start: 2024-10-28\n    themes: [{name: NPU, title: [a]}, {name: npu, body: [b]}]",
            r"repos\.0\.themes: 1: theme 'npu' is listed twice",
        ),
    ],
)
def test_bad_config_names_the_key(tmp_path: Path, replace: str, by: str, message: str) -> None:
    (tmp_path / "clone").mkdir()
    assert replace in VALID
    with pytest.raises(ConfigError, match=message):
        load_settings(write(tmp_path, VALID.replace(replace, by)))


def test_bad_config_names_the_file_and_the_line(tmp_path: Path) -> None:
    (tmp_path / "clone").mkdir()
    path = write(tmp_path, VALID.replace("language: zh", "languag: zh"))
    with pytest.raises(ConfigError) as one:
        load_settings(path)
    assert str(one.value) == f"{path}:4: languag: unknown key"
    path = write(
        tmp_path, VALID.replace("language: zh", "languag: zh").replace("source: git", "src: git")
    )
    with pytest.raises(ConfigError) as several:
        load_settings(path)
    assert str(several.value) == (
        f"{path}: languag: unknown key (line 4); repos.0.source: Field required (line 6);"
        " repos.0.src: unknown key (line 7)"
    )
    # Paths are checked after the file is read: the error still names it.
    path = write(tmp_path, VALID + "sql_models_dir: nowhere\n")
    with pytest.raises(ConfigError, match=re.escape(f"{path}: sql_models_dir: no such dir")):
        load_settings(path)


def test_missing_file_and_bad_yaml(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        load_settings(tmp_path / "nope.yaml")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_settings(write(tmp_path, "repos: [unclosed"))
    with pytest.raises(ConfigError, match="mapping"):
        load_settings(write(tmp_path, "- a list"))


def test_duplicate_repositories_are_rejected(tmp_path: Path) -> None:
    (tmp_path / "clone").mkdir()
    twice = VALID + VALID.split("repos:\n", 1)[1]
    with pytest.raises(ConfigError, match=r"repos: repository listed twice: verl-project/verl$"):
        load_settings(write(tmp_path, twice))
    # GitHub's names ignore case: one repository, which would be stored under two names.
    other_case = VALID + VALID.split("repos:\n", 1)[1].replace(
        "verl-project/verl", "Verl-Project/VERL"
    )
    with pytest.raises(
        ConfigError,
        match=r"repos: repository listed twice: verl-project/verl and Verl-Project/VERL \(GitHub's"
        r" repository names ignore case\)",
    ):
        load_settings(write(tmp_path, other_case))


@pytest.mark.parametrize(
    ("former", "message"),
    [
        ("[verl]", r":7: repos\.0\.former_names: 0: 'verl' is not a repository name"),
        ("[Verl-Project/VERL]", r":6: repos\.0: .*former_names lists verl-project/verl, the"),
        # Its weeks would be moved into the other repository's.
        ("[acme/other]", r"repos: verl-project/verl: former name acme/other is a configured"),
    ],
)
def test_a_former_name_must_name_another_repository_no_longer_configured(
    tmp_path: Path, former: str, message: str
) -> None:
    (tmp_path / "clone").mkdir()
    other = VALID.split("repos:\n", 1)[1].replace("verl-project/verl", "acme/other")
    text = VALID.replace(
        "  - name: verl-project/verl\n",
        f"  - name: verl-project/verl\n    former_names: {former}\n",
    )
    with pytest.raises(ConfigError, match=message):
        load_settings(write(tmp_path, text + other))


def test_a_former_name_is_claimed_by_one_repository(tmp_path: Path) -> None:
    (tmp_path / "clone").mkdir()
    entry = VALID.split("repos:\n", 1)[1].replace(
        "  - name: verl-project/verl\n", "  - name: verl-project/verl\n    former_names: [a/b]\n"
    )
    head = VALID.split("repos:\n", 1)[0] + "repos:\n"
    assert load_settings(write(tmp_path, head + entry)).repos[0].former_names == ["a/b"]
    with pytest.raises(
        ConfigError, match=r"repos: former name a/b is listed by verl-project/verl and x/verl"
    ):
        load_settings(write(tmp_path, head + entry + entry.replace("verl-project", "x")))


@pytest.mark.parametrize(
    ("start", "message"),
    [
        # YAML reads it as a timestamp, and PyYAML's date() raised a bare ValueError.
        ("2024-13-40", r":9: repos\.0\.start: '2024-13-40' is not a real date \(month must be in"),
        ("2024-02-30", r":9: repos\.0\.start: '2024-02-30' is not a real date \(day is out of"),
        # pydantic read the int as seconds since 1970, and a time as a datetime.
        ("20241028", r":9: repos\.0\.start: expected a date like 2024-10-28, got 20241028$"),
        (
            "2024-10-28 10:00",
            r":9: repos\.0\.start: expected a date like 2024-10-28, got '2024-10-28 10:00'$",
        ),
        ("'2024-10-28'", None),  # quoted, it is a string pydantic reads as the date
    ],
)
def test_a_start_that_is_not_a_date_is_named(
    tmp_path: Path, start: str, message: str | None
) -> None:
    (tmp_path / "clone").mkdir()
    path = write(tmp_path, VALID.replace("start: 2024-10-28", f"start: {start}"))
    if message is None:
        assert load_settings(path).repos[0].start.isoformat() == "2024-10-28"
        return
    with pytest.raises(ConfigError, match=re.escape(str(path)) + message):
        load_settings(path)


def test_a_file_that_is_not_utf8_names_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "prhub.yaml"
    path.write_bytes(b"\xff\xfe" + VALID.encode("utf-16-le"))
    with pytest.raises(ConfigError) as error:
        load_settings(path)
    assert str(error.value) == f"{path}: not UTF-8 text (byte 0xff at position 0, line 1)"
    path.write_bytes(VALID.encode() + "# café\n".encode("latin-1"))
    with pytest.raises(ConfigError, match=r"not UTF-8 text \(byte 0xe9 at position \d+, line 10\)"):
        load_settings(path)


def test_a_yaml_syntax_error_is_one_line_naming_the_file_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, VALID.replace("source: git", "source: [git"))
    with pytest.raises(ConfigError) as error:
        load_settings(path)
    assert str(error.value) == (
        f"{path}: not valid YAML at line 8, column 13: expected ',' or ']', but got ':'"
    )
    path.write_text("database: x\x00\n", encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_settings(path)
    assert str(error.value) == (
        f"{path}: not valid YAML at line 1: special characters are not allowed (character #x0000)"
    )


@pytest.mark.parametrize(
    ("replace", "by", "message"),
    [
        (
            "language: zh",
            "language: zh\nlanguage: en",
            r":5: language: key given twice, first on line 4$",
        ),
        (
            "    source: git",
            "    source: git\n    source: github",
            r":8: repos\.0\.source: key given twice, first on line 7$",
        ),
    ],
)
def test_a_key_given_twice_is_named_with_its_lines(
    tmp_path: Path, replace: str, by: str, message: str
) -> None:
    (tmp_path / "clone").mkdir()
    path = write(tmp_path, VALID.replace(replace, by))
    with pytest.raises(ConfigError, match=re.escape(str(path)) + message):
        load_settings(path)


def test_keys_beside_a_yaml_merge_override_it(tmp_path: Path) -> None:
    """`<<: *defaults` then the same key is YAML's way to override, not a key given twice."""
    (tmp_path / "clone").mkdir()
    text = VALID.replace(
        "repos:\n  - name: verl-project/verl\n",
        "repos:\n  - &verl {name: verl-project/verl, source: github, git_path: clone,"
        " start: 2024-10-28}\n  - <<: *verl\n    name: verl-project/other\n",
    )
    settings = load_settings(write(tmp_path, text))
    assert [(repo.name, repo.source) for repo in settings.repos] == [
        ("verl-project/verl", "github"),
        ("verl-project/other", "git"),
    ]


def test_config_lookup_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PRHUB_CONFIG", raising=False)
    assert find_config_path() == Path("prhub.yaml")
    monkeypatch.setenv("PRHUB_CONFIG", "/etc/from-env.yaml")
    assert find_config_path() == Path("/etc/from-env.yaml")
    assert find_config_path("explicit.yaml") == Path("explicit.yaml")


def test_shipped_sample_config_is_valid_and_shows_every_key() -> None:
    sample = Path(__file__).resolve().parents[1] / "prhub.example.yaml"
    text = sample.read_text(encoding="utf-8")
    assert "verl-project/verl" in text
    Settings.model_validate(yaml.safe_load(text))
    models = (Settings, RepoConfig, GitHubConfig, ModulesConfig, ScoringConfig, ThemeRule)
    missing = [
        f"{model.__name__}.{key}"
        for model in models
        for key in model.model_fields
        if not re.search(rf"(^|[\s{{,#]){key}:", text, re.MULTILINE)
    ]
    assert missing == []


def test_the_shipped_sample_config_shows_the_defaults_it_says_it_shows() -> None:
    """A user who copies the sample keeps the defaults: its scoring paths were once narrower
    (`test_paths` without `**/tests/**`), so more PRs were flagged for untested core code."""
    sample = Path(__file__).resolve().parents[1] / "prhub.example.yaml"
    settings = Settings.model_validate(yaml.safe_load(sample.read_text(encoding="utf-8")))
    git, github = settings.repos
    own = {"core_paths"}  # the repository's own: no default to show
    assert git.scoring.model_dump(exclude=own) == ScoringConfig().model_dump(exclude=own)
    assert github.github == GitHubConfig()
    counts = {"min_training_prs", "min_label_prs", "min_micro_f1", "keep_models"}
    assert git.modules.model_dump(include=counts) == ModulesConfig().model_dump(include=counts)
    assert github.modules.min_label_prs == ModulesConfig().min_label_prs
    top = {"timezone", "language", "reports_url", "sql_models_dir"}
    assert settings.model_dump(include=top) == Settings.model_construct().model_dump(include=top)


def test_a_module_display_name_is_given_for_every_language_or_per_language() -> None:
    config = ModulesConfig(display_names={"ckpt": "Checkpointing", "algo": {"zh": "算法"}})
    assert config.display_names_in("zh") == {"ckpt": "Checkpointing", "algo": "算法"}
    assert config.display_names_in("en") == {"ckpt": "Checkpointing"}


def test_a_display_name_matches_its_module_as_tags_do(tmp_path: Path) -> None:
    """`allowed: [Doc]` takes the tag `[doc]`, so `display_names: {doc: ...}` names it."""
    (tmp_path / "clone").mkdir()
    text = VALID.replace(
        "    start: 2024-10-28",
        "    start: 2024-10-28\n    modules: {allowed: [Doc], display_names: {doc: Documentation}}",
    )
    modules = load_settings(write(tmp_path, text)).repos[0].modules
    assert modules.display_names_in("en") == {"doc": "Documentation"}
    spelt = modules.model_copy(update={"display_names": {"Fully Async": "Async training"}})
    assert spelt.display_names_in("zh") == {"fully_async": "Async training"}


MODULES_AT = "    start: 2024-10-28"


@pytest.mark.parametrize(
    ("modules", "message"),
    [
        # tags.py sorted the aliases and took the last: `docs` became `ci`, silently.
        (
            "{allowed: [doc, ci], aliases: {Docs: doc, docs: ci}}",
            r"repos\.0\.modules\.aliases: 'Docs' \(to 'doc'\) and 'docs' \(to 'ci'\) are one tag"
            r" \(tags ignore case, spaces and dashes\) mapped to two modules; keep one",
        ),
        (
            "{aliases: {'Fully Async': async, fully-async: sync}}",
            r"repos\.0\.modules\.aliases: 'Fully Async' \(to 'async'\) and 'fully-async'",
        ),
        (
            "{allowed: [FSDP, fsdp, doc]}",
            r"repos\.0\.modules\.allowed: 'FSDP' and 'fsdp' are one module \(tags ignore case,"
            r" spaces and dashes\); list it once",
        ),
        (
            "{allowed: ['', ' ', fsdp]}",
            r"repos\.0\.modules\.allowed: entry 0 \(''\) is empty: name a module",
        ),
        (
            "{allowed: [fsdp, ' ']}",
            r"repos\.0\.modules\.allowed: entry 1 \(' '\) is empty: name a module",
        ),
        ("{aliases: {' ': doc}}", r"repos\.0\.modules\.aliases: ' ': 'doc': an alias and its"),
    ],
)
def test_modules_given_twice_or_empty_are_refused_naming_them(
    tmp_path: Path, modules: str, message: str
) -> None:
    (tmp_path / "clone").mkdir()
    text = VALID.replace(MODULES_AT, f"{MODULES_AT}\n    modules: {modules}")
    with pytest.raises(ConfigError, match=message):
        load_settings(write(tmp_path, text))


def test_one_alias_spelled_twice_to_one_module_is_kept(tmp_path: Path) -> None:
    (tmp_path / "clone").mkdir()
    text = VALID.replace(
        MODULES_AT, f"{MODULES_AT}\n    modules: {{aliases: {{Docs: doc, docs: doc}}}}"
    )
    assert load_settings(write(tmp_path, text)).repos[0].modules.aliases == {
        "Docs": "doc",
        "docs": "doc",
    }


@pytest.mark.parametrize(
    ("replace", "by", "key"),
    [
        ("database: data/prhub.duckdb", 'database: ""', "database"),
        ("language: zh", 'language: zh\nreports_dir: ""', "reports_dir"),
        ("language: zh", 'language: zh\nreports_dir: "  "', "reports_dir"),
        ("language: zh", 'language: zh\nsql_models_dir: ""', "sql_models_dir"),
        ("git_path: clone", 'git_path: ""', r"repos\.0\.git_path"),
    ],
)
def test_an_empty_path_is_refused_naming_its_key(
    tmp_path: Path, replace: str, by: str, key: str
) -> None:
    """An empty path was the config's own folder: `database: ""` failed later as "Is a
    directory", naming no key."""
    (tmp_path / "clone").mkdir()
    path = write(tmp_path, VALID.replace(replace, by))
    with pytest.raises(ConfigError, match=rf":\d+: {key}: is empty; name a path"):
        load_settings(path)


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (
            "scoring: {key_threshold: true}",
            r"repos\.0\.scoring\.key_threshold: expected a number, got true",
        ),
        ("scoring: {large_change_lines: true}", r"large_change_lines: expected a number, got true"),
        (
            "scoring: {large_change_lines: false}",
            r"large_change_lines: expected a number, got false",
        ),
        ("modules: {min_micro_f1: .nan}", r"min_micro_f1: expected a finite number, got nan"),
        ("scoring: {key_threshold: .inf}", r"key_threshold: expected a finite number, got inf"),
        (
            "github: {timeout_seconds: -.inf}",
            r"timeout_seconds: expected a finite number, got -inf",
        ),
        ("github: {max_retries: true}", r"max_retries: expected a number, got true"),
        (
            "themes: [{name: CI, paths: [ci/**], min_path_share: .NaN}]",
            r"min_path_share: expected a finite",
        ),
    ],
)
def test_a_boolean_or_nan_is_no_number(tmp_path: Path, setting: str, message: str) -> None:
    """`key_threshold: true` was 1, and `.nan` failed as "greater than or equal to 0"."""
    (tmp_path / "clone").mkdir()
    text = VALID.replace(MODULES_AT, f"{MODULES_AT}\n    {setting}")
    with pytest.raises(ConfigError, match=message):
        load_settings(write(tmp_path, text))


def test_numbers_written_as_numbers_are_kept(tmp_path: Path) -> None:
    (tmp_path / "clone").mkdir()
    text = VALID.replace(
        MODULES_AT,
        f"{MODULES_AT}\n    scoring: {{key_threshold: 6, large_change_lines: 800}}"
        "\n    modules: {min_micro_f1: 0.5, keep_models: 3}",
    )
    repo = load_settings(write(tmp_path, text)).repos[0]
    assert (repo.scoring.key_threshold, repo.scoring.large_change_lines) == (6.0, 800)
    assert (repo.modules.min_micro_f1, repo.modules.keep_models) == (0.5, 3)
    assert repo.start.isoformat() == "2024-10-28"


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (
            "scoring: {test_paths: ['[tests']}",
            r"repos\.0\.scoring\.test_paths: '\[tests': the `\[` at position 1 opens a"
            r" character class that never closes",
        ),
        (
            "scoring: {core_paths: ['src/*.{c,h}']}",
            r"repos\.0\.scoring\.core_paths: 'src/\*\.\{c,h\}': `\{a,b\}` alternatives are not",
        ),
        (
            "scoring: {doc_paths: ['[z-a]*']}",
            r"doc_paths: '\[z-a\]\*': not a valid character class",
        ),
        ("scoring: {doc_paths: ['  ']}", r"doc_paths: an empty pattern matches nothing"),
        (
            "scoring: {doc_paths: ['[[:alpha:]]*.md']}",
            r"doc_paths: '\[\[:alpha:\]\]\*\.md': POSIX classes like",
        ),
        (
            "scoring: {doc_paths: ['src/[a[:digit:]]x']}",
            r"doc_paths: 'src/\[a\[:digit:\]\]x': POSIX classes like",
        ),
        (
            "themes: [{name: CI, paths: ['ci/[abc']}]",
            r"repos\.0\.themes\.0\.paths: 'ci/\[abc': the `\[` at position 4",
        ),
        (
            "themes: [{name: CI, paths: [ci/**], except_paths: ['ci/*.{py,sh}']}]",
            r"repos\.0\.themes\.0\.except_paths: 'ci/\*\.\{py,sh\}'",
        ),
    ],
)
def test_a_glob_that_cannot_match_as_meant_is_refused(
    tmp_path: Path, setting: str, message: str
) -> None:
    """`[` was matched as itself: `[tests` was accepted, and `*.[ch]` matched no file."""
    (tmp_path / "clone").mkdir()
    text = VALID.replace(MODULES_AT, f"{MODULES_AT}\n    {setting}")
    with pytest.raises(ConfigError, match=message):
        load_settings(write(tmp_path, text))


@pytest.mark.parametrize(
    ("pattern", "matching", "not_matching"),
    [
        ("*.[ch]", ["a.c", "src/lib/a.h"], ["a.cc", "a.py", "a.[ch]"]),
        ("csrc/[a-c]*.cu", ["csrc/attn.cu", "csrc/conv.cu"], ["csrc/gemm.cu", "x/csrc/a.cu"]),
        ("[!_]*.py", ["ops.py", "x/ops.py"], ["_private.py", "x/_p.py"]),
        ("a[/]b", [], ["a/b"]),  # a class, like `?`, never matches the `/` between folders
        ("v[]x]", ["v]", "vx"], ["v"]),  # a `]` first in the class is one of its characters
        ("a[&&]b", ["a&b"], ["ab", "a&&b"]),  # no set operation, no warning
    ],
)
def test_a_glob_character_class_matches_one_of_its_characters(
    pattern: str, matching: list[str], not_matching: list[str]
) -> None:
    from prhub_pipeline.paths import check_glob, matches_any

    assert check_glob(pattern) == pattern
    assert [path for path in matching if not matches_any(path, [pattern])] == []
    assert [path for path in not_matching if matches_any(path, [pattern])] == []


def test_a_check_of_several_keys_gives_the_line_of_the_key_it_names(tmp_path: Path) -> None:
    (tmp_path / "clone").mkdir()
    text = VALID.replace(
        MODULES_AT,
        f"{MODULES_AT}\n    modules:\n      allowed: [doc]\n      aliases: {{docs: dcos}}",
    )
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as error:
        load_settings(path)
    assert str(error.value).startswith(
        f"{path}:12: repos.0.modules: aliases: 'docs' maps to 'dcos', which is not one"
    )
