from __future__ import annotations

import dataclasses
import random
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from prhub_pipeline.config import ModulesConfig, RepoConfig, Settings, load_settings
from prhub_pipeline.modelling.tagging import classifier, parallel
from prhub_pipeline.modelling.tagging.classifier import (
    FIELDS,
    FieldCounts,
    LabelMemory,
    area_tagged_share,
    cross_fitted_modules,
    label_week,
    tagged_examples,
    time_ordered_split,
    train_module_classifier,
)
from prhub_pipeline.modelling.tagging.features import PrFeatures, pr_features
from prhub_pipeline.records import PullRequest
from prhub_pipeline.stages.modules import label_weeks, tally_modules, train_classifier
from prhub_pipeline.warehouse import connect, replace_partition
from prhub_pipeline.warehouse.prs import pr_tables
from prhub_pipeline.weeks import week_of
from prhub_pipeline_tests.conftest import write_config
from prhub_pipeline_tests.module_fixtures import MODULES, REPO, make_pr, synthetic_history


def test_time_ordered_split_validates_on_the_latest() -> None:
    fit, validate = time_ordered_split(10)
    assert list(fit) == list(range(8)) and list(validate) == [8, 9]
    assert time_ordered_split(1) == (range(1), range(1, 1))


def test_tagged_examples_are_sorted_by_merge_time() -> None:
    prs = list(reversed(synthetic_history(30)))
    dates = [pr.merged_at for pr, _ in tagged_examples(prs, MODULES)]
    assert dates == sorted(dates)


def test_trains_and_labels_held_out_prs() -> None:
    history = synthetic_history(200)
    result = train_module_classifier(history[:160], MODULES)
    assert result.status == "trained" and result.model is not None
    metrics = result.metrics
    assert metrics.training_size == 160
    assert metrics.validation_size == 32
    assert metrics.label_counts["rollout"] > 10
    assert metrics.validation_micro_f1 is not None and metrics.validation_micro_f1 > 0.8
    assert metrics.model_version == result.model.version
    held_out = history[160:]
    predicted = result.model.predict([pr_features(pr, MODULES) for pr in held_out])
    truth = [pr.title[1 : pr.title.index("]")].split(", ") for pr in held_out]
    hits = sum(set(p) == set(t) for p, t in zip(predicted, truth, strict=True))
    assert hits / len(held_out) > 0.8
    assert all(p for p in predicted)  # always at least the top module


def test_a_further_module_needs_half_the_best_modules_probability() -> None:
    """Over its threshold is not enough for a runner-up the model ranks far below the PR's
    best module; near it, it is kept. The best module is kept down to MIN_TOP_PROBABILITY."""
    model = train_module_classifier(synthetic_history(120), MODULES).model
    assert model is not None and len(model.labels) >= 3
    model = classifier.ModuleModel(
        **{**model.__dict__, "thresholds": np.full(len(model.labels), 0.3, dtype=np.float32)}
    )
    rows = np.zeros((4, len(model.labels)))
    rows[0, :3] = (0.9, 0.4, 0.35)  # runners-up over the threshold, under half of 0.9
    rows[1, :3] = (0.6, 0.35, 0.1)  # a runner-up over half of 0.6 and over the threshold
    rows[2, :3] = (0.5, 0.26, 0.2)  # over half of 0.5, under the threshold
    rows[3, :3] = (0.12, 0.11, 0.0)  # an unsure best module alone
    first, second, third = model.labels[:3]
    assert model.predict_from_proba(rows) == [[first], [first, second], [first], [first]]
    plain = classifier.ModuleModel(**{**model.__dict__, "min_share_of_top": 0.0})
    assert plain.predict_from_proba(rows)[0] == [first, second, third]


def test_training_is_reproducible() -> None:
    history = synthetic_history(120)
    first = train_module_classifier(history, MODULES).model
    second = train_module_classifier(history, MODULES).model
    assert first is not None and second is not None
    assert np.array_equal(first.coef, second.coef)
    assert np.array_equal(first.thresholds, second.thresholds)
    assert first.version.rsplit("-", 1)[1] == second.version.rsplit("-", 1)[1]  # same digest


def test_fits_in_forked_processes_equal_fits_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    history = synthetic_history(120)
    models = {}
    for forked in (True, False):
        monkeypatch.setattr(parallel, "can_fork", lambda forked=forked: forked)
        models[forked] = train_module_classifier(history, MODULES).model
    forked_model, sequential = models[True], models[False]
    assert forked_model is not None and sequential is not None
    assert np.array_equal(forked_model.coef, sequential.coef)
    assert np.array_equal(forked_model.intercept, sequential.intercept)
    assert [f.vocabulary for f in forked_model.fields] == [f.vocabulary for f in sequential.fields]
    assert forked_model.version.rsplit("-", 1)[1] == sequential.version.rsplit("-", 1)[1]


def test_the_linear_models_read_the_latest_prs_and_the_memory_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the window, older PRs are remembered by their paths and authors, not read."""
    monkeypatch.setattr(classifier, "LINEAR_WINDOW", 100)
    old = [
        make_pr(
            1000 + n,
            "[doc] fix: legacy sphinx pages",
            paths=(f"legacy/site/page{n}.rst",),
            merged_at=datetime(2025, 1, 1, tzinfo=UTC) + timedelta(days=n),
        )
        for n in range(40)
    ]
    result = train_module_classifier([*old, *synthetic_history(120)], MODULES)
    assert result.model is not None
    metrics = result.metrics
    assert (metrics.training_size, metrics.linear_training_size) == (160, 100)
    assert metrics.validation_size == 20
    assert "the linear models on the latest 100" in result.message
    title_terms = {
        term for f in result.model.fields if f.spec.name == "title" for term in f.vocabulary
    }
    assert "sphinx" not in title_terms and "improve" in title_terms
    touching_legacy = pr_features(make_pr(900, "fix: x", paths=("legacy/site/new.rst",)), MODULES)
    lift = result.model.memory.log_lift([touching_legacy])[0]
    assert result.model.labels[int(lift.argmax())] == "doc" and lift.max() > 0


def test_too_few_tagged_prs_is_a_status_not_an_error() -> None:
    config = MODULES.model_copy(update={"min_training_prs": 50})
    result = train_module_classifier(synthetic_history(30), config)
    assert result.status == "insufficient_training_data"
    assert result.model is None
    assert "30 tagged PRs" in result.message
    assert result.metrics.training_size == 30


def test_label_week_falls_back_to_tags_without_a_model() -> None:
    prs = [make_pr(1, "[rollout] fix: a"), make_pr(2, "Update README.md"), make_pr(3, "[sft] x")]
    week = label_week(prs, None, MODULES)
    assert [(x.number, x.module, x.origin, x.confidence) for x in week.labels] == [
        (1, "rollout", "title", 1.0)
    ]
    assert week.unlabelled == [2, 3]
    assert [(u.number, u.tag) for u in week.unknown] == [(3, "sft")]


def test_own_tags_win_and_the_model_fills_the_rest() -> None:
    model = train_module_classifier(synthetic_history(160), MODULES).model
    untagged = synthetic_history(200, seed=11, tagged=False)[-3:]
    tagged = make_pr(500, "[doc] fix: workflow runner timeout", paths=(".github/workflows/a.py",))
    week = label_week([tagged, *untagged], model, MODULES)
    own = [x for x in week.labels if x.number == 500]
    assert [(x.module, x.origin, x.confidence) for x in own] == [("doc", "title", 1.0)]
    predicted = [x for x in week.labels if x.number != 500]
    assert {x.number for x in predicted} == {pr.number for pr in untagged}
    assert all(x.origin == "model" and 0 < x.confidence <= 1 for x in predicted)


def test_a_pr_tagged_only_with_its_type_gets_areas_from_the_model() -> None:
    """`[BugFix] ...` says what kind of change, not where: the model adds the area."""
    config = MODULES.model_copy(update={"allowed": [*(MODULES.allowed or []), "bugfix"]})
    history = [
        pr.model_copy(update={"title": f"[BugFix]{pr.title}"}) if pr.number % 3 == 0 else pr
        for pr in synthetic_history(160)
    ]
    model = train_module_classifier(history, config).model
    assert model is not None and "bugfix" in model.labels
    type_only = make_pr(
        900, "[BugFix] fix: sampling engine kv cache", paths=("verl/workers/rollout/a.py",)
    )
    with_area = make_pr(901, "[BugFix][ci] fix: runner", paths=("verl/workers/rollout/b.py",))
    week = label_week([type_only, with_area], model, config)
    assert [(x.number, x.module, x.origin) for x in week.labels] == [
        (900, "bugfix", "title"),
        (901, "bugfix", "title"),
        (901, "ci", "title"),
        (900, "rollout", "model"),
    ]
    assert week.areas_from_model == [900] and week.unlabelled == []
    assert label_week([type_only], None, config).areas_from_model == []


def test_the_model_guesses_areas_never_only_a_kind_of_change() -> None:
    """A repository that titles half its PRs `[misc] ...` learns `misc` as a label, which an
    untagged PR is not given: LLaMA-Factory's model guessed `misc` alone for 34 untagged PRs."""
    history = [
        pr.model_copy(update={"title": f"[misc]{pr.title}"}) if pr.number % 2 == 0 else pr
        for pr in synthetic_history(160)
    ]
    config = ModulesConfig(min_training_prs=20)
    model = train_module_classifier(history, config).model
    assert model is not None and "misc" in model.labels
    untagged = [
        make_pr(900, "fix: sampling engine kv cache", paths=("verl/workers/rollout/a.py",)),
        make_pr(901, "update the guide", paths=("docs/a.md",)),
        make_pr(902, "fix: runner", paths=(".github/workflows/a.yml",)),
    ]
    week = label_week(untagged, model, config)
    assert [(x.number, x.module, x.origin) for x in week.labels] == [
        (900, "rollout", "model"),
        (901, "doc", "model"),
        (902, "ci", "model"),
    ]


def test_a_model_without_a_module_list_labels_weeks_with_its_learned_spellings() -> None:
    """A repository that tags `[docs]` and sometimes `[doc]` gets one module, not two."""
    history = [
        pr.model_copy(update={"title": pr.title.replace("[doc", "[docs")}) if pr.number % 4 else pr
        for pr in synthetic_history(160)
    ]
    config = ModulesConfig(min_training_prs=20)
    model = train_module_classifier(history, config).model
    assert model is not None and "docs" in model.labels and "doc" not in model.labels
    assert model.aliases == {"doc": "docs"}
    week = label_week([make_pr(900, "[doc] fix: typo")], model, config)
    assert [(x.module, x.origin) for x in week.labels] == [("docs", "title")]
    assert train_module_classifier(history, MODULES).model.aliases == {}  # type: ignore[union-attr]
    # A tag joining two labels is those two (tpu-inference's report had "Llama4/Test");
    # one joining a label and a new word stays as written.
    joined = label_week(
        [make_pr(901, "[Docs/CI] fix: links"), make_pr(902, "[ci/UT] x")], model, config
    )
    assert [(x.number, x.module) for x in joined.labels] == [
        (901, "docs"),
        (901, "ci"),
        (902, "ci/ut"),
    ]


def test_labels_instead_of_prefixes_train_a_model() -> None:
    config = ModulesConfig(label_modules={"area/rollout": "rollout", "area/ci": "ci"})
    prs = []
    for pr in synthetic_history(120, tagged=False):
        label = "area/ci" if ".github" in pr.files[0].path else "area/rollout"
        prs.append(pr.model_copy(update={"labels": [label]}))
    result = train_module_classifier(prs, config.model_copy(update={"min_training_prs": 20}))
    assert result.status == "trained" and result.model is not None
    assert result.model.labels == ["ci", "rollout"]


def test_prefix_never_changes_the_scores() -> None:
    model = train_module_classifier(synthetic_history(160), MODULES).model
    assert model is not None
    with_prefix = make_pr(
        900, "[megatron] fix: sampling engine", paths=("verl/workers/rollout/a.py",)
    )
    without = make_pr(900, "fix: sampling engine", paths=("verl/workers/rollout/a.py",))
    scores = model.predict_proba([pr_features(p, MODULES) for p in (with_prefix, without)])
    assert np.array_equal(scores[0], scores[1])


def _paths_only(*paths: str) -> PrFeatures:
    return PrFeatures(
        title="", path_tokens="", path_prefixes="", description="", paths="\n".join(paths)
    )


def test_path_memory_favours_the_modules_that_touched_a_file() -> None:
    history = [
        _paths_only("verl/workers/rollout/vllm.py"),
        _paths_only("verl/workers/rollout/vllm.py", "docs/index.md"),
        _paths_only("verl/trainer/main.py"),
        _paths_only("docs/index.md"),
    ]
    y = np.array([[0, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]])  # doc, rollout, trainer
    memory = LabelMemory.fit(history, y)
    lift = memory.log_lift(
        [
            _paths_only("verl/workers/rollout/vllm.py"),
            _paths_only("verl/workers/rollout/sglang.py"),  # new file, known directory
            _paths_only("unseen/file.py"),
            _paths_only(),
        ]
    )
    assert lift[0].argmax() == 1 and lift[1].argmax() == 1
    assert lift[0, 1] > lift[1, 1] > 0  # the file's own history counts more than its directory's
    assert np.allclose(lift[2], 0) and np.allclose(lift[3], 0)  # nothing known: the overall mix


def test_path_memory_takes_a_prs_most_telling_file() -> None:
    """verl #6957 changed `core_algos.py` beside generated trainer configs and a test: the
    files every kind of PR touches must not dilute the one that says `algo`."""
    shared = ("verl/trainer/config/_generated_ppo_trainer.yaml", "tests/trainer/test_ppo.py")
    history = [
        _paths_only("verl/trainer/ppo/core_algos.py"),
        _paths_only("verl/trainer/ppo/core_algos.py"),
        _paths_only(*shared),
        _paths_only(*shared),
        _paths_only(*shared),
    ]
    y = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [0, 1]])  # algo, trainer
    memory = LabelMemory.fit(history, y)
    alone, among_shared = memory.shares(
        [
            _paths_only("verl/trainer/ppo/core_algos.py"),
            _paths_only("verl/trainer/ppo/core_algos.py", *shared),
        ]
    )
    assert memory.combine == "max"
    assert among_shared[0] == pytest.approx(alone[0])  # algo: the file's own share
    assert among_shared[1] == pytest.approx(memory.shares([_paths_only(*shared)])[0][1])
    # The mean (models stored before format 8) halves the telling file's pull.
    averaged = dataclasses.replace(memory, combine="mean")
    assert averaged.shares([_paths_only("verl/trainer/ppo/core_algos.py", *shared)])[0][0] < (
        alone[0] * 0.5
    )


def test_path_memory_counts_each_pr_with_its_weight() -> None:
    """A directory whose PRs moved from one module to another: with recency weights the memory
    follows the recent PRs; unweighted, the older majority still wins."""
    history = [_paths_only("docker/ascend/Dockerfile")] * 5
    y = np.array([[1, 0], [1, 0], [1, 0], [0, 1], [0, 1]])  # ci three times, then env twice
    new_pr = [_paths_only("docker/ascend/Dockerfile.a3")]
    assert LabelMemory.fit(history, y).shares(new_pr)[0].argmax() == 0
    recent_first = np.array([0.1, 0.1, 0.1, 1.0, 1.0])
    weighted = LabelMemory.fit(history, y, recent_first)
    assert weighted.shares(new_pr)[0].argmax() == 1
    assert np.allclose(weighted.prior, [0.3 / 2.3, 2.0 / 2.3])


def test_the_author_memory_labels_a_pr_its_text_and_paths_cannot() -> None:
    """Authors keep to their areas: where the modules' PRs read alike and touch the same
    files, only who opened them tells them apart, and validation then gives the author's
    memory a weight (it stays 0 where the text alone suffices)."""
    usual = {"Alice": "rollout", "Bob": "fsdp", "Carol": "megatron", "Dan": "doc"}
    rng = random.Random(5)
    history = []
    for number in range(1, 201):
        author = rng.choice(sorted(usual))
        module = usual[author] if rng.random() < 0.9 else rng.choice(sorted(usual.values()))
        pr = make_pr(number, f"[{module}] fix: update the shared step", paths=("verl/step.py",))
        history.append(pr.model_copy(update={"author": author}))
    result = train_module_classifier(history, MODULES)
    assert result.model is not None and result.metrics.chosen_params["author_weight"]
    new = [
        make_pr(900, "fix: update the shared step", paths=("verl/step.py",)).model_copy(
            update={"author": name}
        )
        for name in (*usual, "Erin")
    ]
    features = [pr_features(pr, MODULES) for pr in new]
    predicted = result.model.predict(features)
    assert [top[0] for top in predicted[:4]] == list(usual.values())
    # Nothing known of a new author: the memory gives no module a lift.
    assert np.allclose(result.model.author_memory.log_lift(features[4:]), 0)
    clear = train_module_classifier(synthetic_history(120), MODULES)
    assert clear.metrics.chosen_params["author_weight"] == 0.0


def test_counted_tfidf_is_what_the_vectorizer_and_the_stored_field_compute() -> None:
    """Training derives each field's TF-IDF from counts made once; it must equal what
    TfidfVectorizer computes on the same texts, and what the fitted field gives at prediction
    time, or the model would be fitted on one view of a PR and applied to another."""
    features = [pr_features(pr, MODULES) for pr in synthetic_history(120)]
    for spec in FIELDS:
        texts = [getattr(f, spec.source) for f in features]
        counted = FieldCounts.count(spec, texts)
        fitted, columns, matrix = counted.fit(slice(0, 100))
        reference = TfidfVectorizer(
            sublinear_tf=True,
            analyzer=spec.analyzer,
            ngram_range=spec.ngram_range,
            token_pattern=spec.token_pattern if spec.analyzer == "word" else None,
            min_df=spec.min_df,
            max_df=spec.max_df,
        )
        expected = reference.fit_transform(texts[:100]) * spec.weight
        assert sorted(fitted.vocabulary) == sorted(reference.vocabulary_), spec.name
        order = [reference.vocabulary_[term] for term in fitted.vocabulary]
        assert np.allclose(matrix.toarray(), expected[:, order].toarray()), spec.name
        assert np.allclose(matrix.toarray(), fitted.transform(texts[:100]).toarray()), spec.name
        held_out = counted.tfidf(slice(100, None), columns, fitted.idf)
        assert np.allclose(held_out.toarray(), fitted.transform(texts[100:]).toarray()), spec.name


def test_a_field_without_terms_is_an_empty_block() -> None:
    description = next(spec for spec in FIELDS if spec.name == "description")
    for texts in ([""] * 60, ["the same words"] * 60):  # nothing at all; all pruned (max_df)
        counted = FieldCounts.count(description, texts)
        fitted, columns, matrix = counted.fit(slice(0, 50))
        assert fitted.vocabulary == [] and matrix.shape == (50, 0)
        assert counted.tfidf(slice(50, None), columns, fitted.idf).shape == (10, 0)
        assert fitted.transform(["the same words"]).shape == (1, 0)


def _stored_history(tmp_path: Path, prs: list[PullRequest]) -> tuple[Settings, RepoConfig]:
    """Settings for REPO with MODULES, and its PRs stored week by week."""
    settings = load_settings(write_config(tmp_path, tmp_path))
    repo = settings.repos[0].model_copy(update={"name": REPO, "modules": MODULES})
    settings = settings.model_copy(update={"repos": [repo]})
    by_week: dict[date, list[PullRequest]] = {}
    for pr in prs:
        by_week.setdefault(week_of(pr.merged_at, settings.timezone), []).append(pr)
    with connect(settings.database) as con:
        for week, week_prs in by_week.items():
            replace_partition(con, REPO, week, pr_tables(week, week_prs))
    return settings, repo


def test_a_model_trained_under_other_modules_settings_does_not_label(tmp_path: Path) -> None:
    history = synthetic_history(160)
    untagged = make_pr(
        500,
        "fix: sampling engine stalls",
        paths=("verl/workers/rollout/a.py",),
        merged_at=history[-1].merged_at + timedelta(days=30),  # alone in its week
    )
    settings, repo = _stored_history(tmp_path, [*history, untagged])
    week = week_of(untagged.merged_at, settings.timezone)
    assert train_classifier(settings, repo).status == "trained"
    (labelled,) = label_weeks(settings, repo, [week])
    assert labelled.origins == {"model": 1} and labelled.model_not_applied is None
    # A minimum the history no longer meets: no model is trained, and the stored one is not
    # the model these settings would train.
    stricter = repo.model_copy(
        update={"modules": MODULES.model_copy(update={"min_training_prs": 5000})}
    )
    assert train_classifier(settings, stricter).status == "insufficient_training_data"
    (unlabelled,) = label_weeks(settings, stricter, [week])
    assert unlabelled.origins == {} and unlabelled.unlabelled == [500]
    assert unlabelled.model_version is None
    assert unlabelled.model_not_applied is not None
    assert "trained under other modules settings" in unlabelled.model_not_applied
    # Settings that only say how to name or keep models leave it labelling.
    renamed = repo.model_copy(
        update={"modules": MODULES.model_copy(update={"keep_models": 3, "min_micro_f1": 0.9})}
    )
    assert label_weeks(settings, renamed, [week])[0].origins == {"model": 1}


def test_a_repository_that_tags_few_of_its_prs_gets_no_model_labels(tmp_path: Path) -> None:
    """slime tags 17% of a year's PRs, mostly `[docker]` and `[docs]`: a model trained on them
    called its loss fixes `ci`. The model is trained and stored (its metrics say what it could
    do) but labels no PR while the share is under `min_tagged_share`, and says why."""
    history = synthetic_history(160)
    untagged = [
        make_pr(
            1000 + i,
            f"fix: sampling engine stalls {i}",
            paths=("verl/workers/rollout/a.py",),
            merged_at=history[-1].merged_at - timedelta(hours=i + 1),
        )
        for i in range(200)
    ]
    kind_only = make_pr(
        999,
        "[fix] sampling engine stalls",
        paths=("verl/workers/rollout/a.py",),
        merged_at=history[-1].merged_at - timedelta(hours=300),
    )
    settings, repo = _stored_history(tmp_path, [*history, *untagged, kind_only])
    week = week_of(untagged[0].merged_at, settings.timezone)
    summary = train_classifier(settings, repo)
    assert summary.status == "trained"
    # 160 tagged with areas of 361 PRs: a `[fix]` alone names no area.
    assert summary.metrics.area_tagged_share == round(160 / 361, 4)
    assert not summary.labels_prs
    assert "it labels no PR: the repository's own tags name an area for 44% of a year's PRs" in (
        summary.describe()
    )
    (labelled,) = label_weeks(settings, repo, [week])
    assert labelled.origins.get("model") is None and labelled.unlabelled
    assert labelled.model_not_applied is not None
    assert "tags name an area for 44% of a year's PRs" in labelled.model_not_applied
    # PRs older than a year do not count: the convention followed now is what matters.
    old = [
        pr.model_copy(update={"merged_at": pr.merged_at - timedelta(days=400)}) for pr in untagged
    ]
    assert area_tagged_share([*history, *old], tagged_examples(history, MODULES)) == 1.0
    # A lower minimum lets the same model label.
    lenient = repo.model_copy(
        update={"modules": MODULES.model_copy(update={"min_tagged_share": 0.4})}
    )
    assert label_weeks(settings, lenient, [week])[0].origins.get("model")


def test_tags_are_read_in_their_learned_spellings_where_no_model_labels(tmp_path: Path) -> None:
    """torchtitan's `[graphtrainer]` and `[graph_trainer]` headed two sections of one week once
    its model stopped labelling (it tags 46% of its PRs): the model had carried the spellings."""
    learned = MODULES.model_copy(update={"allowed": None, "aliases": {}})
    history = synthetic_history(160)
    last = history[-1].merged_at
    spelt = [
        make_pr(
            300 + i,
            f"[{'graphtrainer' if i % 2 else 'graph_trainer'}] feat: trace {i}",
            paths=("torchtitan/experiments/graph_trainer/a.py",),
            merged_at=last - timedelta(days=i + 1),
        )
        for i in range(12)
    ]
    untagged = [
        make_pr(1000 + i, f"feat: change {i}", merged_at=last - timedelta(hours=i + 1))
        for i in range(200)
    ]
    week = [
        make_pr(n, title, merged_at=last + timedelta(days=30, hours=n - 500))
        for n, title in ((500, "[graphtrainer] feat: a"), (501, "[graph_trainer] fix: b"))
    ]
    settings, repo = _stored_history(tmp_path, [*history, *spelt, *untagged, *week])
    repo = repo.model_copy(update={"modules": learned})
    monday = week_of(week[0].merged_at, settings.timezone)
    for minimum in (20, 5000):  # a model that does not label; no model at all
        modules = learned.model_copy(update={"min_training_prs": minimum})
        settled = repo.model_copy(update={"modules": modules})
        train_classifier(settings, settled)
        (labelled,) = label_weeks(settings, settled, [monday])
        assert labelled.origins == {"title": 2}
        assert len(labelled.modules) == 1 and next(iter(labelled.modules.values())) == 2


def test_validation_scores_a_pr_with_thresholds_its_own_tag_did_not_tune() -> None:
    """The reported validation F1 was measured on the PRs that tuned the thresholds: each half
    of the validation PRs is now decided by what the other half tuned, so no PR's own tags
    move its prediction."""
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(40, 3))
    truth = scores + rng.normal(scale=0.8, size=scores.shape) > 0.5
    predicted = cross_fitted_modules(scores, truth)
    for row in (7, 31):  # one PR of each half whose own tags tuned in-sample thresholds moved
        flipped = truth.copy()
        flipped[row] = ~flipped[row]
        again = cross_fitted_modules(scores, flipped)
        assert (again[row] == predicted[row]).all()
    assert predicted.shape == truth.shape and predicted.any()


def test_one_validation_pr_is_decided_with_what_it_tuned() -> None:
    """With no other half, the one PR's modules come from its own tuning, not from none."""
    predicted = cross_fitted_modules(np.array([[2.0, -2.0]]), np.array([[True, False]]))
    assert predicted.tolist() == [[True, False]]


def test_under_the_tagged_share_a_probability_bar_labels_only_the_surest(tmp_path: Path) -> None:
    """llm-compressor's tags name areas (`[awq]`, `[moe]`) but for 31% of a year's PRs: its
    model labelled none, and 264 of 387 PRs had no module. Its predictions of 0.7 or more were
    0.93 precise on later tagged PRs, so `min_probability_under_share` lets those label."""
    history = synthetic_history(160)
    untagged = [
        make_pr(
            1000 + i,
            f"{'fix: sampling engine stalls' if i % 2 else 'update notes'} {i}",
            paths=("verl/workers/rollout/a.py",) if i % 2 else ("notes/a.txt",),
            merged_at=history[-1].merged_at - timedelta(hours=i + 1),
        )
        for i in range(200)
    ]
    settings, repo = _stored_history(tmp_path, [*history, *untagged])
    week = week_of(untagged[0].merged_at, settings.timezone)
    sure_repo = repo.model_copy(
        update={"modules": MODULES.model_copy(update={"min_probability_under_share": 0.5})}
    )
    summary = train_classifier(settings, sure_repo)
    assert summary.labels_prs and not summary.tags_enough
    assert "it labels only its predictions of probability 0.5 or more" in summary.describe()
    (labelled,) = label_weeks(settings, sure_repo, [week])
    assert labelled.origins.get("model") and labelled.model_not_applied is None
    assert labelled.model_only_sure is not None
    assert "only its predictions of probability 0.5 or more" in labelled.model_only_sure
    assert ", model: only its predictions of probability 0.5 or more label PRs: the" in (
        tally_modules([labelled]).summary
    )
    assert not label_weeks(settings, repo, [week])[0].origins.get("model")  # no bar: none

    model = train_module_classifier([*history, *untagged], MODULES).model
    assert model is not None
    week_prs = [pr for pr in untagged if week_of(pr.merged_at, settings.timezone) == week]
    every = label_week(week_prs, model, MODULES)
    best: dict[int, float] = {}
    for label in every.labels:
        best[label.number] = max(best.get(label.number, 0.0), label.confidence)
    bests = sorted(set(best.values()))
    bar = bests[len(bests) // 2]  # half the PRs' surest predictions are under it
    sure = label_week(week_prs, model, MODULES, min_probability=bar)
    assert sure.labels and all(label.confidence >= bar for label in sure.labels)
    assert len(sure.labels) < len(every.labels)
    # A PR none of whose predictions reach the bar is unlabelled.
    assert set(sure.unlabelled) > set(every.unlabelled)
