"""Module tagging: train a repository's classifier, then label and theme each week's PRs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date

from pydantic import BaseModel

from prhub_pipeline.config import RepoConfig, Settings
from prhub_pipeline.modelling.tagging.classifier import (
    LabelSpellings,
    TrainingMetrics,
    label_week,
    modules_settings_digest,
    train_module_classifier,
)
from prhub_pipeline.modelling.tagging.model_store import StoredModel, from_payload, to_payload
from prhub_pipeline.modelling.tagging.tags import areas_of
from prhub_pipeline.modelling.tagging.themes import tag_themes
from prhub_pipeline.stages.ingest import windows_for
from prhub_pipeline.stages.text import counted
from prhub_pipeline.warehouse import connect, replace_partition
from prhub_pipeline.warehouse.modules import (
    module_tables,
    read_model_payload,
    save_model_payload,
)
from prhub_pipeline.warehouse.prs import read_config_diffs, read_prs
from prhub_pipeline.warehouse.week_stages import refuse_unread_weeks, stage_tables
from prhub_pipeline.weeks import WeekWindow


class ClassifierSummary(BaseModel):
    repo: str
    status: str
    message: str
    metrics: TrainingMetrics
    min_micro_f1: float
    min_tagged_share: float = 0.0
    # Under `min_tagged_share`, the model labels only its predictions of at least this
    # probability (None: none).
    min_probability_under_share: float | None = None
    sha256: str | None = None

    @property
    def tags_enough(self) -> bool:
        """Whether the repository tags enough of its PRs for the model to label the rest."""
        share = self.metrics.area_tagged_share
        return share is None or share >= self.min_tagged_share

    @property
    def labels_prs(self) -> bool:
        """Whether the model labels PRs: all it predicts, or only its surest."""
        return self.tags_enough or self.min_probability_under_share is not None

    @property
    def passes_threshold(self) -> bool:
        f1 = self.metrics.validation_micro_f1
        return self.status == "trained" and f1 is not None and f1 >= self.min_micro_f1

    def describe(self) -> str:
        """One line for logs and run summaries: the outcome, and the validation against the
        configured threshold (a trained model below it still labels, with a warning)."""
        line = f"{self.status}: {self.message}"
        micro, macro = self.metrics.validation_micro_f1, self.metrics.validation_macro_f1
        if self.status != "trained" or micro is None:
            return line
        line += f"; validation micro-F1 {micro:.3f}"
        if macro is not None:
            line += f", macro-F1 {macro:.3f}"
        verdict = "at or above" if self.passes_threshold else "below"
        line += f" ({verdict} the {self.min_micro_f1:.2f} threshold)"
        if not self.tags_enough:
            labels = (
                "no PR"
                if self.min_probability_under_share is None
                else "only its predictions of probability"
                f" {self.min_probability_under_share:g} or more"
                " (modules.min_probability_under_share)"
            )
            line += (
                f"; it labels {labels}: the repository's own tags name an area for"
                f" {self.metrics.area_tagged_share:.0%} of a year's PRs, under"
                f" modules.min_tagged_share {self.min_tagged_share:g}"
            )
        return line


class WeekModules(BaseModel):
    repo: str
    window: WeekWindow
    pr_count: int
    origins: dict[str, int]  # PRs whose modules came from title / label / model
    areas_from_model: int  # of the tagged PRs, those with only type tags the model gave areas
    unlabelled: list[int]
    # PRs whose modules say only what kind of change they are (`[fix]`), no area: the reports
    # count them with the PRs without a module.
    kind_only: list[int] = []
    unknown_tags: dict[str, int]
    modules: dict[str, int]
    themes: dict[str, int]
    model_version: str | None  # the stored model that labelled, if any
    model_not_applied: str | None = None  # why the stored model did not label
    # Why the stored model labelled only its surest predictions, if it did.
    model_only_sure: str | None = None


class ModulesTally(BaseModel):
    """What labelling a run's weeks did, added up: the run's summary and its counts."""

    summary: str
    modules: dict[str, int]
    themes: dict[str, int]
    origins: dict[str, int]
    unknown_tags: dict[str, int]
    model_version: str | None


def tally_modules(results: Sequence[WeekModules]) -> ModulesTally:
    modules: Counter[str] = Counter()
    themes: Counter[str] = Counter()
    origins: Counter[str] = Counter()
    unknown: Counter[str] = Counter()
    for result in results:
        modules.update(result.modules)
        themes.update(result.themes)
        origins.update(result.origins)
        unknown.update(result.unknown_tags)
    unlabelled = sum(len(r.unlabelled) for r in results)
    kind_only = sum(len(r.kind_only) for r in results)
    areas_from_model = sum(r.areas_from_model for r in results)
    completed = (
        f" ({areas_from_model} type-only tagged, areas by model)" if areas_from_model else ""
    )
    by_origin = ", ".join(f"{count} by {origin}" for origin, count in sorted(origins.items()))
    # A week whose PRs nothing labelled has no origins to list ("3 PRs: 3 without a module").
    described = [part for part in (by_origin + completed, f"{unlabelled} without a module") if part]
    if kind_only:
        described.append(f"{kind_only} with only a kind of change (`[fix]`), no area")
    if unknown:
        # Tags outside the module list are kept (pr_unknown_tags), not dropped: say which, so
        # a new module or a misspelling is seen and can be configured.
        ranked = sorted(unknown.items(), key=lambda item: (-item[1], item[0]))
        named = ", ".join(f"[{tag}] {count}" for tag, count in ranked[:5])
        more = f" and {len(ranked) - 5} more" if len(ranked) > 5 else ""
        described.append(f"unknown tags {named}{more}")
    if results and results[0].model_not_applied:
        described.append(f"no model: {results[0].model_not_applied}")
    if results and results[0].model_only_sure:
        described.append(f"model: {results[0].model_only_sure}")
    prs = counted(sum(r.pr_count for r in results), "PR")
    return ModulesTally(
        summary=f"{prs}: " + ", ".join(described),
        modules=dict(modules),
        themes=dict(themes),
        origins=dict(origins),
        unknown_tags=dict(unknown),
        model_version=results[0].model_version if results else None,
    )


def train_classifier(settings: Settings, repo: RepoConfig) -> ClassifierSummary:
    """Train on every PR the warehouse holds for the repository; store the model if trained."""
    with connect(settings.database, read_only=True) as con:
        history = read_prs(con, repo.name)
    result = train_module_classifier(history, repo.modules)
    sha256 = None
    if result.model is not None:
        stored = to_payload(repo.name, result.model, result.metrics)
        with connect(settings.database) as con:
            save_model_payload(con, stored, keep=repo.modules.keep_models)
        sha256 = stored.sha256
    return ClassifierSummary(
        repo=repo.name,
        status=result.status,
        message=result.message,
        metrics=result.metrics,
        min_micro_f1=repo.modules.min_micro_f1,
        min_tagged_share=repo.modules.min_tagged_share,
        min_probability_under_share=repo.modules.min_probability_under_share,
        sha256=sha256,
    )


def label_weeks(settings: Settings, repo: RepoConfig, weeks: Sequence[date]) -> list[WeekModules]:
    """Modules (own tags first, the stored model for the rest) and themes for each week.

    The stored model labels only if it was trained under the repository's current modules
    settings (see `modules_settings_digest`).
    """
    results = []
    with connect(settings.database) as con:
        refuse_unread_weeks(con, repo.name, weeks)
        payload = read_model_payload(con, repo.name)
        stored = from_payload(payload) if payload else None
        not_applied = _why_not_applied(stored, repo)
        if not_applied:
            stored = None
        only_sure = _why_only_sure(stored, repo)
        # Under the share with a bar, only the surest predictions label.
        min_probability = (repo.modules.min_probability_under_share or 0.0) if only_sure else 0.0
        model = stored.model if stored else None
        # Where no model labels, the tags' spellings are still learned from the history.
        spellings = (
            LabelSpellings.learned(read_prs(con, repo.name), repo.modules)
            if model is None and repo.modules.allowed is None
            else None
        )
        for window in windows_for(settings, weeks):
            prs = read_prs(con, repo.name, window.week_start)
            labelled = label_week(prs, model, repo.modules, spellings, min_probability)
            diffs = read_config_diffs(con, repo.name, window.week_start)
            themes = tag_themes(prs, repo.themes, labelled.labels, repo.modules, diffs)
            replace_partition(
                con,
                repo.name,
                window.week_start,
                [
                    *module_tables(window.week_start, labelled.labels, themes, labelled.unknown),
                    *stage_tables(repo.name, window.week_start, "modules"),
                ],
            )
            origin_of: dict[int, str] = {}
            modules_of: dict[int, list[str]] = {}
            for label in labelled.labels:  # the PR's own tags come first
                origin_of.setdefault(label.number, label.origin)
                modules_of.setdefault(label.number, []).append(label.module)
            results.append(
                WeekModules(
                    repo=repo.name,
                    window=window,
                    pr_count=len(prs),
                    origins=dict(Counter(origin_of.values())),
                    areas_from_model=len(labelled.areas_from_model),
                    unlabelled=labelled.unlabelled,
                    kind_only=sorted(n for n, found in modules_of.items() if not areas_of(found)),
                    unknown_tags=dict(Counter(tag.tag for tag in labelled.unknown)),
                    modules=dict(Counter(label.module for label in labelled.labels)),
                    themes=dict(Counter(tag.theme for tag in themes)),
                    model_version=stored.model_version if stored else None,
                    model_not_applied=not_applied,
                    model_only_sure=only_sure,
                )
            )
    return results


def _why_not_applied(stored: StoredModel | None, repo: RepoConfig) -> str | None:
    if stored is None:
        return None
    metrics = stored.metrics
    trained_under = metrics.modules_settings if metrics else None
    if trained_under not in (None, modules_settings_digest(repo.modules)):
        return (
            f"the stored model {stored.model_version} was trained under other modules settings;"
            " module_classifier trains one under these once the history meets them"
        )
    under = _under_share(stored, repo)
    if under and repo.modules.min_probability_under_share is None:
        return under
    # A model stored before the settings (or the share) were recorded still labels; one under
    # the share with a probability bar labels its surest predictions (`_why_only_sure`).
    return None


def _why_only_sure(stored: StoredModel | None, repo: RepoConfig) -> str | None:
    """Why the model labels only its predictions of `modules.min_probability_under_share`
    or more, if it does."""
    bar = repo.modules.min_probability_under_share
    under = _under_share(stored, repo)
    if bar is None or under is None:
        return None
    return f"only its predictions of probability {bar:g} or more label PRs: {under}"


def _under_share(stored: StoredModel | None, repo: RepoConfig) -> str | None:
    """Whether the repository's own tags name an area for too few PRs, said as a reason."""
    metrics = stored.metrics if stored else None
    share = metrics.area_tagged_share if metrics else None
    if share is not None and share < repo.modules.min_tagged_share:
        return (
            f"the repository's own tags name an area for {share:.0%} of a year's PRs, under"
            f" modules.min_tagged_share {repo.modules.min_tagged_share:g}"
        )
    return None
