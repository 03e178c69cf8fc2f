"""Serialising a fitted ModuleModel without pickle.

Unpickling runs code chosen by whoever wrote the bytes, so a model file or database row that
someone could replace would be a way in. The model is data only, so it is stored as data: an
`.npz` archive of plain numeric and fixed-width string arrays (read with
`allow_pickle=False`, which refuses object arrays) plus one JSON header, and the estimator is
rebuilt from them on load. A sha256 of the payload is kept beside it (a separate column in the
warehouse) and checked before the payload is parsed, which catches truncation and tampering
by anyone who cannot also rewrite the digest.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import zipfile
from datetime import datetime
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from prhub_pipeline.modelling.tagging.classifier import (
    ANALYZERS,
    FIELD_SOURCES,
    MEMORY_COMBINE,
    MEMORY_COMBINES,
    MODEL_FORMAT,
    FieldSpec,
    FittedField,
    LabelMemory,
    MemoryCombine,
    MemorySource,
    ModuleModel,
    TrainingMetrics,
)
from prhub_pipeline.records import StoredModelPayload

# Formats this version loads: a model stored before the author memory predicts without one; a
# format-5 model's title field reads the title alone, as its spec says; a model stored before
# format 7 keeps every module over its threshold, as its thresholds were tuned; a model stored
# before format 8 takes the mean of a PR's files' shares, as its memory weight was chosen for.
AUTHOR_MEMORY_FORMAT = 5
READABLE_FORMATS = (4, 5, 6, 7, MODEL_FORMAT)


class ModelStoreError(Exception):
    """A stored model is corrupt, tampered with, or of a format this version cannot read."""


class PickledModelError(ModelStoreError):
    """A stored model holds pickled data (numpy's object arrays, or a pickle itself), which
    would run code on load: never loaded."""


RETRAIN = "retrain it (module_classifier_job / prhub materialize)"
# numpy's words when `allow_pickle=False` meets pickled data: an object array in an archive,
# or a pickle where an archive belongs ("... you can load it unsafely using the allow_pickle=
# keyword ...", which is advice prhub must not pass on).
PICKLED_MESSAGE = ("allow_pickle", "Object arrays cannot be loaded")


def payload_sha256(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()


def model_to_bytes(model: ModuleModel) -> bytes:
    """The model as an npz archive: arrays plus a JSON header, nothing executable."""
    header = {
        "format": MODEL_FORMAT,
        "version": model.version,
        "trained_at": model.trained_at.isoformat(),
        "labels": model.labels,
        "aliases": model.aliases,
        "fields": [dataclasses.asdict(f.spec) for f in model.fields],
        "title_bonus": model.title_bonus,
        "path_bonus": model.path_bonus,
        "memory_weight": model.memory_weight,
        "memory_smoothing": model.memory.smoothing,
        "memory_combine": model.memory.combine,
        "author_weight": model.author_weight,
        "author_memory_smoothing": model.author_memory.smoothing,
        "platt_slope": model.platt_slope,
        "platt_intercept": model.platt_intercept,
        "min_top_probability": model.min_top_probability,
        "min_share_of_top": model.min_share_of_top,
        "params": model.params,
    }
    arrays: dict[str, np.ndarray] = {
        "header": np.array(json.dumps(header)),
        "coef": model.coef.astype(np.float32),
        "intercept": model.intercept.astype(np.float32),
        "thresholds": model.thresholds.astype(np.float32),
        **_memory_arrays("memory", model.memory),
        **_memory_arrays("author_memory", model.author_memory),
    }
    for position, fitted in enumerate(model.fields):
        arrays[f"vocabulary_{position}"] = np.array(fitted.vocabulary, dtype=np.str_)
        arrays[f"idf_{position}"] = fitted.idf.astype(np.float64)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]  # numpy stub: allow_pickle
    return buffer.getvalue()


def _memory_arrays(prefix: str, memory: LabelMemory) -> dict[str, np.ndarray]:
    return {
        f"{prefix}_keys": np.array(memory.keys, dtype=np.str_),
        f"{prefix}_counts": memory.counts.astype(np.float32),
        f"{prefix}_totals": memory.totals.astype(np.float32),
        f"{prefix}_prior": memory.prior.astype(np.float32),
    }


def _memory(
    archive: Any,
    prefix: str,
    smoothing: float,
    source: MemorySource,
    labels: int,
    combine: MemoryCombine = MEMORY_COMBINE,
) -> LabelMemory:
    """A stored label memory, its arrays' shapes checked against each other and the labels."""
    memory = LabelMemory(
        keys=[str(key) for key in _array(archive, f"{prefix}_keys")],
        counts=_array(archive, f"{prefix}_counts").astype(np.float32),
        totals=_array(archive, f"{prefix}_totals").astype(np.float32),
        prior=_array(archive, f"{prefix}_prior").astype(np.float32),
        smoothing=smoothing,
        source=source,
        combine=combine,
    )
    n_keys = len(memory.keys)
    if (
        memory.counts.shape != (n_keys, labels)
        or memory.totals.shape != (n_keys,)
        or memory.prior.shape != (labels,)
    ):
        raise ModelStoreError(
            f"stored model's {'path' if source == 'paths' else source} memory has counts"
            f" {memory.counts.shape}, totals"
            f" {memory.totals.shape} and prior {memory.prior.shape}; expected"
            f" ({n_keys}, {labels}), ({n_keys},) and ({labels},)"
        )
    return memory


def _array(archive: Any, name: str) -> np.ndarray:
    if name not in archive.files:
        raise ModelStoreError(f"stored model has no {name!r} array")
    return np.asarray(archive[name])


def _field_spec(stored: Any) -> FieldSpec:
    """A stored field's spec, checked: it decides which text is read and how it is cut."""
    if not isinstance(stored, dict):
        raise ModelStoreError(f"stored model has a feature field that is not a spec: {stored!r}")
    name = stored.get("name")
    if stored.get("source") not in FIELD_SOURCES:
        raise ModelStoreError(f"field {name!r} reads unknown text {stored.get('source')!r}")
    if stored.get("analyzer") not in ANALYZERS:
        raise ModelStoreError(f"field {name!r} has unknown analyzer {stored.get('analyzer')!r}")
    low, high = stored["ngram_range"]
    return FieldSpec(
        name=str(name),
        source=stored["source"],
        weight=float(stored["weight"]),
        analyzer=stored["analyzer"],
        ngram_range=(int(low), int(high)),
        token_pattern=str(stored["token_pattern"]),
        min_df=int(stored["min_df"]),
        max_df=float(stored["max_df"]),
    )


def _aliases(stored: Any) -> dict[str, str]:
    if not isinstance(stored, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in stored.items()
    ):
        raise ModelStoreError(f"stored model's aliases are not a map of tag names: {stored!r}")
    return dict(stored)


def model_from_bytes(payload: bytes, expected_sha256: str) -> ModuleModel:
    """Check the digest, then rebuild the model from arrays. Never unpickles."""
    actual = payload_sha256(payload)
    if actual != expected_sha256:
        raise ModelStoreError(
            f"stored model's sha256 is {actual}, expected {expected_sha256}: refusing to load it"
        )
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as archive:
            header = json.loads(str(_array(archive, "header")))
            if header.get("format") not in READABLE_FORMATS:
                raise ModelStoreError(
                    f"stored model has format {header.get('format')!r};"
                    f" this version reads formats {', '.join(map(str, READABLE_FORMATS))}:"
                    " retrain the classifier"
                )
            fields = []
            for position, stored_spec in enumerate(header["fields"]):
                spec = _field_spec(stored_spec)
                vocabulary = [str(term) for term in _array(archive, f"vocabulary_{position}")]
                idf = _array(archive, f"idf_{position}").astype(np.float64)
                if len(vocabulary) != len(idf):
                    raise ModelStoreError(f"field {spec.name!r}: vocabulary and idf lengths differ")
                fields.append(FittedField(spec, vocabulary, idf))
            labels = [str(label) for label in header["labels"]]
            aliases = _aliases(header.get("aliases", {}))  # absent from models before them
            coef = _array(archive, "coef").astype(np.float32)
            intercept = _array(archive, "intercept").astype(np.float32)
            thresholds = _array(archive, "thresholds").astype(np.float32)
            smoothing = float(header["memory_smoothing"])
            combine = header.get("memory_combine", "mean")  # absent before format 8
            if combine not in MEMORY_COMBINES:
                raise ModelStoreError(f"stored model's path memory combines by {combine!r}")
            memory = _memory(archive, "memory", smoothing, "paths", len(labels), combine)
            if header["format"] < AUTHOR_MEMORY_FORMAT:  # stored before it: no author memory
                author_memory = LabelMemory.fit([], np.zeros((0, len(labels))), source="author")
                author_weight = 0.0
            else:
                smoothing = float(header["author_memory_smoothing"])
                author_memory = _memory(archive, "author_memory", smoothing, "author", len(labels))
                author_weight = float(header["author_weight"])
    except ModelStoreError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError, OSError, zipfile.BadZipFile) as exc:
        if isinstance(exc, ValueError) and any(words in str(exc) for words in PICKLED_MESSAGE):
            raise PickledModelError(
                f"stored model holds pickled data and is never loaded; {RETRAIN}"
            ) from None
        raise ModelStoreError(f"stored model is not a readable model archive: {exc}") from exc
    n_features = sum(len(f.vocabulary) for f in fields)
    if coef.shape != (len(labels), n_features) or intercept.shape != (len(labels),):
        raise ModelStoreError(
            f"stored model's coefficients have shape {coef.shape}, expected"
            f" ({len(labels)}, {n_features})"
        )
    if thresholds.shape != (len(labels),):
        raise ModelStoreError("stored model has one threshold per label missing")
    return ModuleModel(
        labels=labels,
        aliases=aliases,
        fields=fields,
        coef=coef,
        intercept=intercept,
        title_bonus=float(header["title_bonus"]),
        path_bonus=float(header["path_bonus"]),
        memory=memory,
        memory_weight=float(header["memory_weight"]),
        author_memory=author_memory,
        author_weight=author_weight,
        platt_slope=float(header["platt_slope"]),
        platt_intercept=float(header["platt_intercept"]),
        thresholds=thresholds,
        min_top_probability=float(header["min_top_probability"]),
        min_share_of_top=float(header.get("min_share_of_top", 0.0)),
        version=str(header["version"]),
        trained_at=datetime.fromisoformat(header["trained_at"]),
        params=dict(header["params"]),
    )


class StoredModel(BaseModel):
    """A classifier read back from the warehouse, with the metrics it was trained with."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    repo: str
    model_version: str
    trained_at: datetime
    model: ModuleModel
    metrics: TrainingMetrics | None


def to_payload(
    repo: str, model: ModuleModel, metrics: TrainingMetrics | None = None
) -> StoredModelPayload:
    """A trained model as the warehouse stores it: archive bytes, their sha256, metrics."""
    payload = model_to_bytes(model)
    return StoredModelPayload(
        repo=repo,
        model_version=model.version,
        trained_at=model.trained_at,
        payload=payload,
        sha256=payload_sha256(payload),
        metrics_json=None if metrics is None else metrics.model_dump_json(),
    )


def from_payload(stored: StoredModelPayload) -> StoredModel:
    """The model a stored payload holds, after checking its digest; never unpickles.

    Raises ModelStoreError naming the repository and model version when the payload does not
    match its sha256 or is not a model archive: a broken model is an error to see, not a
    reason to silently retrain.
    """
    try:
        model = model_from_bytes(stored.payload, stored.sha256)
    except PickledModelError:
        raise PickledModelError(
            f"the stored model {stored.model_version} of {stored.repo} holds pickled data and is"
            f" never loaded; {RETRAIN}"
        ) from None
    except ModelStoreError as exc:
        raise ModelStoreError(
            f"module classifier {stored.model_version} of {stored.repo}: {exc}"
        ) from exc
    return StoredModel(
        repo=stored.repo,
        model_version=stored.model_version,
        trained_at=stored.trained_at,
        model=model,
        metrics=None
        if stored.metrics_json is None
        else TrainingMetrics.model_validate_json(stored.metrics_json),
    )
