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
            "git_path: missing",
            r"repos\.0\.git_path: no such directory .*\(clone the repository there first: git"
            r" clone --bare https://github\.com/",
        ),
        ("git_path: clone", "git_path: afile", r"repos\.0\.git_path: .*afile is not a directory"),
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
        (
            "start: 2024-10-28",
            "start: 2024-10-29",
            r"repos\.0\.start: 2024-10-29 is a Tuesday; .* \(that week's: 2024-10-28\)",
        ),
        ("source: git", "source: svn", r"repos\.0\.source"),
        ("    git_path: clone\n", "", r"repos\.0: git_path is required when source is git"),
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
            "    start: 2024-10-28\n    modules: {display_names: {algo: {fr: Algorithmes}}}",
            r"repos\.0\.modules\.display_names\.algo",
        ),
    ],
)
def test_bad_config_names_the_key(tmp_path: Path, replace: str, by: str, message: str) -> None:
    (tmp_path / "clone").mkdir()
    (tmp_path / "afile").write_text("not a clone", encoding="utf-8")
    assert replace in VALID
    with pytest.raises(ConfigError, match=message):
        load_settings(write(tmp_path, VALID.replace(replace, by)))


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
    with pytest.raises(ConfigError, match="listed twice: verl-project/verl"):
        load_settings(write(tmp_path, twice))


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


def test_a_module_display_name_is_given_for_every_language_or_per_language() -> None:
    config = ModulesConfig(display_names={"ckpt": "Checkpointing", "algo": {"zh": "算法"}})
    assert config.display_names_in("zh") == {"ckpt": "Checkpointing", "algo": "算法"}
    assert config.display_names_in("en") == {"ckpt": "Checkpointing"}
