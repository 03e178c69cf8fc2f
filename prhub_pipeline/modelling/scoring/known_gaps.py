"""Work a PR's author says is left open: "will be addressed in a follow-up PR", a TODO list,
known limitations, or a reply to a reviewer that defers the point to a later PR.

A maintainer wants these debts in the week's report (the reference report's "#6076: the
author admits ray.get blocks the event loop and promises a fix in the next PR"), and wants to
know when a later PR took one up. Only the author's own words count, and only words that look
ahead: "Follow-up to #6334" says this PR is the follow-up, "already fixed in a separate PR" is
done, and "happy to file a follow-up if needed" is an offer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from prhub_pipeline.modelling.text.pr_summaries import (
    author_paragraphs,
    open_checklist_items,
    sentences,
    shorten,
)
from prhub_pipeline.records import PullRequest

MAX_GAPS = 3  # sentences kept per PR
GAP_CHARS = 160
# A list's lead-in under a gap heading says what is left when it is a sentence, not a label
# ("TODOs include:").
MIN_LEAD_WORDS = 4

# A later PR, named as such: "in a follow-up PR", "the next PR will", "future PRs", "subsequent
# refactoring PRs". Not one that exists already (`another PR #1331`, `separate PR (#4222)`).
_LATER_PR = (
    r"\b(?:follow[- ]?up|separate|future|next|later|subsequent|upcoming|dedicated|further)"
    r"(?:\s+[\w-]+)?\s+(?:PRs?|pull[- ]requests?)\b(?!\s*\(?(?:#|https?:))"
)
# Nor a later comment on this PR: verl #7157's "will add the training-result screenshot in a
# follow-up PR comment" shows its results there, and leaves no work open.
_ON_THIS_PR = r"(?!\s+(?:PR\s+)?(?:comments?|descriptions?|threads?|replies|reply)\b)"
_DEFERS = re.compile(
    rf"{_LATER_PR}{_ON_THIS_PR}"
    r"|\b(?:in|via|with|will\s+\w+)\s+another\s+PR\b(?!\s*\(?(?:#|https?:))"
    rf"|\b(?:in|as|for|with|via|on)\s+(?:a|the)\s+follow[- ]?ups?\b{_ON_THIS_PR}"
    r"|\bwill\s+follow(?:\s+up\b|\s+(?:in|later|soon|shortly)\b)"
    r"|\b(?:left|leave|defer(?:red)?|postponed?|tracked)\b[^.]{0,30}?"
    r"\b(?:later|follow[- ]?up|future)"
    r"|\bTODO\b\s*[:：(]"
    r"|^(?:the\s+)?following\s+PRs?\s+(?:will|shall)\b"
    r"|后续\s*(?:的\s*)?PR|下一?个\s*PR|另一个\s*PR|后续(?:再|会|将|补充|支持|完善|优化|修复)",
    re.IGNORECASE,
)
# Words that make a matching sentence about the past, about this PR being the follow-up, or an
# offer rather than a debt.
_NOT_A_GAP = re.compile(
    r"\bfollow[- ]?(?:ups?|ing)?\s+(?:PR\s+)?(?:to|of|on|for|from)\s+(?:#|https?:|PR\b|the\b|@|\[)"
    r"|\bthis\s+(?:PR\s+)?(?:is\s+)?(?:a\s+)?follow[- ]?up\b"
    r"|\bfollows?\s+(?:up\s+)?(?:on\s+)?(?:#|https?:|\[)"
    r"|\bfuture work (?:for|of)\b"
    r"|\b(?:was|were|has been|have been|had been|previously|earlier)\b"
    r"|\balready\s+(?:been\s+)?(?:fixed|done|handled|addressed|merged|landed|in|exists?)\b"
    r"|\bif\b|\bhappy to\b|\bfeel free\b|\bsplit (?:from|out of)\b"
    # what happens on every later PR ("verified by actionlint in CI on subsequent PRs")
    r"|\b(?:on|across)\s+(?:all\s+|any\s+|every\s+)?(?:future|subsequent|later|upcoming)\s+"
    r"(?:PRs?|pull[- ]requests?)\b"
    # what this PR readies for a later one ("prepares for capability-oriented hardware profiles
    # in subsequent PRs", vllm-ascend #13672)
    r"|\b(?:prepar(?:es|ed|ing)(?:\s+the\s+(?:ground|way))?"
    r"|(?:lays?|laying|laid|paves?|paving|paved)\s+the\s+(?:ground(?:work)?|way|foundations?))"
    r"\s+for\b[^.;,]*?"
    r"\b(?:follow[- ]?up|future|next|later|subsequent|upcoming)\b"
    # a note left in the code for later readers (TransformerEngine #3116 "leave a NOTE so future
    # cleanups don't reintroduce the bug")
    r"|\bleav(?:e|es|ing)\s+(?:a|an|the)\s+(?:note|comment|docstring|warning)\b"
    r"|\s\|\s",  # a table row
    re.IGNORECASE,
)
# Headings whose items are all work left open ("TODO After Merge", "Known limitations"), and a
# paragraph that is only such a label ("**Future work:**").
_GAP_HEADING_WORDS = (
    r"(?:future\s+)?todos?|(?:possible\s+)?future (?:work|plans?)|next steps?"
    r"|follow[- ]?ups?(?: scope| prs?| work)?|not included\b.*"
    r"|known (?:issues?|limitations?|limits)|limitations?|roadmap\b.*|后续.*|待办.*"
)
_GAP_HEADING = re.compile(rf"^(?:{_GAP_HEADING_WORDS})(?:\s|$)", re.IGNORECASE)
_GAP_LABEL = re.compile(rf"^(?:{_GAP_HEADING_WORDS})\s*[:：]?$", re.IGNORECASE)
_HAN = re.compile(r"[\u4e00-\u9fff]")
# A short line that is no sentence, such as a bold label the description parser kept as text.
_OTHER_LABEL = re.compile(r"^[^.!?。！？]{1,40}?[:：]?$")
# An item that is only a link, or one the author struck through or marked done.
# A metadata line of a bot's ("vLLM version: v0.12.0", "vLLM main: https://...") is no item.
_SETTLED = re.compile(
    r"^\W*(?:#\d+|https?://\S+)\W*$|~~|\bDONE\b|^[\w .-]{1,24}:\s*(?:v?\d[\w.]*|https?://\S+)$"
)


def stated_gaps(body: str) -> list[str]:
    """The author's sentences about work this PR leaves open, first ones first (at most
    MAX_GAPS, each at most GAP_CHARS)."""
    found: list[str] = []
    listing = False  # inside the list after a gap label or a lead-in ("TODOs in next PR:")
    section = ""
    # The gap heading's part of its section ends at a label after its items: `**Environment**`
    # after `### TODO list` (vllm-ascend #9849), `**Relevant issue:**` after `**TODO:**` (verl
    # #222) head what is not left open.
    closed = False
    found_here = 0  # how many gaps the section had before
    for paragraph in author_paragraphs(body):
        text = paragraph.text
        if paragraph.section != section:
            section, listing, closed, found_here = paragraph.section, False, False, len(found)
        if not paragraph.list_item and _GAP_LABEL.match(text.strip()):
            listing = True
            continue
        under_gap_heading = _is_gap_heading(section) and not closed
        if (
            under_gap_heading
            and len(found) > found_here
            and not paragraph.list_item
            and _OTHER_LABEL.match(text.strip())
        ):
            closed = True
            continue
        if under_gap_heading or (listing and paragraph.list_item):
            parts = sentences(text)
            # "This PR only centralizes X. The remaining migration will be completed
            # incrementally:" (vllm-ascend #13672): the lead-in to the list says what is left.
            leads = [
                part
                for part in parts[1:]
                if not paragraph.list_item
                and part.endswith((":", "："))
                and len(part.split()) >= MIN_LEAD_WORDS
            ]
            if leads:
                found.append(leads[-1][:-1].rstrip() + ("。" if leads[-1].endswith("：") else "."))
            elif parts and _long_enough(text) and not _SETTLED.search(text):
                found.append(parts[0])
            continue
        listing = False
        for sentence in sentences(text):
            if sentence.endswith((":", "：")) and _DEFERS.search(_CODE_SPAN.sub(" ", sentence)):
                listing = True  # the list that follows says what is left
            elif _long_enough(sentence) and is_deferral(sentence):
                found.append(sentence)
    # A to-do list's unchecked items are left open; its checked ones are done.
    for lead, item in open_checklist_items(body):
        opens_gaps = _is_gap_heading(lead) or bool(_GAP_LABEL.match(lead.strip()))
        if opens_gaps and _long_enough(item) and not _SETTLED.search(item):
            found.append(item)
    return list(dict.fromkeys(shorten(g, GAP_CHARS) for g in found))[:MAX_GAPS]


def _is_gap_heading(heading: str) -> bool:
    return bool(_GAP_HEADING.match(heading.strip().rstrip(":：").strip()))


def _long_enough(text: str) -> bool:
    """Not a fragment ("TODO:", "Next PR:"); Chinese says as much in half the characters."""
    return len(text) >= (6 if _HAN.search(text) else 12)


# Code quoted in a sentence is not the author's words: torchtitan #3487 named its owner's
# handle as the one in `TODO(ivankobzarev)` comments and left nothing open.
_CODE_SPAN = re.compile(r"`[^`\n]+`")


def is_deferral(sentence: str) -> bool:
    """True when a sentence puts work off to a later PR (or a TODO) rather than doing it."""
    words = _CODE_SPAN.sub(" ", sentence)
    return bool(_DEFERS.search(words)) and not _NOT_A_GAP.search(words)


def deferrals(text: str) -> list[str]:
    """The sentences of a comment that defer work (a PR author's reply to a reviewer)."""
    return [
        shorten(s, GAP_CHARS)
        for p in author_paragraphs(text)
        for s in sentences(p.text)
        if _long_enough(s) and is_deferral(s)
    ]


def _follow_up_of(number: int) -> re.Pattern[str]:
    ref = rf"(?:#|/pull/){number}\b(?!\d)"
    return re.compile(
        rf"\bfollow[- ]?(?:ups?|ing)?\s+(?:PR\s+)?(?:to|of|for|on|up on)?\s*(?:PR\s*)?\S*{ref}"
        # a PR built on this one carries its work on: "Depends on #13672." (vllm-ascend #13721),
        # "on top of #1396" (verl #1397), "Stacked on #5834" (verl #6051)
        rf"|\b(?:building|builds?|based|depend(?:s|ing)?|stacked)\s+on\s+(?:PR\s*)?\S*{ref}"
        rf"|\bon\s+top\s+of\s+(?:PR\s*)?\S*{ref}"
        rf"|\bcontinu(?:es|ation of)\s+(?:PR\s*)?\S*{ref}",
        re.IGNORECASE,
    )


# A title's place in its author's series of PRs: "[Refactor][device][1/N] ..." is followed by
# "[Refactor][Device][2/N] ..." (vllm-ascend #13672, #13721), "[4/n][trainer]" by
# "[5/n][trainer]" (verl #5802, #5951).
_SERIES_PLACE = re.compile(r"\[\s*(\d+)\s*/\s*(\d+|n)\s*\]", re.IGNORECASE)
_TITLE_TAG = re.compile(r"\[([^\]]*)\]")


def _next_in_series(pr: PullRequest, later: PullRequest) -> bool:
    """True when `later` is the next part of the series `pr` belongs to: the same author, the
    same bracketed tags, the same count and the next index."""
    place, later_place = _SERIES_PLACE.search(pr.title), _SERIES_PLACE.search(later.title)
    if place is None or later_place is None or pr.author is None or later.author != pr.author:
        return False
    return (
        int(later_place[1]) == int(place[1]) + 1
        and later_place[2].lower() == place[2].lower()
        and _series_tags(later.title) == _series_tags(pr.title)
    )


def _series_tags(title: str) -> list[str]:
    return [
        tag.strip().lower()
        for tag in _TITLE_TAG.findall(title)
        if not _SERIES_PLACE.fullmatch(f"[{tag}]")
    ]


def followed_up_by(pr: PullRequest, later: Iterable[PullRequest]) -> int | None:
    """The first PR merged after `pr` whose title or description says it follows it up, or
    that is the next part of its series."""
    pattern = _follow_up_of(pr.number)
    digits = str(pr.number)  # a cheap test first: this runs over the whole history
    candidates = sorted(
        (
            p
            for p in later
            if p.merged_at > pr.merged_at
            and (digits in p.title or digits in p.body or _next_in_series(pr, p))
        ),
        key=lambda p: (p.merged_at, p.number),
    )
    for candidate in candidates:
        if (
            pattern.search(candidate.title)
            or pattern.search(candidate.body)
            or _next_in_series(pr, candidate)
        ):
            return candidate.number
    return None
