from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from prhub_pipeline.config import ModulesConfig
from prhub_pipeline.modelling.tagging.evaluation import (
    ConfidentScore,
    EvaluationError,
    confident_scores,
    evaluate_files,
    load_modules_config,
    score_predictions,
)
from prhub_pipeline.modelling.tagging.pr_records import (
    PrRecordError,
    pr_from_json,
    read_pr_records,
    write_pr_records,
)
from prhub_pipeline.records import FileChange, PullRequest
from prhub_pipeline_tests.module_fixtures import synthetic_history

VERL_PRS = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "verl" / "prs.jsonl"


def _line(pr: PullRequest) -> str:
    """A record in the schema of verl's prs.jsonl."""
    return json.dumps(
        {
            "repo": pr.repo,
            "number": pr.number,
            "title": pr.title,
            "body": pr.body,
            "author": "someone",
            "co_authors": [],
            "merged_at": pr.merged_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "merged_at_local": pr.merged_at.isoformat(),
            "merge_commit_sha": "0" * 40,
            "additions": 3,
            "deletions": 1,
            "changed_files": len(pr.files),
            "files": [
                {"path": f.path, "additions": None, "deletions": None, "status": "added"}
                for f in pr.files
            ],
        }
    )


def write_records(path: Path, prs: Sequence[PullRequest], extra: tuple[str, ...] = ()) -> Path:
    path.write_text("\n".join([*extra, *(_line(pr) for pr in prs)]) + "\n", encoding="utf-8")
    return path


def test_evaluate_learns_labels_and_writes_predictions(tmp_path: Path) -> None:
    history = synthetic_history(200)
    direct_commit = json.dumps({**json.loads(_line(history[0])), "number": None})
    train = write_records(tmp_path / "train.jsonl", history[:150], extra=(direct_commit,))
    test = write_records(tmp_path / "test.jsonl", history[150:])
    out = tmp_path / "predictions.jsonl"
    report = evaluate_files(train, test, None, out)
    assert report.status == "trained"
    assert (report.train_skipped_without_number, report.test_skipped_without_number) == (1, 0)
    assert report.warnings == []
    assert report.labels == ["ci", "doc", "megatron", "rollout"]
    assert report.micro_f1 is not None and report.micro_f1 > 0.8
    assert report.macro_f1 is not None and set(report.macro_labels) == set(report.labels)
    # The synthetic PRs say their module in their paths: most are matched exactly.
    assert report.exact_match is not None and report.exact_match > 0.7
    assert report.samples_f1 is not None and report.samples_f1 > 0.8
    assert report.per_label["ci"].train_examples >= 10
    assert report.train_seconds > 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 50
    assert set(lines[0]) == {"number", "predicted", "scores"}
    assert set(lines[0]["scores"]) == set(report.labels)
    assert json.loads(report.model_dump_json())["micro_f1"] == report.micro_f1


def test_evaluate_reads_other_spellings_of_a_learned_label_as_it(tmp_path: Path) -> None:
    history = [
        pr.model_copy(update={"title": pr.title.replace("[doc", "[docs")}) if pr.number % 5 else pr
        for pr in synthetic_history(200)
    ]
    train = write_records(tmp_path / "train.jsonl", history[:150])
    test = write_records(tmp_path / "test.jsonl", history[150:])
    report = evaluate_files(train, test, None, None)
    assert report.labels == ["ci", "docs", "megatron", "rollout"]
    assert report.label_aliases == {"doc": "docs"}
    assert report.test_unknown_tags == {}
    assert report.per_label["docs"].test_examples == sum("[doc" in pr.title for pr in history[150:])


def test_too_few_training_prs_reports_a_status_and_misses_every_module(tmp_path: Path) -> None:
    """No model predicts nothing: the scores say so (0.0), and the predictions file is written
    all the same, so an older one is not read as this run's."""
    history = synthetic_history(40)
    train = write_records(tmp_path / "train.jsonl", history[:20])
    test = write_records(tmp_path / "test.jsonl", history[20:])
    out = tmp_path / "predictions.jsonl"
    out.write_text('{"number": 1, "predicted": ["stale"], "scores": {}}\n', encoding="utf-8")
    report = evaluate_files(train, test, ModulesConfig(min_training_prs=30), out)
    assert report.status == "insufficient_training_data"
    assert report.micro_f1 == 0.0 and report.exact_match == 0.0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [line["number"] for line in lines] == [pr.number for pr in history[20:]]
    assert all(line["predicted"] == [] and line["scores"] == {} for line in lines)


def test_a_test_tag_the_model_has_no_label_for_is_missed(tmp_path: Path) -> None:
    """Without a module list every test tag is a module, as `module_labels` takes them: one
    new since training (or too rare in it to learn) is a miss, not a PR left out. Another
    spelling of a label is that label."""
    history = synthetic_history(200)
    train = write_records(tmp_path / "train.jsonl", history[:150])
    later = history[150:]
    renamed = [
        pr.model_copy(update={"title": "[telemetry] feat: export counters"}) if i < 5 else pr
        for i, pr in enumerate(later)
    ]
    respelt = [
        pr.model_copy(update={"title": pr.title.replace("[doc]", "[docs]")}) for pr in renamed
    ]
    test = write_records(tmp_path / "test.jsonl", respelt)
    report = evaluate_files(train, test, None, None)
    assert report.test_tagged == 50
    assert report.test_unseen_labels == {"telemetry": 5}
    assert report.per_label["telemetry"].recall == 0.0
    assert report.per_label["telemetry"].test_examples == 5
    assert "docs" not in report.per_label and report.per_label["doc"].test_examples > 0
    # With a module list, a tag outside it is no module: unknown, and not scored.
    listed = evaluate_files(
        train,
        test,
        ModulesConfig(allowed=["ci", "doc", "megatron", "rollout"], aliases={"docs": "doc"}),
        None,
    )
    assert listed.test_tagged == 45 and listed.test_unknown_tags == {"telemetry": 5}


def test_a_byte_order_mark_is_no_part_of_the_first_record(tmp_path: Path) -> None:
    history = synthetic_history(3)
    path = tmp_path / "bom.jsonl"
    path.write_text("\r\n".join(_line(pr) for pr in history) + "\r\n", encoding="utf-8-sig")
    assert [pr.number for pr in read_pr_records(path).prs] == [pr.number for pr in history]


def test_overlapping_files_and_repeated_numbers_are_warned_of(tmp_path: Path) -> None:
    history = synthetic_history(200)
    train = write_records(tmp_path / "train.jsonl", history[:150])
    test = write_records(tmp_path / "test.jsonl", [*history[148:], history[199]])
    report = evaluate_files(train, test, None, None)
    assert report.warnings == [
        "2 test PR number(s) are in the training file too"
        f" (#{history[148].number}, #{history[149].number}):"
        " the scores overstate how the model does on new PRs",
        f"1 PR number(s) occur more than once in the test file (#{history[199].number}):"
        " each occurrence is scored and has its own predictions line",
    ]


def test_labels_are_named_as_the_model_and_scores_name_them(tmp_path: Path) -> None:
    history = synthetic_history(200)
    train = write_records(tmp_path / "train.jsonl", history[:150])
    test = write_records(tmp_path / "test.jsonl", history[150:])
    config = ModulesConfig(allowed=["CI", "Doc", "Megatron", "Rollout"])
    report = evaluate_files(train, test, config, None)
    assert report.labels == ["ci", "doc", "megatron", "rollout"]
    assert set(report.per_label) <= set(report.labels)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r"bad\.jsonl:2: not valid JSON"),
        ('{"number": 3, "title": "x"}', r"bad\.jsonl:2: PR #3: .*repo"),
        ('{"repo": "a/b", "number": 3, "title": "x", "merged_at": "yesterday"}', r"merged_at"),
        (
            '{"repo": "a/b", "number": 3, "title": "x", "merged_at": "2026-01-01T00:00:00Z",'
            ' "files": [{"additions": 1}]}',
            r"bad\.jsonl:2: PR #3: files\.0\.path: Field required$",
        ),
        (
            '{"repo": "a/b", "number": 3, "title": "x", "merged_at": "2026-01-01T00:00:00Z",'
            ' "files": ["a.py"]}',
            r"bad\.jsonl:2: PR #3: files\.0: expected an object with a path, got 'a\.py'$",
        ),
        ("[1, 2]", r"bad\.jsonl:2: invalid PR record: expected a JSON object"),
        # `true` was PR #1, "12" PR #12, and 10**30 failed the warehouse's INTEGER later.
        *(
            (
                f'{{"repo": "a/b", "number": {number}, "title": "x",'
                ' "merged_at": "2026-01-01T00:00:00Z"}',
                rf"bad\.jsonl:2: (?:invalid PR record|PR #\d+): number: {reason}",
            )
            for number, reason in (
                ("true", "Input should be a valid integer"),
                ('"12"', "Input should be a valid integer"),
                (str(10**30), "Input should be less than 2147483648"),
            )
        ),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    good = _line(synthetic_history(1)[0])
    path = tmp_path / "bad.jsonl"
    path.write_text(f"{good}\n{line}\n", encoding="utf-8")
    with pytest.raises(PrRecordError, match=message):
        read_pr_records(path)


def test_a_byte_that_is_not_utf8_names_file_line_and_byte(tmp_path: Path) -> None:
    good = _line(synthetic_history(1)[0])
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(f"{good}\n{good}\n".encode() + '{"title": "café"}\n'.encode("latin-1"))
    position = 2 * (len(good) + 1) + len('{"title": "caf')
    with pytest.raises(PrRecordError) as error:
        read_pr_records(path)
    assert str(error.value) == f"{path}:3: not UTF-8 text (byte 0xe9 at position {position})"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"test\.jsonl: no PR records$"),
        ("\n  \n", r"test\.jsonl: no PR records$"),
        ('{"number": null}\n{"number": null}\n', r"test\.jsonl: no PR records \(2 without a PR"),
    ],
)
def test_a_file_without_pr_records_is_an_error_naming_it(
    tmp_path: Path, text: str, message: str
) -> None:
    """Not a crash inside scikit-learn after training (test), nor a silent untrained report."""
    records = write_records(tmp_path / "records.jsonl", synthetic_history(60))
    empty = tmp_path / "test.jsonl"
    empty.write_text(text, encoding="utf-8")
    with pytest.raises(EvaluationError, match=message):
        evaluate_files(records, empty, None, None)
    with pytest.raises(EvaluationError, match=message):
        evaluate_files(empty, records, None, None)


def test_a_test_file_without_tagged_prs_scores_nothing(tmp_path: Path) -> None:
    """No tagged test PR: the scores are null, not a perfect miss (0.0)."""
    history = synthetic_history(200)
    train = write_records(tmp_path / "train.jsonl", history[:150])
    untagged = [pr.model_copy(update={"title": "no tag here"}) for pr in history[150:]]
    test = write_records(tmp_path / "test.jsonl", untagged)
    report = evaluate_files(train, test, None, None)
    assert report.status == "trained" and report.test_prs == 50 and report.test_tagged == 0
    assert (report.micro_f1, report.macro_f1, report.samples_f1, report.exact_match) == (
        None,
        None,
        None,
        None,
    )
    # rc 0 and nothing scored said nothing: the wrong file, or one whose PRs carry no tag.
    assert report.warnings == [f"no PR of {test} carries a tag: nothing is scored"]
    untagged_train = write_records(tmp_path / "untagged_train.jsonl", untagged)
    report = evaluate_files(untagged_train, train, None, None)
    assert report.warnings[0] == f"no PR of {untagged_train} carries a tag: nothing is learned"
    with pytest.raises(EvaluationError, match=r"missing/p\.jsonl: cannot write predictions"):
        evaluate_files(train, test, None, tmp_path / "missing" / "p.jsonl")


def test_json_record_becomes_a_pull_request() -> None:
    record = json.loads(_line(synthetic_history(1)[0]))
    pr = pr_from_json(record)
    assert pr is not None and pr.repo == "acme/rl" and pr.merged_at.tzinfo is not None
    assert pr.files[0].additions is None


@pytest.mark.parametrize(
    "labels",
    [
        ["area/rollout", "bug"],
        [{"id": 7, "name": "area/rollout", "color": "ededed"}, {"name": "bug"}],
        {"nodes": [{"name": "area/rollout"}, {"name": "bug"}]},
    ],
)
def test_labels_may_be_names_or_githubs_label_objects(labels: object) -> None:
    record = json.loads(_line(synthetic_history(1)[0]))
    record["labels"] = labels
    pr = pr_from_json(record)
    assert pr is not None and pr.labels == ["area/rollout", "bug"]


def test_people_may_be_githubs_user_objects() -> None:
    record = json.loads(_line(synthetic_history(1)[0]))
    record["author"] = {"login": "octocat", "id": 1}
    record["co_authors"] = [{"name": "Mona Lisa", "email": "<email>"}, "Hubot"]
    pr = pr_from_json(record)
    assert pr is not None and pr.author == "octocat" and pr.co_authors == ["Mona Lisa", "Hubot"]


def test_a_label_without_a_name_is_an_error_naming_it(tmp_path: Path) -> None:
    record = json.loads(_line(synthetic_history(1)[0]))
    record["labels"] = [{"id": 7}]
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(PrRecordError, match=r"bad\.jsonl:1: PR #\d+: labels\.0"):
        read_pr_records(path)


def test_written_records_read_back_equal(tmp_path: Path) -> None:
    prs = synthetic_history(6)
    renamed = prs[0].model_copy(
        update={
            "files": [
                FileChange(path="new/a.py", status="renamed", previous_path="old/a.py"),
                FileChange(path="logo.png", status="added"),  # binary: no line counts
            ],
            "co_authors": ["Someone Else"],
        }
    )
    prs = [*prs[1:], renamed]
    assert write_pr_records(tmp_path / "prs.jsonl", prs) == 6
    back = read_pr_records(tmp_path / "prs.jsonl").prs
    assert back == sorted(prs, key=lambda pr: (pr.merged_at, pr.number))
    assert '"merged_at": "' in (tmp_path / "prs.jsonl").read_text(encoding="utf-8")


def test_a_description_with_unicode_line_breaks_is_one_record(tmp_path: Path) -> None:
    """JSON strings may hold U+2028, U+0085 and other breaks raw (a pytorch/ao description
    does); a JSON-lines file ends its lines at "\n" alone."""
    pr = synthetic_history(1)[0].model_copy(update={"body": "one\u2028two\x85three\x0cfour"})
    path = tmp_path / "prs.jsonl"
    assert write_pr_records(path, [pr]) == 1
    assert "\u2028" in path.read_text(encoding="utf-8")  # written raw
    (read,) = read_pr_records(path).prs
    # Control characters that break a line read as "\n" (records.printable).
    assert read == pr.model_copy(update={"body": "one\u2028two\nthree\nfour"})


def test_repo_config_file(tmp_path: Path) -> None:
    path = tmp_path / "modules.yaml"
    path.write_text("allowed: [fsdp, doc]\naliases: {docs: doc}\n", encoding="utf-8")
    assert load_modules_config(path) == ModulesConfig(
        allowed=["fsdp", "doc"], aliases={"docs": "doc"}
    )
    path.write_text("allowed: [fsdp]\nalias: {docs: doc}\n", encoding="utf-8")
    with pytest.raises(EvaluationError, match=r"modules\.yaml:2: alias: unknown key"):
        load_modules_config(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfea\x00", r"modules\.yaml: not UTF-8 text \(byte 0xff at position 0, line 1\)$"),
        (
            b"allowed: [fsdp\naliases: {}\n",
            r"modules\.yaml: not valid YAML at line 2, column 8: expected ',' or ']', but got ':'$",
        ),
        (b"allowed: [fsdp]\nallowed: [doc]\n", r"modules\.yaml:2: allowed: key given twice"),
        (
            b"repos:\n  - name: a/b\n    start: 2024-13-40\n    modules: {allowed: [ci]}\n",
            r"modules\.yaml:3: repos\.0\.start: '2024-13-40' is not a real date \(month must be",
        ),
        # Only the modules are read, but a key a settings file cannot have is still named.
        (
            b"repos:\n  - name: a/b\n    colour: red\n    modules: {allowed: [ci]}\n",
            r"modules\.yaml: repos\.0\.colour: unknown key$",
        ),
        (b"databse: x\nrepos:\n  - name: a/b\n", r"modules\.yaml: databse: unknown key$"),
        (b"name: a/b\nsoruce: git\nmodules: {}\n", r"modules\.yaml: soruce: unknown key$"),
    ],
)
def test_a_bad_repo_config_file_is_named_with_the_place(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "modules.yaml"
    path.write_bytes(content)
    with pytest.raises(EvaluationError, match=message):
        load_modules_config(path)


def test_repo_config_may_be_a_settings_file_or_a_repositorys_entry(tmp_path: Path) -> None:
    """`--repo-config prhub.yaml` reads the one configured repository's modules."""
    entry = (
        "  - name: acme/widgets\n    source: git\n    start: 2026-01-05\n"
        "    modules: {allowed: [fsdp, doc], aliases: {docs: doc}}\n"
    )
    settings = tmp_path / "prhub.yaml"
    settings.write_text(f"database: x.duckdb\nrepos:\n{entry}", encoding="utf-8")
    expected = ModulesConfig(allowed=["fsdp", "doc"], aliases={"docs": "doc"})
    assert load_modules_config(settings) == expected
    one = tmp_path / "repo.yaml"
    one.write_text("\n".join(line[4:] for line in entry.splitlines()) + "\n", encoding="utf-8")
    assert load_modules_config(one) == expected
    one.write_text("name: acme/widgets\nsource: git\nmodules:\n", encoding="utf-8")
    assert load_modules_config(one) == ModulesConfig()
    one.write_text("name: acme/widgets\nsource: git\nstart: 2026-01-05\n", encoding="utf-8")
    assert load_modules_config(one) == ModulesConfig()
    settings.write_text(
        f"repos:\n{entry}{entry.replace('acme/widgets', 'acme/gadgets')}", encoding="utf-8"
    )
    with pytest.raises(
        EvaluationError,
        match=r"prhub\.yaml: configures 2 repositories \(acme/widgets, acme/gadgets\)",
    ):
        load_modules_config(settings)


@pytest.mark.skipif(not VERL_PRS.is_file(), reason="verl's prs.jsonl (../shared/data) is absent")
def test_real_verl_history_parses() -> None:
    records = read_pr_records(VERL_PRS)
    assert len(records.prs) > 2000
    assert records.skipped_without_number > 0


def test_score_predictions_by_hand() -> None:
    """Four tagged test PRs and one untagged: a tag no training PR had counts as missed, and
    macro averages only the labels with 10 training PRs and a test PR."""
    train = [["fsdp"]] * 10 + [["ci"]] * 10 + [["doc"]] * 3
    test = [["fsdp"], ["fsdp", "ci"], ["doc"], ["rocm"], []]
    predicted = [["fsdp"], ["fsdp"], ["ci"], ["fsdp"], ["fsdp"]]
    scores = score_predictions(train, test, predicted, ["ci", "doc", "fsdp"])
    # 2 true positives; 4 predicted (the untagged PR is not scored); 5 true tags.
    assert scores.micro_f1 == round(2 * 2 / (4 + 5), 4)
    assert (scores.micro_precision, scores.micro_recall) == (0.5, 0.4)
    assert scores.macro_labels == ["ci", "fsdp"]  # doc has 3 training PRs, rocm none
    fsdp_f1 = 2 * 2 / (3 + 2)
    assert scores.macro_f1 == round((0.0 + fsdp_f1) / 2, 4)
    assert scores.exact_match == 0.25
    assert scores.samples_f1 == round((1 + 2 / 3 + 0 + 0) / 4, 4)
    assert scores.per_label["rocm"].recall == 0.0 and scores.per_label["rocm"].train_examples == 0
    assert scores.per_label["fsdp"].precision == round(2 / 3, 4)


def test_confident_scores_by_hand() -> None:
    """Only the predictions at or over each bar count: a repository whose tags are too few
    for its model to label every PR might still show its surest modules (llm-compressor)."""
    test = [["fsdp"], ["ci"], ["doc"], []]
    predicted = [["fsdp"], ["fsdp", "ci"], ["fsdp"], ["ci"]]
    # Columns: ci, doc, fsdp.
    probabilities = np.array(
        [[0.1, 0.0, 0.95], [0.6, 0.0, 0.75], [0.0, 0.1, 0.55], [0.8, 0.0, 0.1]]
    )
    scores = confident_scores(test, predicted, probabilities, ["ci", "doc", "fsdp"])
    assert scores["0.5"] == ConfidentScore(predicted=4, precision=0.5, untagged_prs_labelled=1)
    assert scores["0.7"] == ConfidentScore(predicted=2, precision=0.5, untagged_prs_labelled=1)
    assert scores["0.9"] == ConfidentScore(predicted=1, precision=1.0, untagged_prs_labelled=0)
    assert confident_scores([[]], [[]], np.zeros((1, 0)), [])["0.5"].precision is None


def test_score_predictions_without_a_tagged_test_pr_are_null() -> None:
    scores = score_predictions([["fsdp"]] * 10, [[], []], [["fsdp"], []], ["fsdp"])
    assert (scores.micro_f1, scores.macro_f1, scores.samples_f1, scores.exact_match) == (
        None,
        None,
        None,
        None,
    )
    assert (scores.micro_precision, scores.micro_recall) == (None, None)
    assert scores.per_label == {}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        # pydantic's "Value error, " prefix was kept, and no line was given.
        (
            "allowed: [doc, ci]\naliases:\n  Docs: doc\n  docs: ci\n",
            r"modules\.yaml:2: aliases: 'Docs' \(to 'doc'\) and 'docs' \(to 'ci'\) are one tag",
        ),
        (
            "allowed: [FSDP, fsdp]\n",
            r"modules\.yaml:1: allowed: 'FSDP' and 'fsdp' are one module",
        ),
        (
            "# modules\nallowed: [doc]\naliases: {docs: dcos}\n",
            r"modules\.yaml:3: aliases: 'docs' maps to 'dcos', which is not one of the allowed",
        ),
        # Keys inside a settings file are named, and found, where they are in it.
        (
            "database: x.duckdb\nrepos:\n  - name: a/b\n    modules:\n      min_label_prs: true\n",
            r"modules\.yaml:5: repos\.0\.modules\.min_label_prs: expected a number, got true$",
        ),
        (
            "name: a/b\nsource: git\nmodules:\n  allowed: [doc]\n  keep_models: 0\n",
            r"modules\.yaml:5: modules\.keep_models: Input should be greater than or equal to 1$",
        ),
    ],
)
def test_a_repo_config_error_reads_like_prhub_yamls(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "modules.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(EvaluationError, match=message) as error:
        load_modules_config(path)
    assert "Value error" not in str(error.value)
