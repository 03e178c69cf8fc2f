"""`prhub classifier evaluate`: train on one file of PR records, measure on another.

Labels come from the titles' prefixes (through the repository config when given; otherwise
the label set is the tags the training file uses at least `min_label_prs` times). Only test
PRs that carry a tag are scored. A configured module list decides which tags are modules;
without one every tag is (as `module_labels` takes a repository's own tags), so a test tag
the model has no label for, new or too rare in training, counts as missed. Macro-F1
averages the labels with at least 10 training examples and one test example.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from prhub_pipeline.config import (
    ConfigError,
    ModulesConfig,
    RepoConfig,
    Settings,
    describe_config_error,
    load_yaml_document,
    normalise_tag,
)
from prhub_pipeline.modelling.tagging.classifier import (
    MACRO_MIN_TRAINING_EXAMPLES,
    TrainingMetrics,
    label_f1,
    micro_f1,
    train_module_classifier,
)
from prhub_pipeline.modelling.tagging.features import pr_features
from prhub_pipeline.modelling.tagging.pr_records import read_pr_records
from prhub_pipeline.modelling.tagging.tags import (
    GroundTruth,
    ground_truth,
    learn_modules_config,
    spelling_key,
    split_joined_labels,
)
from prhub_pipeline.records import PullRequest


class EvaluationError(ValueError):
    """An input of the evaluation (records file, repository config) is unusable."""


class LabelScore(BaseModel):
    model_config = ConfigDict(frozen=True)

    f1: float
    precision: float
    recall: float
    train_examples: int
    test_examples: int


class ConfidentScore(BaseModel):
    """The predictions whose probability reaches a bar: their precision on the tagged test
    PRs, and how many untagged test PRs they would label."""

    model_config = ConfigDict(frozen=True)

    predicted: int  # modules predicted for tagged test PRs at or over the bar
    precision: float | None  # None when none was
    untagged_prs_labelled: int


# The bars `confident_scores` reads: would labelling only the model's surest predictions be
# precise enough where a repository tags too few PRs to label them all (llm-compressor: 0.70
# micro precision over all its predictions, 0.89 and 1.0 over those of 0.5 or more). It is
# measured on tagged PRs: where the tags are a kind of PR, not a sample, it overstates the
# untagged ones' (slime: 0.93 at 0.9, yet its loss fixes were guessed as `ci`).
CONFIDENCE_BARS = (0.5, 0.7, 0.9)


class EvaluationReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    status: str  # "trained" or "insufficient_training_data"
    message: str
    train_file: str
    test_file: str
    train_prs: int
    train_tagged: int
    test_prs: int
    test_tagged: int  # the test PRs scored: those with at least one valid tag
    train_skipped_without_number: int
    test_skipped_without_number: int
    labels: list[str]  # the label set (configured, or learned from the training file)
    label_aliases: dict[str, str] = Field(default_factory=dict)  # other spellings of labels
    micro_f1: float | None = None
    # A report shows a module to readers who trust it: how many predicted modules are the
    # PR's own tag matters more than how many tags were found (llm-compressor's review).
    micro_precision: float | None = None
    micro_recall: float | None = None
    macro_f1: float | None = None
    macro_labels: list[str] = Field(default_factory=list)
    samples_f1: float | None = None
    exact_match: float | None = None
    per_label: dict[str, LabelScore] = Field(default_factory=dict)
    by_confidence: dict[str, ConfidentScore] = Field(default_factory=dict)  # see CONFIDENCE_BARS
    train_seconds: float
    model_version: str | None = None
    training: TrainingMetrics
    # Test tags that are no module (outside a configured list, or naming the repository).
    test_unknown_tags: dict[str, int] = Field(default_factory=dict)
    # Test PRs' modules outside the label set, each test PR's a miss: new since training, or
    # too rare in it to learn.
    test_unseen_labels: dict[str, int] = Field(default_factory=dict)
    # What a grader would want to know of the two files: test PRs in the training file too,
    # PR numbers given twice.
    warnings: list[str] = Field(default_factory=list)


def load_modules_config(path: Path) -> ModulesConfig:
    """A repository config file: YAML with ModulesConfig's keys (allowed, aliases, ...), or
    one repository's entry of a settings file (its `modules`), or a settings file (prhub.yaml)
    that configures one repository."""
    try:
        raw, document = load_yaml_document(path)
    except ConfigError as exc:
        raise EvaluationError(str(exc)) from None
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise EvaluationError(f"{path}: expected a mapping with keys such as allowed, aliases")
    section, at = _modules_section(path, raw)
    try:
        return ModulesConfig.model_validate(section)
    except ValidationError as exc:
        # As prhub.yaml's errors read: the key where it is in the file, and its line.
        raise EvaluationError(describe_config_error(path, exc, document, at)) from None


def _modules_section(path: Path, raw: dict[str, Any]) -> tuple[Any, tuple[int | str, ...]]:
    """The ModulesConfig keys of a config file that may be a settings file or a repository's
    entry in one, and where in the file they are."""
    repos = raw.get("repos")
    if isinstance(repos, list):
        entries = [entry for entry in repos if isinstance(entry, dict)]
        if len(entries) != 1:
            names = ", ".join(str(entry.get("name")) for entry in entries) or "none"
            raise EvaluationError(
                f"{path}: configures {len(entries)} repositories ({names}); give a file with"
                " one repository's modules (allowed, aliases, ...)"
            )
        _known_keys(path, raw, set(Settings.model_fields), "")
        _known_keys(
            path, entries[0], set(RepoConfig.model_fields), f"repos.{repos.index(entries[0])}."
        )
        return entries[0].get("modules") or {}, ("repos", repos.index(entries[0]), "modules")
    if "modules" in raw or {"name", "source"} <= raw.keys():  # a repository's entry
        _known_keys(path, raw, set(RepoConfig.model_fields), "")
        return raw.get("modules") or {}, ("modules",)
    return raw, ()


def _known_keys(path: Path, section: dict[str, Any], known: set[str], where: str) -> None:
    """Only the modules are read from a settings file, but a key the settings do not have is
    a mistake there too (`colour: red`), as prhub.yaml's own validation would say."""
    unknown = sorted(str(key) for key in section if key not in known)
    if unknown:
        raise EvaluationError(f"{path}: {where}{unknown[0]}: unknown key")


def _samples_f1(truth: np.ndarray, predicted: np.ndarray) -> float:
    overlap = (truth & predicted).sum(axis=1)
    sizes = truth.sum(axis=1) + predicted.sum(axis=1)
    per_pr = np.divide(2 * overlap, sizes, out=np.zeros(len(truth)), where=sizes > 0)
    return float(per_pr.mean())


def evaluate_files(
    train: Path,
    test: Path,
    repo_config: ModulesConfig | None,
    predictions: Path | None,
) -> EvaluationReport:
    """Train on `train`, score on `test`; optionally write one JSON line per test PR."""
    train_records = read_pr_records(train)
    test_records = read_pr_records(test)
    for path, records in ((train, train_records), (test, test_records)):
        if not records.prs:  # an empty file, or the wrong one: nothing to train or score on
            skipped = records.skipped_without_number
            without = f" ({skipped} without a PR number)" if skipped else ""
            raise EvaluationError(f"{path}: no PR records{without}")
    config = learn_modules_config(train_records.prs, repo_config or ModulesConfig())
    train_truth = [ground_truth(pr, config).modules for pr in train_records.prs]

    started = time.perf_counter()
    result = train_module_classifier(train_records.prs, config)
    train_seconds = round(time.perf_counter() - started, 3)

    labels = sorted(
        result.model.labels
        if result.model is not None
        else {normalise_tag(label) for label in config.allowed or []}
    )
    test_truth = [scored_modules(pr, config, repo_config, labels) for pr in test_records.prs]
    unknown = Counter(tag for truth in test_truth for tag in truth.unknown)
    unseen = Counter(m for truth in test_truth for m in truth.modules if m not in labels)
    untagged = [
        f"no PR of {path} carries a tag: {consequence}"
        for path, truths, consequence in (
            (train, train_truth, "nothing is learned"),
            (test, [truth.modules for truth in test_truth], "nothing is scored"),
        )
        if not any(truths)  # the wrong file, or a repository that tags with labels
    ]
    report = EvaluationReport(
        status=result.status,
        message=result.message,
        train_file=str(train),
        test_file=str(test),
        train_prs=len(train_records.prs),
        train_tagged=sum(1 for modules in train_truth if modules),
        test_prs=len(test_records.prs),
        test_tagged=sum(1 for truth in test_truth if truth.modules),
        train_skipped_without_number=train_records.skipped_without_number,
        test_skipped_without_number=test_records.skipped_without_number,
        labels=labels,
        label_aliases=dict(sorted(config.aliases.items())),
        train_seconds=train_seconds,
        training=result.metrics,
        test_unknown_tags=_ranked(unknown),
        test_unseen_labels=_ranked(unseen),
        warnings=[*untagged, *_file_warnings(train_records.prs, test_records.prs)],
    )
    model = result.model
    if model is None:  # nothing predicted: every tagged test PR's modules are missed
        predicted_modules: list[list[str]] = [[] for _ in test_records.prs]
        probabilities = np.zeros((len(test_records.prs), 0))
    else:
        features = [pr_features(pr, config) for pr in test_records.prs]
        probabilities = model.predict_proba(features)
        predicted_modules = model.predict_from_proba(probabilities)
    if predictions is not None:  # written whatever the status: an older file must not remain
        _write_predictions(
            predictions,
            test_records.prs,
            model.labels if model is not None else [],
            predicted_modules,
            probabilities,
        )

    scores = score_predictions(
        train_truth, [truth.modules for truth in test_truth], predicted_modules, labels
    )
    return report.model_copy(
        update={
            **scores.model_dump(),
            "per_label": scores.per_label,
            "by_confidence": confident_scores(
                [truth.modules for truth in test_truth],
                predicted_modules,
                probabilities,
                model.labels if model is not None else [],
            ),
            "model_version": model.version if model is not None else None,
        }
    )


def scored_modules(
    pr: PullRequest, config: ModulesConfig, repo_config: ModulesConfig | None, labels: list[str]
) -> GroundTruth:
    """A test PR's modules as the pipeline would take its tags. Without a configured module
    list every tag is one, a tag joining labels (`[CI/UT]`) is those labels, as
    `module_labels` splits it, and another spelling of a label (`[docs]` where training wrote
    `[doc]`) is that label, as learning the label set folds spellings."""
    if repo_config is not None and repo_config.allowed is not None:
        return ground_truth(pr, config)
    truth = ground_truth(pr, config.model_copy(update={"allowed": None}))
    by_spelling = {spelling_key(label): label for label in labels}
    modules = [
        by_spelling.get(spelling_key(m), m)
        for m in split_joined_labels(truth.modules, labels, config.aliases)
    ]
    return truth.model_copy(update={"modules": list(dict.fromkeys(modules))})


def _ranked(counts: Counter[str]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _file_warnings(train: Sequence[PullRequest], test: Sequence[PullRequest]) -> list[str]:
    warnings = []
    trained = {pr.number for pr in train}
    shared = sorted({pr.number for pr in test if pr.number in trained})
    if shared:
        shown = ", ".join(f"#{n}" for n in shared[:5]) + (" ..." if len(shared) > 5 else "")
        warnings.append(
            f"{len(shared)} test PR number(s) are in the training file too ({shown}):"
            " the scores overstate how the model does on new PRs"
        )
    twice = sorted(n for n, count in Counter(pr.number for pr in test).items() if count > 1)
    if twice:
        shown = ", ".join(f"#{n}" for n in twice[:5]) + (" ..." if len(twice) > 5 else "")
        warnings.append(
            f"{len(twice)} PR number(s) occur more than once in the test file ({shown}):"
            " each occurrence is scored and has its own predictions line"
        )
    return warnings


class PredictionScores(BaseModel):
    """How predicted modules compare with the test PRs' own tags."""

    model_config = ConfigDict(frozen=True)

    # None when no test PR carries a tag: nothing was scored.
    micro_f1: float | None
    micro_precision: float | None
    micro_recall: float | None
    macro_f1: float | None
    macro_labels: list[str]
    samples_f1: float | None
    exact_match: float | None
    per_label: dict[str, LabelScore]


def score_predictions(
    train_truth: Sequence[Sequence[str]],
    test_truth: Sequence[Sequence[str]],
    predicted: Sequence[Sequence[str]],
    model_labels: Sequence[str],
) -> PredictionScores:
    """Scores over the test PRs that carry tags. A tag no training PR had still counts as
    missed (micro); macro averages the labels with at least MACRO_MIN_TRAINING_EXAMPLES
    training PRs and at least one test PR."""
    scored = [i for i, truth in enumerate(test_truth) if truth]
    labels = sorted(set(model_labels) | {m for i in scored for m in test_truth[i]})
    column = {label: j for j, label in enumerate(labels)}
    truth_matrix = np.zeros((len(scored), len(labels)), dtype=bool)
    predicted_matrix = np.zeros_like(truth_matrix)
    for row, i in enumerate(scored):
        truth_matrix[row, [column[m] for m in test_truth[i]]] = True
        predicted_matrix[row, [column[m] for m in predicted[i]]] = True

    train_counts = {label: 0 for label in labels}
    for modules in train_truth:
        for module in modules:
            if module in train_counts:
                train_counts[module] += 1
    test_counts = truth_matrix.sum(axis=0)
    f1 = label_f1(truth_matrix, predicted_matrix)
    true_positives = (truth_matrix & predicted_matrix).sum(axis=0)
    predicted_counts = predicted_matrix.sum(axis=0)
    macro_labels = [
        label
        for label in labels
        if train_counts[label] >= MACRO_MIN_TRAINING_EXAMPLES and test_counts[column[label]] >= 1
    ]
    per_label = {
        label: LabelScore(
            f1=round(float(f1[j]), 4),
            precision=round(float(true_positives[j] / predicted_counts[j]), 4)
            if predicted_counts[j]
            else 0.0,
            recall=round(float(true_positives[j] / test_counts[j]), 4) if test_counts[j] else 0.0,
            train_examples=train_counts[label],
            test_examples=int(test_counts[j]),
        )
        for label, j in column.items()
        if test_counts[j] or predicted_counts[j]
    }
    exact = (truth_matrix == predicted_matrix).all(axis=1)
    macro = float(np.mean([f1[column[label]] for label in macro_labels])) if macro_labels else None
    found, predicted_total = int(true_positives.sum()), int(predicted_counts.sum())
    return PredictionScores(
        micro_f1=round(micro_f1(truth_matrix, predicted_matrix), 4) if scored else None,
        # No module predicted for a tagged test PR: none of them is wrong.
        micro_precision=round(found / predicted_total, 4) if predicted_total else None,
        micro_recall=round(found / int(test_counts.sum()), 4) if scored else None,
        macro_f1=None if macro is None else round(macro, 4),
        macro_labels=macro_labels,
        samples_f1=round(_samples_f1(truth_matrix, predicted_matrix), 4) if scored else None,
        exact_match=round(float(exact.mean()), 4) if scored else None,
        per_label=per_label,
    )


def confident_scores(
    test_truth: Sequence[Sequence[str]],
    predicted: Sequence[Sequence[str]],
    probabilities: np.ndarray,
    model_labels: Sequence[str],
) -> dict[str, ConfidentScore]:
    """At each of CONFIDENCE_BARS, the predicted modules whose probability reaches it."""
    column = {label: j for j, label in enumerate(model_labels)}
    scores = {}
    for bar in CONFIDENCE_BARS:
        sure = [
            [m for m in modules if probabilities[i, column[m]] >= bar]
            for i, modules in enumerate(predicted)
        ]
        tagged = [(set(truth), modules) for truth, modules in zip(test_truth, sure, strict=True)]
        made = sum(len(modules) for truth, modules in tagged if truth)
        right = sum(len(truth.intersection(modules)) for truth, modules in tagged if truth)
        scores[f"{bar:g}"] = ConfidentScore(
            predicted=made,
            precision=round(right / made, 4) if made else None,
            untagged_prs_labelled=sum(1 for truth, modules in tagged if not truth and modules),
        )
    return scores


def _write_predictions(
    path: Path,
    prs: Sequence[PullRequest],
    labels: Sequence[str],
    predicted: list[list[str]],
    probabilities: np.ndarray,
) -> None:
    lines = []
    for pr, modules, row in zip(prs, predicted, probabilities, strict=True):
        scores = {label: round(float(row[j]), 4) for j, label in enumerate(labels)}
        lines.append(json.dumps({"number": pr.number, "predicted": modules, "scores": scores}))
    try:
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    except OSError as exc:
        raise EvaluationError(f"{path}: cannot write predictions: {exc.strerror}") from None
