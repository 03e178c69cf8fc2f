"""The per-repository module classifier: multi-label, linear, trained on the repo's tagged PRs.

Inputs per PR (see `features.py`): the title without its tags (as words and as character
n-grams), path tokens, path prefixes at depths 1-4 with the file names, and the description
without its template, each through its own TF-IDF, weighted and stacked. One LinearSVC per
module on top, plus (when validation prefers it) a small bonus when the title names the
module outright (which also helps modules too new to have many examples), plus a path label
memory: the log-lift of the modules that earlier PRs touching the same files (or
directories) carried, recent PRs counting more, which mostly helps the rarer modules, and
(where validation prefers it) the same memory of the modules the PR's author tagged before
(see `LabelMemory`).
Scores become probabilities through one Platt scaling fitted on the validation split; a PR's
modules are those over their thresholds with at least half its best module's probability.

Model selection is honest about time: the latest fifth of the tagged PRs validates, the rest
fits (the label mix drifts, so a random split would flatter the model). The chosen settings
are refitted on every tagged PR; in a busy repository the linear models see only the latest
`LINEAR_WINDOW` of them, the label memories all. The fitted model is data only (vocabularies,
idf vectors, coefficients, thresholds, memory counts), so it can be stored without pickle; see
`model_store.py`.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache, partial
from typing import Any, Literal, get_args

import numpy as np
import scipy.sparse as sp
import sklearn
from pydantic import BaseModel, ConfigDict, Field
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import normalize
from sklearn.svm import LinearSVC

from prhub_pipeline.config import ModulesConfig
from prhub_pipeline.modelling.tagging.features import PrFeatures, memory_features, pr_features
from prhub_pipeline.modelling.tagging.parallel import map_in_halves, run_calls
from prhub_pipeline.modelling.tagging.tags import (
    areas_of,
    ground_truth,
    learn_modules_config,
    split_joined_labels,
)
from prhub_pipeline.records import ModuleLabel, PullRequest, UnknownTag

# 3: adds the path label memory; 4: fields named apart from their source; 5: the author memory;
# 6: the title's field reads its words and its type; 7: the further modules' share of the top;
# 8: the path memory takes a PR's most telling file, not the mean of its files
MODEL_FORMAT = 8
VALIDATION_FRACTION = 0.2
MACRO_MIN_TRAINING_EXAMPLES = 10
# Predict a PR's best module even below its threshold, unless the model is this unsure.
MIN_TOP_PROBABILITY = 0.1
# A PR's further modules need at least this share of its best module's probability, besides
# their thresholds (which are tuned under this rule). Per-label thresholds alone let a
# runner-up through that the model ranks far below the PR's best module: on verl's later PRs
# 31 of 215 PRs carried an extra module. On thirteen time splits over four repositories mean
# micro-F1 0.658 -> 0.662 and macro 0.519 -> 0.522 (verl's later PRs 0.703 / 0.529 -> 0.727 /
# 0.545; no split lower by more than 0.005 micro); on eight further splits over five
# repositories it was even (micro +0.0015, macro -0.0003 on average; vllm-ascend's 2025-11
# split +0.012 micro and -0.015 macro, torchtitan's latest -0.009 micro). On the thirteen, a
# share of 0.35 gave 0.661 / 0.523 (verl's later PRs 0.714), 0.6 gave 0.660 / 0.519, the best
# module alone 0.648 / 0.504; a share chosen per repository on the validation fifth did worse
# than a fixed one.
MIN_SHARE_OF_TOP = 0.5
THRESHOLD_GRID = tuple(round(t, 2) for t in np.arange(0.15, 0.71, 0.05))
PER_LABEL_THRESHOLD_MIN_POSITIVES = 5
# Validation positives worth as much as the global threshold when tuning a label's own.
THRESHOLD_SHRINKAGE = 10.0
# The candidates model selection compares: (SVM regularisation C, recency half-life in days
# or None for equal weights). Each costs a fit of every label; C=1.0 won on one of eight time
# splits over three repositories (by 0.005 micro) once the title's character n-grams were in.
CANDIDATES: tuple[tuple[float, float | None], ...] = ((0.25, None), (0.25, 180.0))
NAME_MATCH_BONUS = ((0.0, 0.0), (0.3, 0.0))  # (title, paths) decision bonus
SELECTION_THRESHOLD = -0.3  # decision threshold used only to compare candidates
# Path label memory: pseudo-count pulling a path's label mix toward its directory's, and the
# weight of its positive log-lift in the decision scores. Fixed, not selected: on verl's time
# splits a weight chosen on the validation fifth was nowhere better and on several worse.
MEMORY_SMOOTHING = 5.0
MEMORY_DEPTHS = (1, 2, 3, 4)
# A PR's memory share of a module is its largest over the PR's files, not their mean: a few
# telling files among many shared ones (tests, generated configs, utils) kept only part of
# their pull. verl #6957 ('[algo] ... critic value loss', `core_algos.py` among four generated
# trainer configs and three more files) was `trainer` alone, #7407 ('[megatron,veomni]', 14
# files, three of megatron) `veomni` alone; both now get the module they missed. The largest
# share is at least the mean, so the weight is below the mean's 0.125. On ten time splits over
# four repositories mean micro-F1 0.5632 -> 0.5673 and macro 0.4843 -> 0.4894 (verl's later
# PRs 0.7234 / 0.5485 -> 0.7280 / 0.5578; torchtitan +0.018 twice, slime 2026-01 -0.005 the
# worst); on three ColossalAI splits 0.4870 / 0.5736 -> 0.4947 / 0.5880 (2023-11 +0.030,
# 2023-07 -0.010). A narrow optimum: the largest share weighted 0.125 lost 0.015 on a
# ColossalAI split, weighted 0.08 0.014, weighted 0.15 lowered verl's later PRs.
MemoryCombine = Literal["mean", "max"]
MEMORY_COMBINES: frozenset[str] = frozenset(get_args(MemoryCombine))
MEMORY_COMBINE: MemoryCombine = "max"
MEMORY_WEIGHT = 0.1
MEMORY_MIN_SHARE = 1e-4  # floor of shares and prior before the log-lift
# Older PRs count less in the memory (half weight a year back): which module a directory's
# PRs carry drifts (verl's Ascend Dockerfiles went from `ci` to `env`). On eight time splits
# over four repositories it raised mean micro-F1 0.620 -> 0.625 and macro 0.480 -> 0.487,
# no split lower by more than 0.001; half-lives of 90 and 180 days were less even.
MEMORY_HALF_LIFE_DAYS = 365.0
# Weights of the author's label memory that validation chooses from. Authors keep to their
# areas, though less than files do (for an author with five earlier tagged PRs, the module they
# used most is among a later PR's own 24% of the time in verl, 47% in vllm-ascend), so the
# weight is chosen per repository, 0 where it does not help. On eleven time splits over seven
# repositories it raised mean micro-F1 0.662 -> 0.668 (vllm-ascend +0.023, slime +0.026, verl
# 2026-01 +0.023, tilelang +0.010; verl 2026-03 -0.011, six rows unchanged); a fixed weight of
# 0.3 or 0.6 lost up to 0.03 on tilelang.
AUTHOR_WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.5)
# The linear models fit only the latest this many tagged PRs (and validate on their latest
# fifth); the label memories remember every one. A busy repository's older titles and
# descriptions describe code that has moved on, and the fits' cost grows with PRs x modules:
# apache/tvm's 5,347 tagged PRs since 2022 (120 modules) took 6.7 s to train, 4.6 s with the
# window, and two time splits of it rose in micro-F1 0.595 -> 0.605 and 0.627 -> 0.641 (macro
# 0.431 -> 0.469, 0.490 -> 0.491); of sixteen splits over five smaller repositories only
# vllm-ascend's latest had more tagged PRs, and it moved by 0.001. Windows of 2,000-2,500
# scored as well on micro-F1 but less evenly on macro, 4,000 barely differed from none.
LINEAR_WINDOW = 3000


FieldSource = Literal["title", "title_and_type", "path_tokens", "path_prefixes", "description"]
Analyzer = Literal["word", "char_wb"]
FIELD_SOURCES: frozenset[str] = frozenset(get_args(FieldSource))
ANALYZERS: frozenset[str] = frozenset(get_args(Analyzer))


@dataclass(frozen=True)
class FieldSpec:
    """One vectorised view of a PrFeatures text field: which field, how it is cut, its weight."""

    name: str  # unique; the stored model names its fields by it
    source: FieldSource
    weight: float
    analyzer: Analyzer = "word"
    ngram_range: tuple[int, int] = (1, 1)
    token_pattern: str = r"(?u)\b\w\w+\b"
    min_df: int = 1
    max_df: float = 1.0


FIELDS = (
    # The title's words and the kind of change they say, one word (`__feat__` for `Add ...`,
    # `Support ...`, `Introduce ...`): the verbs a type stands for are many, each with few
    # examples. On eighteen time splits over six repositories mean micro-F1 0.650 -> 0.653 and
    # macro 0.516 -> 0.520, micro higher on 13 and lower on 4 (tilelang +0.027 and +0.026,
    # verl before 2026-01 +0.016; LLaMA-Factory's latest -0.037).
    FieldSpec("title", "title_and_type", 1.0, ngram_range=(1, 2)),
    # Character n-grams within words: inflections, identifiers and version strings
    # (`kernels`, `tma_copy`, `qwen2.5`) share pieces with the words the training titles used.
    # On repositories with few tagged PRs and short titles this is worth 0.03-0.04 micro-F1.
    # Lengths 3-4 only: they scored as 2-5 did (mean of sixteen time splits over five
    # repositories 0.663 / 0.523 against 0.662 / 0.524) with 45% fewer stored terms, and
    # these n-grams are most of a PR's nonzeros: the label fits on 8,116 tagged PRs take
    # 4.4 s, not 6.1.
    FieldSpec("title_chars", "title", 1.0, analyzer="char_wb", ngram_range=(3, 4), min_df=2),
    FieldSpec("path_tokens", "path_tokens", 1.0),
    FieldSpec("path_prefixes", "path_prefixes", 1.0, token_pattern=r"\S+"),
    FieldSpec("description", "description", 0.5, min_df=2, max_df=0.5),
)


def _analysis(spec: FieldSpec) -> dict[str, Any]:
    """How a field's texts are cut into terms, as vectorizer parameters."""
    return {
        "analyzer": spec.analyzer,
        "ngram_range": spec.ngram_range,
        "token_pattern": spec.token_pattern if spec.analyzer == "word" else None,
        "dtype": np.float64,  # liblinear works in float64; anything else is copied per fit
    }


def _vectorizer(spec: FieldSpec, vocabulary: list[str]) -> TfidfVectorizer:
    return TfidfVectorizer(sublinear_tf=True, vocabulary=vocabulary, **_analysis(spec))


@dataclass
class FittedField:
    """A field's fitted TF-IDF: its vocabulary in column order and idf weights. Data only."""

    spec: FieldSpec
    vocabulary: list[str]
    idf: np.ndarray
    _vectorizer: TfidfVectorizer | None = field(default=None, repr=False, compare=False)

    def transform(self, texts: Sequence[str]) -> sp.csr_matrix:
        if not self.vocabulary:
            return sp.csr_matrix((len(texts), 0))
        if self._vectorizer is None:
            vectorizer = _vectorizer(self.spec, vocabulary=self.vocabulary)
            vectorizer.idf_ = self.idf
            self._vectorizer = vectorizer
        return sp.csr_matrix(self._vectorizer.transform(texts) * self.spec.weight)


@dataclass(frozen=True)
class FieldCounts:
    """A field's raw term counts over every training PR: its texts analysed and counted once.

    Training needs the field's TF-IDF three times (the fitting PRs; the validation PRs under
    the fitting PRs' vocabulary; all PRs for the refit). Each is derived from these counts as
    TfidfVectorizer computes it (sublinear tf, smoothed idf, L2-normalised rows), so
    `FittedField.transform` gives the same rows for the same texts.
    """

    spec: FieldSpec
    terms: np.ndarray  # (terms,) in column order
    counts: sp.csr_matrix  # (PRs, terms)

    @classmethod
    def count(cls, spec: FieldSpec, texts: Sequence[str]) -> FieldCounts:
        counter = CountVectorizer(**_analysis(spec))
        try:
            counts = sp.csr_matrix(counter.fit_transform(texts))
        except ValueError:  # no terms at all (e.g. no PR lists its files)
            return cls(spec, np.array([], dtype=np.str_), sp.csr_matrix((len(texts), 0)))
        return cls(spec, counter.get_feature_names_out(), counts)

    def fit(self, rows: slice) -> tuple[FittedField, np.ndarray, sp.csr_matrix]:
        """The field fitted on `rows`: its vocabulary and idf, their columns here, the rows'
        weighted TF-IDF."""
        counts = self.counts[rows]
        n_documents = counts.shape[0]
        document_frequency = np.bincount(counts.indices, minlength=counts.shape[1])
        # Document-frequency pruning only once there are enough documents to prune by.
        enough = n_documents >= 50
        min_df = self.spec.min_df if enough else 1
        max_df = self.spec.max_df if enough else 1.0
        columns = np.flatnonzero(
            (document_frequency >= max(min_df, 1)) & (document_frequency <= max_df * n_documents)
        )
        idf = np.log((1 + n_documents) / (1 + document_frequency[columns])) + 1.0
        fitted = FittedField(self.spec, [str(term) for term in self.terms[columns]], idf)
        return fitted, columns, self.tfidf(rows, columns, idf)

    def tfidf(self, rows: slice, columns: np.ndarray, idf: np.ndarray) -> sp.csr_matrix:
        """`rows` as weighted TF-IDF over `columns`."""
        matrix = sp.csr_matrix(self.counts[rows][:, columns])
        if not len(columns):  # pruning left no terms (e.g. no PR has a description)
            return matrix
        matrix.data = np.log(matrix.data) + 1.0  # sublinear tf
        matrix = sp.csr_matrix(matrix @ sp.diags(idf))
        return sp.csr_matrix(normalize(matrix) * self.spec.weight)


def _name_variants(label: str) -> tuple[str, ...]:
    spaced = label.replace("_", " ")
    return tuple({f" {spaced} ", f" {label.replace('_', '')} "})


def name_matches(texts: Sequence[str], labels: Sequence[str]) -> np.ndarray:
    """1 where a text names a module as words (`fully async`, `fully_async`, `fullyasync`)."""
    variants = [_name_variants(label) for label in labels]
    matches = np.zeros((len(texts), len(labels)), dtype=np.float32)
    for row, text in enumerate(texts):
        words = " " + re.sub(r"[^a-z0-9]+", " ", text.lower()) + " "
        for column, names in enumerate(variants):
            if any(name in words for name in names):
                matches[row, column] = 1.0
    return matches


@lru_cache(maxsize=65536)  # training counts every PR's paths four times over
def memory_keys(path: str) -> tuple[str, ...]:
    """A path's directories at MEMORY_DEPTHS (ending in `/`), then the path itself."""
    parts = path.split("/")
    directories = ["/".join(parts[:depth]) + "/" for depth in MEMORY_DEPTHS if depth < len(parts)]
    return (*directories, path)


MemorySource = Literal["paths", "author"]


def memory_items(pr: PrFeatures, source: MemorySource) -> list[str]:
    """What a memory of `source` remembers a PR by: its changed paths, or its author."""
    if source == "author":
        return [pr.author] if pr.author else []
    return pr.paths.splitlines()


def item_keys(item: str, source: MemorySource) -> tuple[str, ...]:
    """An item's keys, broadest first: a path's directories and the path; an author's name."""
    return memory_keys(item) if source == "paths" else (item,)


@dataclass
class LabelMemory:
    """Which modules the PRs that touched a file (or directory), or that one author opened,
    belonged to. Data only.

    A PR's memory share of a module is the largest (`MEMORY_COMBINE`; the mean in models
    stored before format 8) over its items (changed files; its author) of that module's share
    among the training PRs with the item, backed off to a file's directories (and to the
    overall mix) where the item has little history. Its score is the (positive) log-lift of
    that share over the overall mix, so the memory favours what is unusual for these files or
    this author rather than what is common everywhere, which matters for the rare modules.
    """

    keys: list[str]
    counts: np.ndarray  # (keys, labels): PRs with the key and each module
    totals: np.ndarray  # (keys,): PRs with the key
    prior: np.ndarray  # (labels,): the overall module mix
    smoothing: float = MEMORY_SMOOTHING
    source: MemorySource = "paths"
    combine: MemoryCombine = MEMORY_COMBINE  # how a PR's items' shares make its own
    _index: dict[str, int] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def fit(
        cls,
        features: Sequence[PrFeatures],
        y: np.ndarray,
        weights: np.ndarray | None = None,
        source: MemorySource = "paths",
    ) -> LabelMemory:
        """The memory of `features` with modules `y`, each PR counted with its weight (1 when
        `weights` is None)."""
        index: dict[str, int] = {}
        rows: list[int] = []
        columns: list[int] = []
        for row, pr in enumerate(features):
            items = memory_items(pr, source)
            for key in {key for item in items for key in item_keys(item, source)}:
                rows.append(row)
                columns.append(index.setdefault(key, len(index)))
        incidence = sp.csr_matrix(
            (np.ones(len(rows)), (rows, columns)), shape=(len(features), len(index))
        ).T.tocsr()
        w = np.ones(len(features)) if weights is None else np.asarray(weights, dtype=np.float64)
        weighted_y = y.astype(np.float64) * w[:, None]
        counts = np.asarray(incidence @ weighted_y, dtype=np.float32)
        totals = np.asarray(incidence @ w, dtype=np.float32).reshape(-1)
        prior = weighted_y.sum(axis=0) / w.sum() if len(y) else np.zeros(y.shape[1])
        keys = sorted(index, key=index.__getitem__)
        return cls(keys, counts, totals, prior.astype(np.float32), MEMORY_SMOOTHING, source)

    def log_lift(self, features: Sequence[PrFeatures]) -> np.ndarray:
        """(PRs, labels): log of each PR's memory share over the overall mix, where positive.

        Only the positive part: the memory raises modules these files (or this author) suggest
        but never vetoes one the text names (a module's first PRs touch files with no history
        of it).
        """
        shares = np.maximum(self.shares(features), MEMORY_MIN_SHARE)
        return np.maximum(np.log(shares / np.maximum(self.prior, MEMORY_MIN_SHARE)), 0.0)

    def shares(self, features: Sequence[PrFeatures]) -> np.ndarray:
        if self._index is None:
            self._index = {key: position for position, key in enumerate(self.keys)}
        index = self._index
        cache: dict[str, np.ndarray] = {}
        result = np.tile(self.prior.astype(np.float64), (len(features), 1))
        for row, pr in enumerate(features):
            items = memory_items(pr, self.source)
            if not items:
                continue
            item_shares = []
            for item in items:
                share = cache.get(item)
                if share is None:
                    share = self.prior.astype(np.float64)
                    for key in item_keys(item, self.source):
                        position = index.get(key)
                        if position is not None:
                            share = (self.counts[position] + self.smoothing * share) / (
                                self.totals[position] + self.smoothing
                            )
                    cache[item] = share
                item_shares.append(share)
            combine = np.max if self.combine == "max" else np.mean
            result[row] = combine(item_shares, axis=0)
        return result


@dataclass
class ModuleModel:
    """A fitted module classifier, as plain arrays (safe to serialise without pickle)."""

    labels: list[str]
    # Other spellings of the labels (`docs` -> `doc`), as learned with them; see
    # `learn_modules_config`. Empty for a repository whose config lists its modules.
    aliases: dict[str, str]
    fields: list[FittedField]
    coef: np.ndarray  # (labels, features), float32
    intercept: np.ndarray  # (labels,)
    title_bonus: float
    path_bonus: float
    memory: LabelMemory
    memory_weight: float
    author_memory: LabelMemory
    author_weight: float
    platt_slope: float
    platt_intercept: float
    thresholds: np.ndarray  # (labels,) probability thresholds
    min_top_probability: float
    min_share_of_top: float
    version: str
    trained_at: datetime
    params: dict[str, float | None]

    def decision_function(self, features: Sequence[PrFeatures]) -> np.ndarray:
        blocks = [f.transform([getattr(x, f.spec.source) for x in features]) for f in self.fields]
        matrix = sp.hstack(blocks, format="csr") if blocks else sp.csr_matrix((len(features), 0))
        scores = np.asarray(matrix @ self.coef.T) + self.intercept
        scores += self.title_bonus * name_matches([x.title for x in features], self.labels)
        scores += self.path_bonus * name_matches([x.path_tokens for x in features], self.labels)
        if self.memory_weight:
            scores += self.memory_weight * self.memory.log_lift(features)
        if self.author_weight:
            scores += self.author_weight * self.author_memory.log_lift(features)
        return scores

    def predict_proba(self, features: Sequence[PrFeatures]) -> np.ndarray:
        return _sigmoid(self.platt_slope * self.decision_function(features) + self.platt_intercept)

    def predict(self, features: Sequence[PrFeatures]) -> list[list[str]]:
        """Each PR's modules: those over their threshold and near its most likely one, and at
        least that one."""
        return self.predict_from_proba(self.predict_proba(features))

    def predict_from_proba(self, probabilities: np.ndarray) -> list[list[str]]:
        decisions = _decide(
            probabilities, self.thresholds, self.min_top_probability, self.min_share_of_top
        )
        return [[self.labels[j] for j in np.flatnonzero(row)] for row in decisions]


def _sigmoid(values: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(values, -30, 30)))


def _near_top(probabilities: np.ndarray, min_share: float) -> np.ndarray:
    """The probabilities, those under `min_share` of their PR's best one set to zero."""
    if not probabilities.shape[1] or not min_share:
        return probabilities
    best = probabilities.max(axis=1, keepdims=True)
    return np.where(probabilities >= min_share * best, probabilities, 0.0)


def _decide(
    probabilities: np.ndarray, thresholds: np.ndarray, min_top: float, min_share: float = 0.0
) -> np.ndarray:
    """Each PR's modules: those over their threshold and near enough its best one (see
    `MIN_SHARE_OF_TOP`), and its best one unless under `min_top`."""
    chosen = _near_top(probabilities, min_share) >= thresholds
    if probabilities.shape[1]:
        rows = np.arange(len(probabilities))
        top = probabilities.argmax(axis=1)
        chosen[rows, top] |= probabilities[rows, top] >= min_top
    return chosen


class TrainingMetrics(BaseModel):
    model_config = ConfigDict(frozen=True)

    training_size: int  # tagged PRs the final model was fitted on
    # Of those, the latest, which the linear models fitted (the memories hold all).
    linear_training_size: int | None = None
    validation_size: int
    label_counts: dict[str, int]
    validation_micro_f1: float | None = None
    validation_macro_f1: float | None = None
    per_label_f1: dict[str, float] = Field(default_factory=dict)
    model_version: str | None = None
    train_seconds: float
    chosen_params: dict[str, float | None] = Field(default_factory=dict)
    # modules_settings_digest of the settings the model was trained under (None before it was
    # recorded).
    modules_settings: str | None = None
    # Of the PRs merged in the history's latest year, the share whose own tags name an area
    # (`area_tagged_share`; None before it was recorded).
    area_tagged_share: float | None = None


# How far back from the newest PR `area_tagged_share` looks: a convention adopted lately (verl's
# CI has checked title tags since 2025) is the one the PRs to come follow.
TAGGED_SHARE_DAYS = 365


def area_tagged_share(
    prs: Sequence[PullRequest], examples: Sequence[tuple[PullRequest, list[str]]]
) -> float | None:
    """Of `prs` merged in the TAGGED_SHARE_DAYS up to the newest, the share among `examples`
    (the tagged PRs, with their modules) whose tags name an area, not only a kind of change.

    A repository that tags few of its PRs tags a kind of PR, not a sample of them: slime's
    tags (17% of a year's PRs) are mostly `[docker]` and `[docs]`, so a model trained on them
    called a loss fix `ci` and a vendored library `docker`. torchtitan's (42%) name its
    experiments (`[graph_trainer]`, `[rl]`), not the core the untagged PRs change; verl tags
    92%, vllm-ascend 58%."""
    if not prs:
        return None
    since = max(pr.merged_at for pr in prs) - timedelta(days=TAGGED_SHARE_DAYS)
    recent = sum(pr.merged_at >= since for pr in prs)
    tagged = sum(pr.merged_at >= since and bool(areas_of(modules)) for pr, modules in examples)
    return round(tagged / recent, 4)


def modules_settings_digest(config: ModulesConfig) -> str:
    """The modules settings a model's labels depend on, as a digest. A model trained under
    others (another module list or aliases, or a training minimum the history no longer
    meets) is not the one these settings would train, so it does not label."""
    settings = config.model_dump(
        mode="json",
        include={"allowed", "aliases", "label_modules", "min_label_prs", "min_training_prs"},
    )
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]


class TrainingResult(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    status: Literal["trained", "insufficient_training_data"]
    message: str
    model: ModuleModel | None = None
    metrics: TrainingMetrics


class WeekLabels(BaseModel):
    model_config = ConfigDict(frozen=True)

    labels: list[ModuleLabel]
    unknown: list[UnknownTag]
    unlabelled: list[int] = Field(default_factory=list)  # PRs neither tags nor a model labelled
    # PRs tagged only with what kind of change they are (`[BugFix]`) that the model gave areas.
    areas_from_model: list[int] = Field(default_factory=list)


def tagged_examples(
    prs: Sequence[PullRequest], config: ModulesConfig
) -> list[tuple[PullRequest, list[str]]]:
    """PRs the repository tagged itself, with their modules, oldest merge first."""
    examples = [(pr, ground_truth(pr, config).modules) for pr in prs]
    return sorted(
        ((pr, modules) for pr, modules in examples if modules),
        key=lambda item: (item[0].merged_at, item[0].number),
    )


def time_ordered_split(n: int, fraction: float = VALIDATION_FRACTION) -> tuple[range, range]:
    """(fit, validate) index ranges over time-sorted examples: the latest `fraction` validates."""
    n_validate = min(max(1, round(n * fraction)), n - 1) if n > 1 else 0
    return range(n - n_validate), range(n - n_validate, n)


def _fit_linear(
    x: sp.csr_matrix, y: np.ndarray, c: float, weights: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """One LinearSVC per label column; a label every (or no) PR has gets a constant score.

    Each fit is seeded and they run one after another: liblinear draws from the C library's
    process-wide random generator, so fits in threads would make training irreproducible
    (`_fit_jobs` runs them in processes instead).
    """
    x.sort_indices()  # once here, instead of a sorted copy in every fit
    coef = np.zeros((y.shape[1], x.shape[1]), dtype=np.float32)
    intercept = np.zeros(y.shape[1], dtype=np.float32)

    # TF-IDF values are finite by construction; checking that again in every fit took a
    # third of the fits' time.
    with sklearn.config_context(assume_finite=True):
        for j in range(y.shape[1]):
            positives = int(y[:, j].sum())
            if positives in (0, len(y)):
                intercept[j] = 1.0 if positives else -1.0
                continue
            svm = LinearSVC(C=c, tol=1e-3, random_state=0).fit(x, y[:, j], sample_weight=weights)
            coef[j] = svm.coef_[0]
            intercept[j] = svm.intercept_[0]
    return coef, intercept


FitJob = tuple[sp.csr_matrix, np.ndarray, float, np.ndarray | None]  # _fit_linear's arguments


def _fit_jobs(jobs: Sequence[FitJob]) -> list[tuple[np.ndarray, np.ndarray]]:
    """`_fit_linear` of each job, side by side where a second core allows (`run_calls`).

    The results are the same either way: every fit is seeded, and each process has its own
    liblinear random generator.
    """
    return run_calls([partial(_fit_linear, *job) for job in jobs])


def _features(prs: Sequence[PullRequest], config: ModulesConfig) -> list[PrFeatures]:
    return [pr_features(pr, config) for pr in prs]


def _count_fields(features: Sequence[PrFeatures]) -> list[FieldCounts]:
    """Every field's counts, in FIELDS order: the two costliest (the title's character n-grams
    and the description) beside the rest."""

    def count(specs: Sequence[FieldSpec]) -> list[FieldCounts]:
        return [FieldCounts.count(s, [getattr(f, s.source) for f in features]) for s in specs]

    costly = {"title_chars", "description"}
    parts = [[s for s in FIELDS if s.name in costly], [s for s in FIELDS if s.name not in costly]]
    counted = {
        c.spec.name: c for part in run_calls([partial(count, p) for p in parts]) for c in part
    }
    return [counted[spec.name] for spec in FIELDS]


def _recency_weights(dates: Sequence[datetime], half_life: float | None) -> np.ndarray | None:
    if half_life is None:
        return None
    latest = max(dates)
    ages = np.array([(latest - d).total_seconds() / 86400 for d in dates])
    weights = 0.5 ** (ages / half_life)
    return weights / weights.mean()


def _macro_columns(train_y: np.ndarray, test_y: np.ndarray) -> list[int]:
    return [
        j
        for j in range(train_y.shape[1])
        if train_y[:, j].sum() >= MACRO_MIN_TRAINING_EXAMPLES and test_y[:, j].sum() >= 1
    ]


def label_f1(truth: np.ndarray, predicted: np.ndarray) -> np.ndarray:
    """F1 of each label column (0 where a label is neither true nor predicted)."""
    truth, predicted = truth.astype(bool), predicted.astype(bool)
    true_positives = (truth & predicted).sum(axis=0)
    denominator = truth.sum(axis=0) + predicted.sum(axis=0)
    return np.divide(
        2 * true_positives, denominator, out=np.zeros(truth.shape[1]), where=denominator > 0
    )


def micro_f1(truth: np.ndarray, predicted: np.ndarray) -> float:
    truth, predicted = truth.astype(bool), predicted.astype(bool)
    denominator = truth.sum() + predicted.sum()
    return float(2 * (truth & predicted).sum() / denominator) if denominator else 0.0


def _f1s(
    truth: np.ndarray, predicted: np.ndarray, macro_columns: Sequence[int]
) -> tuple[float, float | None]:
    micro = micro_f1(truth, predicted)
    if not macro_columns:
        return micro, None
    return micro, float(label_f1(truth, predicted)[list(macro_columns)].mean())


def _tune_thresholds(probabilities: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """A global threshold, then per label where validation has enough positives to tell, for
    the modules near their PR's best (`MIN_SHARE_OF_TOP`): a runner-up the share rule drops
    does not count against a label's threshold.

    The global one is the best by validation micro-F1 averaged with its neighbours on the grid:
    the curve is flat and noisy near its top, and five relabelled PRs of vllm-ascend's 3000
    moved its best point from 0.7 to 0.45 (and test micro-F1 by 0.007). On eleven time splits
    over seven repositories the smoothed choice moved micro-F1 by at most 0.003 either way.
    """
    probabilities = _near_top(probabilities, MIN_SHARE_OF_TOP)
    f1s_by_threshold = [
        micro_f1(truth, _decide(probabilities, np.full(truth.shape[1], t), MIN_TOP_PROBABILITY))
        for t in THRESHOLD_GRID
    ]
    smoothed = [
        float(np.mean(f1s_by_threshold[max(0, i - 1) : i + 2])) for i in range(len(THRESHOLD_GRID))
    ]
    best_global = THRESHOLD_GRID[int(np.argmax(smoothed))]
    thresholds = np.full(truth.shape[1], best_global, dtype=np.float32)
    grid = np.array(THRESHOLD_GRID)
    for j in range(truth.shape[1]):
        if truth[:, j].sum() < PER_LABEL_THRESHOLD_MIN_POSITIVES:
            continue
        column_truth = np.repeat(truth[:, [j]], len(grid), axis=1)
        f1s = label_f1(column_truth, probabilities[:, [j]] >= grid)
        # Ties go to the threshold nearest the global one; a label's own best threshold is
        # shrunk toward the global one by how few validation positives chose it.
        positives = float(truth[:, j].sum())
        own = grid[np.lexsort((np.abs(grid - best_global), -f1s))[0]]
        thresholds[j] = (positives * own + THRESHOLD_SHRINKAGE * best_global) / (
            positives + THRESHOLD_SHRINKAGE
        )
    return thresholds


def _calibrate(scores: np.ndarray, truth: np.ndarray) -> tuple[float, float, np.ndarray]:
    """One Platt scaling for every label (slope, offset) and the labels' thresholds on the
    probabilities it gives, fitted on `truth`."""
    platt = (
        LogisticRegression(C=1.0).fit(scores.reshape(-1, 1), truth.reshape(-1).astype(int))
        if 0 < truth.sum() < truth.size
        else None
    )
    slope = float(platt.coef_[0, 0]) if platt is not None else 1.0
    offset = float(platt.intercept_[0]) if platt is not None else 0.0
    return slope, offset, _tune_thresholds(_sigmoid(slope * scores + offset), truth)


def cross_fitted_modules(scores: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """The validation PRs' modules, each half's decided with the scaling and thresholds fitted
    on the other half: F1 measured on the PRs that tuned them overstated the model (by 0.02
    to 0.03 micro-F1 on verl, slime and torchtitan)."""
    predicted = np.zeros(truth.shape, dtype=bool)
    halves = np.array_split(np.arange(len(truth)), 2)
    if len(truth) < 2:  # one validation PR: no other half to tune on
        halves = [np.arange(len(truth))] * 2
    for tuned, measured in ((halves[0], halves[1]), (halves[1], halves[0])):
        slope, offset, thresholds = _calibrate(scores[tuned], truth[tuned])
        predicted[measured] = _decide(
            _sigmoid(slope * scores[measured] + offset),
            thresholds,
            MIN_TOP_PROBABILITY,
            MIN_SHARE_OF_TOP,
        )
    return predicted


def _insufficient(
    message: str, counts: Counter[str], size: int, started: float, tagged_share: float | None
) -> TrainingResult:
    return TrainingResult(
        status="insufficient_training_data",
        message=message,
        metrics=TrainingMetrics(
            training_size=size,
            validation_size=0,
            label_counts=dict(counts.most_common()),
            train_seconds=round(time.perf_counter() - started, 3),
            area_tagged_share=tagged_share,
        ),
    )


def train_module_classifier(
    prs: Sequence[PullRequest], config: ModulesConfig, *, now: datetime | None = None
) -> TrainingResult:
    """Select settings on the latest fifth of the tagged PRs, then refit on all of them.

    Returns status `insufficient_training_data` (and no model) when fewer than
    `config.min_training_prs` PRs carry a valid tag, or when they use fewer than two modules.
    """
    started = time.perf_counter()
    lists_modules = config.allowed is not None
    settings_digest = modules_settings_digest(config)
    config = learn_modules_config(prs, config)
    examples = tagged_examples(prs, config)
    counts: Counter[str] = Counter(m for _, modules in examples for m in modules)
    tagged_share = area_tagged_share(prs, examples)
    if len(examples) < config.min_training_prs:
        return _insufficient(
            f"{len(examples)} tagged PRs, fewer than min_training_prs={config.min_training_prs}",
            counts,
            len(examples),
            started,
            tagged_share,
        )
    labels = sorted(counts)
    if len(labels) < 2:
        return _insufficient(
            f"the tagged PRs use {len(labels)} module(s); a classifier needs at least two",
            counts,
            len(examples),
            started,
            tagged_share,
        )
    index = {label: j for j, label in enumerate(labels)}
    # Rows from `start` on are the linear models' window; the PRs before it feed only the
    # memories, which read nothing but their paths and authors.
    start = max(0, len(examples) - LINEAR_WINDOW)
    features = [memory_features(pr) for pr, _ in examples[:start]] + map_in_halves(
        partial(_features, config=config), [pr for pr, _ in examples[start:]]
    )
    dates = [pr.merged_at for pr, _ in examples]
    y = np.zeros((len(examples), len(labels)), dtype=np.int8)
    for row, (_, modules) in enumerate(examples):
        y[row, [index[m] for m in modules]] = 1

    counted = _count_fields(features[start:])  # rows relative to the window
    window_fit, window_validate = time_ordered_split(len(examples) - start)
    fitting, validating = slice(0, window_fit.stop), slice(window_validate.start, None)
    fit_rows = range(start, start + window_fit.stop)
    validate_rows = range(start + window_validate.start, len(examples))
    remembered = slice(validate_rows.start)  # every PR before the validation PRs
    validate_features = [features[i] for i in validate_rows]
    fit_fields = [field_counts.fit(fitting) for field_counts in counted]
    x_fit = sp.hstack([m for _, _, m in fit_fields], format="csr")
    x_validate = sp.hstack(
        [
            field_counts.tfidf(validating, columns, fitted.idf)
            for field_counts, (fitted, columns, _) in zip(counted, fit_fields, strict=True)
        ],
        format="csr",
    )
    y_fit, y_validate = y[list(fit_rows)], y[list(validate_rows)]
    title_matches = name_matches([f.title for f in validate_features], labels)
    path_matches = name_matches([f.path_tokens for f in validate_features], labels)
    macro_columns = _macro_columns(y_fit, y_validate)
    # The validation PRs' memory holds only the earlier PRs, as a new PR's would.
    fit_dates = [dates[i] for i in fit_rows]
    remembered_weights = _recency_weights(dates[remembered], MEMORY_HALF_LIFE_DAYS)
    fit_memory = LabelMemory.fit(features[remembered], y[remembered], remembered_weights)
    memory_scores = MEMORY_WEIGHT * fit_memory.log_lift(validate_features)
    fit_authors = LabelMemory.fit(
        features[remembered], y[remembered], remembered_weights, source="author"
    )
    author_scores = fit_authors.log_lift(validate_features)

    best: tuple[float, dict[str, float | None], np.ndarray] | None = None
    candidate_fits = _fit_jobs(
        [(x_fit, y_fit, c, _recency_weights(fit_dates, half_life)) for c, half_life in CANDIDATES]
    )
    for (c, half_life), (coef, intercept) in zip(CANDIDATES, candidate_fits, strict=True):
        raw = np.asarray(x_validate @ coef.T) + intercept + memory_scores
        for (title_bonus, path_bonus), author_weight in (
            (bonus, weight) for bonus in NAME_MATCH_BONUS for weight in AUTHOR_WEIGHTS
        ):
            scores = raw + title_bonus * title_matches + path_bonus * path_matches
            scores = scores + author_weight * author_scores
            predicted = _decide(scores, np.full(len(labels), SELECTION_THRESHOLD), -np.inf)
            micro, macro = _f1s(y_validate, predicted, macro_columns)
            score = micro if macro is None else (micro + macro) / 2
            if best is None or score > best[0]:
                params = {
                    "C": c,
                    "half_life_days": half_life,
                    "title_bonus": title_bonus,
                    "path_bonus": path_bonus,
                    "author_weight": author_weight,
                }
                best = (score, params, scores)
    assert best is not None
    _, params, validate_scores = best

    # One Platt scaling for every label (scores -> probabilities) and the thresholds, fitted on
    # validation; the F1s reported are of predictions each half of it got from the other's.
    slope, offset, thresholds = _calibrate(validate_scores, y_validate)
    validate_predicted = cross_fitted_modules(validate_scores, y_validate)
    micro, macro = _f1s(y_validate, validate_predicted, macro_columns)
    per_label = label_f1(y_validate, validate_predicted)
    per_label_f1 = {
        labels[j]: round(float(per_label[j]), 4)
        for j in range(len(labels))
        if y_validate[:, j].sum() or validate_predicted[:, j].sum()
    }

    all_fields = [field_counts.fit(slice(None)) for field_counts in counted]
    x_all = sp.hstack([m for _, _, m in all_fields], format="csr")
    c = float(params["C"] or 1.0)
    weights = _recency_weights(dates[start:], params["half_life_days"])
    halves = np.array_split(np.arange(len(labels)), 2)  # the labels, fitted in two jobs
    label_fits = _fit_jobs([(x_all, y[start:, half], c, weights) for half in halves])
    coef = np.vstack([half_coef for half_coef, _ in label_fits])
    intercept = np.concatenate([half_intercept for _, half_intercept in label_fits])
    memory_weights = _recency_weights(dates, MEMORY_HALF_LIFE_DAYS)
    memory = LabelMemory.fit(features, y, memory_weights)
    author_memory = LabelMemory.fit(features, y, memory_weights, source="author")
    trained_at = (now or datetime.now(UTC)).astimezone(UTC)
    digest = hashlib.sha256(coef.tobytes() + intercept.tobytes()).hexdigest()[:12]
    model = ModuleModel(
        labels=labels,
        aliases={} if lists_modules else dict(config.aliases),
        fields=[fitted for fitted, _, _ in all_fields],
        coef=coef,
        intercept=intercept,
        title_bonus=float(params["title_bonus"] or 0.0),
        path_bonus=float(params["path_bonus"] or 0.0),
        memory=memory,
        memory_weight=MEMORY_WEIGHT,
        author_memory=author_memory,
        author_weight=float(params["author_weight"] or 0.0),
        platt_slope=slope,
        platt_intercept=offset,
        thresholds=thresholds,
        min_top_probability=MIN_TOP_PROBABILITY,
        min_share_of_top=MIN_SHARE_OF_TOP,
        version=f"svm-v{MODEL_FORMAT}-{trained_at:%Y%m%dT%H%M%SZ}-{digest}",
        trained_at=trained_at,
        params=params,
    )
    metrics = TrainingMetrics(
        training_size=len(examples),
        linear_training_size=len(examples) - start,
        validation_size=len(validate_rows),
        label_counts=dict(counts.most_common()),
        validation_micro_f1=round(micro, 4),
        validation_macro_f1=None if macro is None else round(macro, 4),
        per_label_f1=per_label_f1,
        model_version=model.version,
        train_seconds=round(time.perf_counter() - started, 3),
        chosen_params=params,
        modules_settings=settings_digest,
        area_tagged_share=tagged_share,
    )
    return TrainingResult(
        status="trained",
        message=f"trained on {len(examples)} tagged PRs"
        + (f" (the linear models on the latest {LINEAR_WINDOW})" if start else "")
        + f", {len(labels)} modules",
        model=model,
        metrics=metrics,
    )


@dataclass(frozen=True)
class LabelSpellings:
    """A repository's learned labels and their other spellings (`graphtrainer` ->
    `graph_trainer`), as `learn_modules_config` finds them in its tagged history."""

    labels: Sequence[str]
    aliases: Mapping[str, str]

    @classmethod
    def learned(cls, prs: Sequence[PullRequest], config: ModulesConfig) -> LabelSpellings:
        learned = learn_modules_config(prs, config)
        return cls(learned.allowed or [], learned.aliases)


def label_week(
    prs: Sequence[PullRequest],
    model: ModuleModel | None,
    config: ModulesConfig,
    spellings: LabelSpellings | None = None,
    min_probability: float = 0.0,
) -> WeekLabels:
    """Each PR's modules: its own valid tags (title, else labels) at confidence 1.0; the
    model's prediction of areas (no type-only or status label) for PRs without them. Unknown
    tags are returned, not dropped.

    A PR whose own tags only say what kind of change it is (`[BugFix] ...`, in a repository
    that learned `bugfix` as a label) keeps them, and the model adds where the change happened
    (areas only), so the report can list it with its area's other changes.

    Without a module list, tags are read in the spellings the model learned, or `spellings`
    where no model labels: torchtitan's `[graphtrainer]` and `[graph_trainer]` are one module.
    The model's predictions under `min_probability` are dropped
    (`modules.min_probability_under_share`).
    """
    labels: list[ModuleLabel] = []
    unknown: list[UnknownTag] = []
    untagged: list[PullRequest] = []
    type_tagged: list[PullRequest] = []
    if model is not None:
        spellings = LabelSpellings(model.labels, model.aliases)
    if spellings is not None and config.allowed is None:
        config = config.model_copy(update={"aliases": {**spellings.aliases, **config.aliases}})
    for pr in prs:
        truth = ground_truth(pr, config)
        unknown.extend(UnknownTag(repo=pr.repo, number=pr.number, tag=t) for t in truth.unknown)
        if truth.origin is None:
            untagged.append(pr)
            continue
        modules = truth.modules
        if spellings is not None and config.allowed is None:
            modules = split_joined_labels(modules, spellings.labels, config.aliases)
        labels.extend(
            ModuleLabel(
                repo=pr.repo, number=pr.number, module=m, origin=truth.origin, confidence=1.0
            )
            for m in modules
        )
        if not areas_of(modules):
            type_tagged.append(pr)
    if model is None:
        return WeekLabels(labels=labels, unknown=unknown, unlabelled=[p.number for p in untagged])
    # A guess says where a change happened, never only what kind it is: LLaMA-Factory's model,
    # trained on its `[misc]`, `[feat]` and `[fix]` titles, guessed `misc` alone for 34 untagged
    # PRs ("Ray Train integration with LLaMA-Factory", #6542) and `fix` beside an area for more
    # (#10276, "fix:MiniCPMVPlugin IndexError ..."): a kind is its title's to say, and a guessed
    # kind, the best of the PR's columns, held back the areas it was guessed beside.
    predicted = _at_least(
        _predicted_labels(untagged, model, config, areas_of(model.labels)), min_probability
    )
    areas = _at_least(
        _predicted_labels(type_tagged, model, config, areas_of(model.labels)), min_probability
    )
    labels.extend(x for found in (*predicted.values(), *areas.values()) for x in found)
    return WeekLabels(
        labels=labels,
        unknown=unknown,
        unlabelled=[number for number, found in predicted.items() if not found],
        areas_from_model=[number for number, found in areas.items() if found],
    )


def _at_least(
    labels_of: dict[int, list[ModuleLabel]], min_probability: float
) -> dict[int, list[ModuleLabel]]:
    """Each PR's predicted modules of at least `min_probability`."""
    return {
        number: [label for label in found if label.confidence >= min_probability]
        for number, found in labels_of.items()
    }


def _predicted_labels(
    prs: Sequence[PullRequest], model: ModuleModel, config: ModulesConfig, allowed: Sequence[str]
) -> dict[int, list[ModuleLabel]]:
    """Each PR's modules by the model, among the `allowed` labels (in PR order)."""
    if not prs:
        return {}
    wanted = set(allowed)
    columns = [j for j, label in enumerate(model.labels) if label in wanted]
    probabilities = model.predict_proba([pr_features(pr, config) for pr in prs])[:, columns]
    decisions = _decide(
        probabilities,
        model.thresholds[columns],
        model.min_top_probability,
        model.min_share_of_top,
    )
    return {
        pr.number: [
            ModuleLabel(
                repo=pr.repo,
                number=pr.number,
                module=model.labels[columns[j]],
                origin="model",
                confidence=round(float(row[j]), 4),
            )
            for j in np.flatnonzero(chosen)
        ]
        for pr, chosen, row in zip(prs, decisions, probabilities, strict=True)
    }
