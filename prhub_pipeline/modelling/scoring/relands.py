"""Re-lands: the PR that lands a reverted change again, and the words titles are compared on.

Scoring reads them (`importance.relanded_in_week`): a revert whose change came back within its
week undid nothing the week kept. `repeats` compares titles by the same words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from datetime import timedelta
from functools import lru_cache

from prhub_pipeline.modelling.text.pr_titles import parse_title
from prhub_pipeline.records import PullRequest, PushedCommit

# Words a re-land's title may word differently without naming another change.
_FILLER_WORD = re.compile(
    r"a|an|the|for|on|in|of|to|and|with|by|from|at|as|via|into|correctly|properly"
)
# `Reapply "X"`, `Reland: X`: the words that say a change comes back, and quotes around it.
_RELAND_LEAD = re.compile(
    r"^\W*(?:re-?apply|re-?land|recover|redo|re-?submit|bring back)\b\W*", re.IGNORECASE
)


@lru_cache(maxsize=65536)
def title_words(title: str) -> frozenset[str]:
    """A title's subject as a set of words: tags, type, `Reapply` and quotes, PR and issue
    numbers and filler words left out. Cached: each week's report compares the titles of every
    PR after a recent revert (`reporting.facts.relands`)."""
    subject = parse_title(_RELAND_LEAD.sub("", title.strip())).subject
    subject = re.sub(r"\(?#\d+\)?", " ", subject).casefold()
    words = (w.strip("-.+_") for w in re.findall(r"[\w.+-]+", subject))
    return frozenset(w for w in words if w and not _FILLER_WORD.fullmatch(w))


# A title at least this similar (shared words over all words) that touches at least half the
# reverted PR's files lands the same change again.
RELAND_TITLE_SIMILARITY = 0.6
# Without a similar title: nearly all the reverted PR's files (at least three), soon after.
RELAND_FILE_SHARE = 0.9
RELAND_MIN_FILES = 3
RELAND_WITHIN = timedelta(days=14)


def relanding(
    revert: int | PushedCommit,
    target: int,
    known: Mapping[int, PullRequest],
    among: Collection[int] | None = None,
) -> int | None:
    """The first PR merged after the revert (a PR's number, or a revert pushed without a PR)
    that lands the reverted change again.

    In order of evidence: its description saying so (verl #7327, "Reland of #5599", titled
    otherwise); the reverted PR's title again (tags and numbers aside); a revert of the revert;
    a similar title
    that touches at least half of its files (tilelang #682 "Add Flash Attn example on amd mi300
    series" after #672 reverted #671 "[Enhancement] Add flash attn example for AMD MI300
    series"); within two weeks, nearly all of its files and mostly those (vllm-ascend #4810).

    With `among`, only one of those PRs is an answer: None when the first re-land is another.
    They are read first, and every later PR only when one of them has any of the evidence (a
    week's report asks this of each revert of the 90 days before it, about the week's PRs).
    """
    if target not in known:
        return None
    if isinstance(revert, PushedCommit):
        # OpenRLHF pushed `git revert` of #725: a revert of that commit names its sha.
        reverted_at, revert_number, pushed_sha = revert.committed_at, None, revert.sha

        def undoes_revert(pr: PullRequest) -> bool:
            return pr.reverted_sha is not None and pushed_sha.startswith(pr.reverted_sha)

    elif revert in known:
        reverted_at, revert_number = known[revert].merged_at, revert

        def undoes_revert(pr: PullRequest) -> bool:
            return pr.is_revert and pr.reverted_number == revert_number

    else:
        return None
    reverted = known[target]

    def after_revert(pr: PullRequest) -> bool:
        return pr.merged_at > reverted_at and pr.number not in (revert_number, target)

    title = reverted.title.strip().casefold()
    words, files = title_words(reverted.title), {f.path for f in reverted.files}

    def shares(pr: PullRequest) -> tuple[float, float]:
        """The share of the reverted PR's files it touches, and of its own files in them."""
        own = {f.path for f in pr.files}
        common = len(files & own)
        return (common / len(files) if files else 0.0, common / len(own) if own else 0.0)

    def similar(pr: PullRequest) -> bool:
        other = title_words(pr.title)
        similarity = len(words & other) / len(words | other) if words | other else 0.0
        return similarity >= RELAND_TITLE_SIMILARITY and shares(pr)[0] >= 0.5

    def same_files(pr: PullRequest) -> bool:
        theirs, own = shares(pr)
        soon = pr.merged_at - reverted_at <= RELAND_WITHIN
        return (
            soon and len(files) >= RELAND_MIN_FILES and theirs >= RELAND_FILE_SHARE and own >= 0.5
        )

    # Its own repository's PR: `#N`, `owner/name#N` or the PR's URL, under any owner (verl
    # moved from volcengine/ to verl-project/: "Reapply https://github.com/volcengine/verl/
    # pull/1880"), not another repository's `#N`.
    name = re.escape(reverted.repo.partition("/")[2])
    says_so = re.compile(
        rf"\bre-?(?:land|apply|submit)\w*\s+(?:of\s+|for\s+)?"
        rf"(?:(?<![\w./-])[\w.-]+/{name}#|(?<![\w./-])#"
        rf"|https?://github\.com/[\w.-]+/{name}/pull/){target}\b",
        re.IGNORECASE,
    )
    digits = str(target)  # a cheap test before the pattern, over every later description
    evidence: list[Callable[[PullRequest], bool]] = [
        lambda pr: not pr.is_revert and digits in pr.body and says_so.search(pr.body) is not None,
        lambda pr: (
            pr.title.strip().casefold() == title or (bool(words) and title_words(pr.title) == words)
        ),
        undoes_revert,
        lambda pr: not pr.is_revert and similar(pr),
        lambda pr: not pr.is_revert and same_files(pr),
    ]
    if among is not None:
        candidates = [known[n] for n in among if n in known and after_revert(known[n])]
        if not any(shows(pr) for pr in candidates for shows in evidence):
            return None
    later = sorted(filter(after_revert, known.values()), key=lambda pr: (pr.merged_at, pr.number))
    for shows in evidence:
        found = next((pr for pr in later if shows(pr)), None)
        if found is not None:
            return found.number if among is None or found.number in among else None
    return None
