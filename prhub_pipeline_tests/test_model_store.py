from __future__ import annotations

import dataclasses
import io
import json
import pickle
import zipfile
from datetime import UTC, date, datetime
from pathlib import Path

import numpy as np
import pytest

from prhub_pipeline.modelling.tagging.classifier import (
    MIN_SHARE_OF_TOP,
    ModuleModel,
    train_module_classifier,
)
from prhub_pipeline.modelling.tagging.features import pr_features
from prhub_pipeline.modelling.tagging.model_store import (
    ModelStoreError,
    from_payload,
    model_from_bytes,
    model_to_bytes,
    payload_sha256,
    to_payload,
)
from prhub_pipeline.records import ModuleLabel, StoredModelPayload, ThemeTag, UnknownTag
from prhub_pipeline.warehouse import connect, replace_partition
from prhub_pipeline.warehouse.modules import (
    module_tables,
    read_model_payload,
    read_module_labels,
    read_themes,
    read_unknown_tags,
    save_model_payload,
)
from prhub_pipeline_tests.module_fixtures import MODULES, REPO, synthetic_history


@pytest.fixture(scope="module")
def trained() -> tuple[ModuleModel, object]:
    result = train_module_classifier(synthetic_history(120), MODULES)
    assert result.model is not None
    return result.model, result.metrics


def test_round_trip_predicts_the_same(trained: tuple[ModuleModel, object]) -> None:
    model, _ = trained
    payload = model_to_bytes(model)
    loaded = model_from_bytes(payload, payload_sha256(payload))
    features = [pr_features(pr, MODULES) for pr in synthetic_history(40, seed=3)]
    assert np.allclose(model.predict_proba(features), loaded.predict_proba(features), atol=1e-6)
    assert loaded.labels == model.labels and loaded.version == model.version


def test_round_trip_keeps_the_learned_spellings(trained: tuple[ModuleModel, object]) -> None:
    model = ModuleModel(**{**trained[0].__dict__, "aliases": {"docs": "doc"}})
    payload = model_to_bytes(model)
    assert model_from_bytes(payload, payload_sha256(payload)).aliases == {"docs": "doc"}


def test_a_model_stored_before_learned_spellings_loads_without_them(
    trained: tuple[ModuleModel, object],
) -> None:
    arrays = _arrays(trained[0])
    header = json.loads(str(arrays["header"]))
    del header["aliases"]
    payload = _payload(arrays, header)
    assert model_from_bytes(payload, payload_sha256(payload)).aliases == {}
    header["aliases"] = ["docs"]
    payload = _payload(arrays, header)
    with pytest.raises(ModelStoreError, match="aliases are not a map"):
        model_from_bytes(payload, payload_sha256(payload))


def test_a_model_stored_before_the_author_memory_predicts_without_it(
    trained: tuple[ModuleModel, object],
) -> None:
    """A format-4 model (before the author memory) still labels the weeks until the next
    retraining, as it did when it was stored; older formats are refused by name."""
    model = trained[0]
    arrays = {k: v for k, v in _arrays(model).items() if not k.startswith("author_memory")}
    header = json.loads(str(arrays["header"]))
    header = {k: v for k, v in header.items() if not k.startswith("author")} | {"format": 4}
    payload = _payload(arrays, header)
    loaded = model_from_bytes(payload, payload_sha256(payload))
    assert loaded.author_weight == 0.0 and loaded.author_memory.keys == []
    features = [pr_features(pr, MODULES) for pr in synthetic_history(40, seed=3)]
    unweighted = ModuleModel(**{**model.__dict__, "author_weight": 0.0})
    assert np.allclose(loaded.predict_proba(features), unweighted.predict_proba(features))
    payload = _payload(arrays, header | {"format": 3})
    with pytest.raises(ModelStoreError, match="format 3; this version reads formats 4, 5, 6, 7, 8"):
        model_from_bytes(payload, payload_sha256(payload))


def test_a_model_stored_before_the_title_type_reads_the_title_alone(
    trained: tuple[ModuleModel, object],
) -> None:
    """A format-5 model's title field read the title's words only, and still does."""
    model = trained[0]
    arrays = _arrays(model)
    header = json.loads(str(arrays["header"]))
    assert header["fields"][0]["source"] == "title_and_type"
    header["fields"][0]["source"] = "title"
    payload = _payload(arrays, header | {"format": 5})
    loaded = model_from_bytes(payload, payload_sha256(payload))
    assert loaded.fields[0].spec.source == "title"
    features = [pr_features(pr, MODULES) for pr in synthetic_history(40, seed=3)]
    untyped = [f.model_copy(update={"title_type": ""}) for f in features]
    assert np.allclose(loaded.predict_proba(features), model.predict_proba(untyped), atol=1e-6)


def test_a_model_stored_before_the_share_rule_keeps_every_module_over_its_threshold(
    trained: tuple[ModuleModel, object],
) -> None:
    """A format-6 model's thresholds were tuned without the share of the best module, so it
    keeps deciding without it; the current format stores the share it was trained with."""
    model = trained[0]
    assert model.min_share_of_top == MIN_SHARE_OF_TOP
    arrays = _arrays(model)
    header = json.loads(str(arrays["header"]))
    assert header["min_share_of_top"] == MIN_SHARE_OF_TOP
    stored = model_from_bytes(model_to_bytes(model), payload_sha256(model_to_bytes(model)))
    assert stored.min_share_of_top == MIN_SHARE_OF_TOP
    del header["min_share_of_top"]
    payload = _payload(arrays, header | {"format": 6})
    assert model_from_bytes(payload, payload_sha256(payload)).min_share_of_top == 0.0


def test_a_model_stored_before_format_8_averages_its_files_in_the_path_memory(
    trained: tuple[ModuleModel, object],
) -> None:
    """A format-7 model's memory weight was chosen for the mean of a PR's files' shares, so it
    keeps the mean; the current format stores how its memory combines them."""
    model = trained[0]
    arrays = _arrays(model)
    header = json.loads(str(arrays["header"]))
    assert header["memory_combine"] == model.memory.combine == "max"
    stored = model_to_bytes(model)
    assert model_from_bytes(stored, payload_sha256(stored)).memory.combine == "max"
    del header["memory_combine"]
    payload = _payload(arrays, header | {"format": 7})
    loaded = model_from_bytes(payload, payload_sha256(payload))
    assert loaded.memory.combine == "mean"
    features = [pr_features(pr, MODULES) for pr in synthetic_history(40, seed=3)]
    averaged = ModuleModel(
        **{**model.__dict__, "memory": dataclasses.replace(model.memory, combine="mean")}
    )
    assert np.allclose(loaded.predict_proba(features), averaged.predict_proba(features))
    payload = _payload(arrays, header | {"memory_combine": "median"})
    with pytest.raises(ModelStoreError, match="path memory combines by 'median'"):
        model_from_bytes(payload, payload_sha256(payload))


def _arrays(model: ModuleModel) -> dict[str, np.ndarray]:
    with np.load(io.BytesIO(model_to_bytes(model)), allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files}


def _payload(arrays: dict[str, np.ndarray], header: dict[str, object] | None = None) -> bytes:
    if header is not None:
        arrays = {**arrays, "header": np.array(json.dumps(header))}
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


def test_payload_holds_no_pickle(trained: tuple[ModuleModel, object]) -> None:
    payload = model_to_bytes(trained[0])
    with zipfile.ZipFile(io.BytesIO(payload)) as archive:
        for name in archive.namelist():
            # npy headers say `'descr': '<f4'` etc.; object arrays ('|O') would need pickle.
            assert b"|O" not in archive.read(name)[:128], name


def test_tampered_payload_is_refused(trained: tuple[ModuleModel, object]) -> None:
    payload = model_to_bytes(trained[0])
    digest = payload_sha256(payload)
    tampered = bytearray(payload)
    tampered[len(tampered) // 2] ^= 0xFF
    with pytest.raises(ModelStoreError, match="sha256"):
        model_from_bytes(bytes(tampered), digest)


def test_a_pickle_is_never_loaded_even_with_a_matching_digest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    class Boom:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (print, ("pickle executed",))

    buffer = io.BytesIO()
    np.savez(buffer, header=np.array([Boom()], dtype=object))
    payload = buffer.getvalue()
    data = pickle.dumps({"x": 1})
    for pickled in (payload, data):
        # numpy's own text advised loading it "unsafely using the allow_pickle= keyword".
        with pytest.raises(ModelStoreError) as error:
            model_from_bytes(pickled, payload_sha256(pickled))
        assert str(error.value) == (
            "stored model holds pickled data and is never loaded; retrain it"
            " (module_classifier_job / prhub materialize)"
        )
        stored = StoredModelPayload(
            repo=REPO,
            model_version="v7",
            trained_at=datetime(2026, 5, 11, tzinfo=UTC),
            payload=pickled,
            sha256=payload_sha256(pickled),
            metrics_json=None,
        )
        with pytest.raises(ModelStoreError) as error:
            from_payload(stored)
        assert str(error.value) == (
            f"the stored model v7 of {REPO} holds pickled data and is never loaded; retrain it"
            " (module_classifier_job / prhub materialize)"
        )
    assert "pickle executed" not in capsys.readouterr().out


def test_warehouse_keeps_history_and_loads_the_newest(
    tmp_path: Path, trained: tuple[ModuleModel, object]
) -> None:
    model, metrics = trained
    older = ModuleModel(
        **{**model.__dict__, "version": "old", "trained_at": model.trained_at.replace(year=2020)}
    )
    with connect(tmp_path / "w.duckdb") as con:
        assert read_model_payload(con, REPO) is None
        save_model_payload(con, to_payload(REPO, older))
        save_model_payload(con, to_payload(REPO, model, metrics))  # type: ignore[arg-type]
        payload = read_model_payload(con, REPO)
        assert payload is not None
        stored = from_payload(payload)
        assert stored.model_version == model.version
        assert stored.metrics == metrics
        assert con.execute("SELECT count(*) FROM module_models").fetchone() == (2,)
        con.execute("UPDATE module_models SET payload = ?::BLOB", [b"not a model"])
        tampered = read_model_payload(con, REPO)
        assert tampered is not None
        with pytest.raises(ModelStoreError, match=f"{model.version} of {REPO}.*refusing to load"):
            from_payload(tampered)


def test_partition_tables_round_trip(tmp_path: Path) -> None:
    week = date(2026, 5, 11)
    labels = [
        ModuleLabel(repo=REPO, number=1, module="rollout", origin="title", confidence=1.0),
        ModuleLabel(repo=REPO, number=2, module="ci", origin="model", confidence=0.61),
    ]
    themes = [ThemeTag(repo=REPO, number=2, theme="NPU/Ascend")]
    unknown = [UnknownTag(repo=REPO, number=3, tag="sft")]
    with connect(tmp_path / "w.duckdb") as con:
        tables = module_tables(week, labels, themes, unknown)
        replace_partition(con, REPO, week, tables)
        replace_partition(con, REPO, week, tables)  # re-running never duplicates
        assert read_module_labels(con, REPO, week) == labels
        assert read_themes(con, REPO, through=week) == themes
        assert read_unknown_tags(con, REPO) == unknown
        assert read_module_labels(con, REPO, date(2026, 5, 18)) == []


@pytest.mark.parametrize(("prefix", "name"), [("memory", "path"), ("author_memory", "author")])
def test_a_label_memory_of_the_wrong_shape_is_refused(
    trained: tuple[ModuleModel, object], prefix: str, name: str
) -> None:
    arrays = _arrays(trained[0])
    arrays[f"{prefix}_counts"] = arrays[f"{prefix}_counts"][:, :-1]
    payload = _payload(arrays)
    with pytest.raises(ModelStoreError, match=f"{name} memory"):
        model_from_bytes(payload, payload_sha256(payload))


def test_a_field_reading_an_unknown_text_is_refused(trained: tuple[ModuleModel, object]) -> None:
    arrays = _arrays(trained[0])
    header = json.loads(str(arrays["header"]))
    header["fields"][0]["source"] = "body_with_title_tags"
    payload = _payload(arrays, header)
    with pytest.raises(ModelStoreError, match="unknown text 'body_with_title_tags'"):
        model_from_bytes(payload, payload_sha256(payload))


def test_warehouse_keeps_only_the_newest_models_it_is_told_to(
    tmp_path: Path, trained: tuple[ModuleModel, object]
) -> None:
    model, _ = trained
    with connect(tmp_path / "w.duckdb") as con:
        for year in (2021, 2023, 2022, 2024):  # saved out of training order
            version = ModuleModel(
                **{
                    **model.__dict__,
                    "version": f"v{year}",
                    "trained_at": model.trained_at.replace(year=year),
                }
            )
            save_model_payload(con, to_payload(REPO, version), keep=2)
        save_model_payload(con, to_payload("other/repo", model), keep=2)
        kept = con.execute(
            "SELECT repo, model_version FROM module_models ORDER BY repo, model_version"
        ).fetchall()
        assert kept == [(REPO, "v2023"), (REPO, "v2024"), ("other/repo", model.version)]
        payload = read_model_payload(con, REPO)
        assert payload is not None and payload.model_version == "v2024"
        with pytest.raises(ValueError, match="keep must be at least 1"):
            save_model_payload(con, to_payload(REPO, model), keep=0)
