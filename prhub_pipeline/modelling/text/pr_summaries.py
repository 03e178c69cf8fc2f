"""What a PR's description says in a line: its one-line summary, the author's prose and
sentences, and text shortened to fit a report's line.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from prhub_pipeline.modelling.text.pr_descriptions import (
    HEADING,
    LIST_MARK,
    clean_description,
    normalised,
    split_blocks,
    wraps_item,
)
from prhub_pipeline.modelling.text.pr_titles import CONVENTIONAL, TYPE_ALIASES, parse_title
from prhub_pipeline.records import MAX_DESCRIPTION_CHARS

# llm-compressor's authors head their text `## Purpose ##` (64 of its 387 PRs in 2026): #1559's
# summary was instead the first line of a bot's summary below it.
_SUMMARY_SECTIONS = re.compile(
    r"(what does this pr do|what this pr does|overview|summary|motivation|description|problem"
    r"|background|purpose|概述|描述)",
    re.IGNORECASE,
)
# A section's name as a line of its own, no heading mark: llm-compressor's template writes
# `SUMMARY:` and `TEST PLAN:` so (#2934's summary read "SUMMARY: Fix the AutoRound ...").
_LABEL_LINE = re.compile(r"^(?P<text>[^\W\d_][\w /-]{0,30}?)\s*[:：]\s*$")
# A line in bold alone, `**Testing**` or `**Summary:**`: a heading when it names a known section.
_BOLD_HEADING = re.compile(r"^\*\*(?P<text>[^*]{1,40}?)\s*[:：]?\s*\*\*\s*[:：]?$")
_SKIP_SECTIONS = re.compile(
    r"^(test|testing|validation|test plan|api|usage|result"
    # What was measured, not what changed (torchtitan #1804's timings under "Benchmarking").
    r"|(?:benchmark(?:s|ing)?|end[- ]to[- ]end (?:verification|tests?)|accuracy|experiments?"
    r"|evaluation)\b"
    r"|how (?:was|were|is) this\b[^?]*\btested"
    # The order to read the files in (torchtitan #3642's summary read "Read trainer.py").
    r"|how to review|review(?:ing)? (?:guide|order|notes|tips)|notes? (?:for|to) reviewers?"
    r"|reviewer(?:'s|s'?)? (?:guide|notes)"
    # What the PR does not do (torchtitan #3559's summary was its first known limitation).
    r"|(?:known )?(?:limitations?|caveats?)|known issues|todos?|future work|next steps"
    r"|follow[- ]?ups?(?: work)?|out of scope|not (?:yet )?supported)",
    re.IGNORECASE,
)
# Words that say where a PR comes from: `Split from #6118`, `Follow-up work for #4639`,
# `inheriting from <url>` (torchtitan #4045), `Reland of <url>`, `port #12351 to main branch.`
# (vllm-ascend #12470), `It is planned in <url>. Refactor <url> by @name.` (vllm-ascend #11431).
_PROVENANCE_WORD = (
    r"(?:part of|comes? from|split (?:out )?from|continuation of|inherit(?:s|ed|ing)? from"
    r"|re-?land(?:s|ed)?(?: of)?|follow[- ]?up(?: work)?(?: to| of| for)?|following"
    r"|(?:back-?)?port(?:s|ed)?(?: of| from)?|cherry[- ]pick(?:s|ed)?(?: of| from)?"
    r"|(?:(?:it|this) (?:is|was) )?planned (?:in|at|by)|refactor(?:s|ed)?(?: of)?"
    r"|align(?:s|ed|ing)? with)"
)
# Words that point at another issue or PR: `Fixes #12`, `Related to https://...`, `Follow-up of`.
_REFERENCE_WORD = (
    r"(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|related(?: to| issues?)?|refs?|references?|see|rfc"
    rf"|{_PROVENANCE_WORD}|details?)"
)
_REFERENCE_LINE = re.compile(
    rf"^\s*((?:{_REFERENCE_WORD}|co-authored-by|signed-off-by)\b[^.]{{0,25}}?[:\s]*"
    r"(#\d+|https?://\S+)[\s.,;]*)+$",
    re.IGNORECASE,
)
_REFERENCE = r"(?:#\d+|https?://\S+?)"
_TRAILING_REFERENCE = re.compile(
    rf"(?<=[.!?。！？])\s+{_REFERENCE_WORD}\s*:?\s*{_REFERENCE}(?:\s*(?:,|and|&)\s*{_REFERENCE})*"
    r"[\s.;]*$",
    re.IGNORECASE,
)
# A sentence that only says where the PR comes from (`Split from #6118.`, `Follow-up work for
# #4639, #5297.`), and why (`Reland of <url> because I did a rookie mistake of merging ghstack
# opened PRs.`, torchtitan #4162; `Continuation of #3032 (accidentally merged to wrong base
# branch).`, torchtitan #3127), whose work it is (`by @name`) and where it goes (`Cherry-pick of
# PR #13028 to main branch.`, vllm-ascend #13029), not what it does (`Fix a bug introduced in
# #3285.` does).
_PROVENANCE = re.compile(
    rf"^\s*{_PROVENANCE_WORD}\b[^.]{{0,25}}?[:\s]*(?:{_REFERENCE}[\s.,;]*)+"
    r"(?:\([^()]*\)[\s.,;]*)?(?:by\s+@[\w-]+[\s.,;]*)?"
    r"(?:(?:to|onto|into)\s+(?:the\s+)?`?[\w./-]+`?(?:\s+branch)?[\s.,;]*)?"
    r"(?:(?:because|since|as|due to)\b[^.]*[.!]?\s*)?$",
    re.IGNORECASE,
)
# What can open a paragraph before the author's first sentence: the template's question
# written as a plain line rather than a heading (vllm-ascend #5271's `1. What this PR does /
# why we need it?` over its answer), bare links (`https://.../issues/287, ...`) and
# a reference sentence (`Fixes #2656 and #2899. When ...`). A link the sentence goes on from in
# lower case is its subject, not a lead: without it verl #7434's "<#7413's link> introduced a
# regression for vLLM." read "Introduced a regression for vLLM.", and #5599's "<link> (part of
# the changes)" read "(part of the changes)".
_PARAGRAPH_LEAD = re.compile(
    r"^(\s*(?:what does this pr do|what this pr does(?:\s*/\s*why we need it)?)\s*\?|\s*https?://\S++(?:(?<=[,;.])|(?!\s+(?-i:[a-z(])))[\s,;.]*"
    # "As title, move ...": the title says it; what follows is the summary.
    r"|\s*(?:as|see|same as)\s+(?:the\s+)?(?:pr\s+)?title\b(?:\s+and\s+comments?)?\s*[.,，:;。]?"
    rf"|\s*{_REFERENCE_WORD}\s*:?\s*{_REFERENCE}(?:\s*(?:,|and|&)\s*{_REFERENCE})*"
    r"\s*[.;:](?:\s+|$))+\s*",
    re.IGNORECASE,
)
URL = re.compile(r"https?://\S+")
_ISSUE_NUMBER = re.compile(r"#\d+")
# A paragraph that only points at other issues or PRs, as another repository's
# (`Closes nod-ai/SHARK-Turbine#290`, `Closes nod-ai/SHARK-Turbine/issues/689`, 10 of
# torch-mlir's summaries; GitHub's own `Reverts owner/name#6350`).
_ONLY_REFERENCES = re.compile(
    r"^(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|reverts?|refs?|see)\s*:?\s*)?"
    r"(?:(?:[\w.-]+/[\w.-]+)?(?:#|/issues/|/pull/)\d+[\s,.;]*(?:and\s+)?)+$",
    re.IGNORECASE,
)
_CODE_SPAN = re.compile(r"`[^`]*`")
# A code span between runs of two or more backticks (CommonMark), as in vllm-ascend #10379's
# "failure in: ```tests/e2e/.../test_aclgraph_mem.py```": it reads as the one-backtick span.
_LONG_CODE_SPAN = re.compile(r"(?P<ticks>`{2,})[ ]?(?P<code>[^`]+?)[ ]?(?P=ticks)(?!`)")
# HTML's code span, as bots write file lists (vllm-ascend's translation PRs: `<code>path</code>`).
_HTML_CODE = re.compile(r"<code>(?P<code>[^<`]*)</code>", re.IGNORECASE)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<img\b[^>]*>", re.IGNORECASE)
# Its text may hold brackets, as a PR's title does: `broken by [[v1] Pass BlockTable ...
# #17483](https://...)` (vllm-ascend #806's summary kept the link's markup).
_LINK = re.compile(r"\[(?P<text>(?:[^\[\]]|\[[^\[\]]*\])+)\]\((?P<url>[^)]+)\)")
# A line of references and nothing else (`#11548` over `#12226` over the summary, vllm-ascend
# #13012).
_ONE_REFERENCE = r"(?:(?:[\w.-]+/[\w.-]+)?#\d+|https?://\S+)"
_BARE_REFERENCES = re.compile(rf"^\s*{_ONE_REFERENCE}(?:[\s,;]+{_ONE_REFERENCE})*[\s,;]*$")
# A paragraph that is only a link of a few words (`[Workflow run](https://...)`) points
# elsewhere; a link whose text says the change (pre-commit.ci's `[mirrors-clang-format: v21.1.8
# → v22.1.0](...)`) is kept.
_BARE_LINK = re.compile(r"^\s*\[\s*(?:\S+\s+){0,2}\S+\s*\]\([^)]+\)\s*[.,;:]?\s*$")
# `**bold**` and `***bold italics***`, but not `f(**kwargs)` or `g(**a, **b)`: a closing `**`
# follows no space or opening bracket. Chinese bolds within a sentence (`这是**重要**的`).
_EMPHASIS = re.compile(
    r"(?<![A-Za-z0-9_*])(?P<stars>\*\*\*?)(?=[^\s*])(?P<text>(?:(?!\*\*).)+?)(?<=[^\s*(\[])(?P=stars)"
    r"(?![A-Za-z0-9_*])"
)
# `__bold text__`, but not a dunder name (`__init__.py`, ColossalAI #3327's summary read
# `random/init.py`): a word between underscores is code far more often than bold.
_UNDERSCORE_EMPHASIS = re.compile(
    r"(?<![\w/.])__(?P<text>[^_\s][^_\n]*?\s[^_\n]*?[^_\s])__(?![\w.])"
)
# `*every*`, but not `bs*seq_len*vocab`, `a * b * c` or a `*` inside a code span.
_SINGLE_EMPHASIS = re.compile(r"(?<![\w*`])\*(?=[^\s*])(?P<text>[^*`\n]+?)(?<=[^\s*])\*(?![\w*])")
# A sentence ends at `.`, `!` or `?` before a capital, or at Chinese end punctuation; and before
# the next of a numbered list run into one paragraph (`... training. 2. Add: ...`), whose
# numbers (`2.` after a sentence's end, not `on GPU 0.`) end nothing; nor do the abbreviations
# a sentence goes on after (AReaL #1263's summary ended "... large datasets (e.g.").
_SENTENCE_END = re.compile(
    r"(?<=[.!?。！？])(?<![.!?;:]\s\d\.)(?<!^\d\.)(?<![Ee]\.g\.)(?<![Ii]\.e\.)(?<!\bvs\.)"
    r"(?<!\bcf\.)\s+(?=[A-Z\u4e00-\u9fff`\"'(])|(?<=[。！？])"
    r"|(?<=[.!?;；])\s+(?=\d{1,2}[.)]\s)"
)


_SECOND_ITEM = re.compile(r"\s\(?2[.、)）](?!\d)\s*\S")
# A line all in bold titles what follows it: its list item's text (`1. **Device function
# codegen**` over the item's sentences, tilelang #595) or, outside a list, the lines below it,
# as a heading does (`**What this PR does / why we need it?**` over the answer).
_BOLD_LINE = re.compile(r"\*\*(?P<text>[^*\n]+)\*\*\s*[:：]?")
_TITLE_END = (".", ":", ";", "!", "?", "。", "：", "；", "！", "？")


# A greeting that opens a description (`Hi Committers,`, `Hi @mshr-h @tlopex,`, `Hey team!`,
# `Dear reviewers,`): 24 of apache/tvm's summaries read 'Hi Committers.' and nothing else.
_SALUTATION = re.compile(
    r"^(?:hi|hello|hey|dear|greetings)\b"
    r"(?:\s+(?:all|there|team|folks|everyone|everybody|guys|devs|developers|friends"
    r"|comm?itt?ers?|reviewers?|maintainers?|community|@[\w-]+|(?-i:[A-Z][\w-]*))){0,4}"
    r"\s*(?:[,!:;，！：；]+|\.(?=\s|$)|$)\s*",
    re.IGNORECASE,
)


# A request or thanks that closes a paragraph (`Any suggestions would be appreciated if you are
# available.`, closing 16 of apache/tvm's descriptions; `Please review.`, `Thanks!`).
_PLEASANTRY = re.compile(
    r"^(?:any (?:suggestions?|comments?|feedback|advice|help|reviews?)\b"
    r"|(?:please|pls|kindly)\s+(?:review|take a look|have a look|help|let me know)\b"
    r"|let me know\b|looking forward\b|ptal\b"
    # `Comments are welcome.` (torchtitan #966's whole description), `Feedback appreciated!`
    r"|(?:all\s+|any\s+)?(?:comments?|feedback|suggestions?|reviews?|thoughts|inputs?)\s+"
    r"(?:(?:is|are)\s+)?(?:very\s+|much\s+|most\s+|always\s+)?(?:welcome|appreciated)\b"
    r"|(?:many\s+)?(?:thanks?|thank you)(?:\s+(?:in advance|a lot|so much|for (?:your|the)"
    r" (?:reviews?|time|help)))*\s*[!.]*$)",
    re.IGNORECASE,
)


class _Paragraph(NamedTuple):
    section: str  # the heading it is under
    text: str
    list_item: bool
    # The first paragraph after an image a lead-in announced (`... creates:`): a caption of it.
    after_image: bool = False


def _known_section(name: str) -> bool:
    return bool(_SUMMARY_SECTIONS.search(name) or _SKIP_SECTIONS.match(name))


def _names_a_section(name: str, labelled: bool, opening: bool) -> bool:
    """Whether a line such as `SUMMARY:` heads a section: the line a description opens with
    (`SUMMARY:`, `ORDER OF REVIEWS:` over llm-compressor's stacked PRs), and after it the
    summary's and the tests' names. Elsewhere `Summary:` may head test output (torch-mlir
    #2887's "Passed: 1144") and `For the fusedmoe:` a paragraph under the template's heading
    (vllm-ascend #8060)."""
    known = _known_section(name)
    if not labelled:
        # A sentence can end in a colon too (`Upgrade the following versions:`); a template's
        # own name is known or written in capitals. A known name in capitals is the template's
        # after a line of the author's too (llm-compressor #2366 opens `Updated by @name` over
        # `SUMMARY:`, and its summary was that line).
        return (opening and (known or name.isupper())) or (known and name.isupper())
    return known


def _paragraphs(cleaned: str) -> list[_Paragraph]:
    """The paragraphs and list items in order, without code blocks, tables or quotes; except
    that a quote under the "What does this PR do?" heading is the author's text: verl's
    template quotes its instructions there, and authors write over them (verl #5556)."""
    result: list[_Paragraph] = []
    section = ""
    headed = False  # the section has a heading, not a line such as `SUMMARY:` (see `_LABEL_LINE`)
    labelled = False  # the description opens with such a line
    current: list[str] = []
    in_item = False
    numbered = False  # a numbered list is under way (its items may hold other lists)
    # A table, from a line starting with `|` to the next blank line (`clean_description` puts
    # one before each heading): GitHub's tables end there, and a hard-wrapped row's lines may
    # each end in `|` (verl #5556; vllm-ascend #13358's second line of a row was its summary).
    in_table = False
    after_image = False

    def flush() -> None:
        nonlocal after_image
        if current:
            text = _joined_lines(current)
            if not result:  # a greeting opens the description, not a sentence of it
                text = _SALUTATION.sub("", text, count=1)
            told = sentences(text)
            if told and _PLEASANTRY.match(told[-1]):
                while told and _PLEASANTRY.match(told[-1]):
                    told.pop()
                text = " ".join(told)
            if not text:
                current.clear()
                return
            result.append(_Paragraph(section, text, in_item, after_image))
            introduced = len(result) > 1 and result[-2].text.rstrip().endswith((":", "："))
            after_image = introduced and _IMAGE.search(text) is not None and not _plain(text)
            current.clear()

    for kind, lines in split_blocks(cleaned.split("\n")):
        if kind == "quote" and headed and _SUMMARY_SECTIONS.search(section):
            flush()
            quoted = " ".join(line.lstrip().lstrip(">").strip() for line in lines).strip()
            if quoted:
                result.append(_Paragraph(section, quoted, False))
            continue
        if kind != "text":
            flush()
            continue
        line = lines[0].strip()
        if in_table or line.startswith("|"):
            # A lead-in to the table, which is left out, introduces nothing (`**Scope of
            # Changes**:` over a table of files, vllm-ascend #5977).
            if not in_table and current and _is_bare_lead_in(_plain(" ".join(current))):
                current.clear()
            flush()
            in_table = bool(line)
            continue
        heading = HEADING.match(line)
        if heading:
            flush()
            section, headed = heading.group("text"), True
            after_image = False
            continue
        bold = _BOLD_HEADING.match(line)
        if bold and not current and _known_section(bold.group("text")):
            flush()  # `**Testing**` over a screenshot's caption (torchtitan #2084)
            section, headed = bold.group("text"), True
            after_image = False
            continue
        label = _LABEL_LINE.match(line)
        opening = not result and not section  # no text and no heading yet
        if label and not current and _names_a_section(label.group("text"), labelled, opening):
            section, headed, labelled = label.group("text"), False, True
            after_image = False
            continue
        mark = LIST_MARK.match(line)
        # As in CommonMark, a number other than 1 starts no list within a paragraph: it is a
        # wrapped line that begins with a number (`... dimensions >=` then `65536. When ...`,
        # vllm-ascend #9780), unless a numbered list is under way or the line before
        # announces one (`Revise the KV Pool user guide:` then `4. Revise ...`).
        if (
            mark
            and mark.group("number") not in (None, "1")
            and current
            and not numbered
            and not current[-1].endswith((":", "："))
        ):
            mark = None
        if (
            mark
            and in_item
            and len(current) == 1
            and (bold := _BOLD_LINE.fullmatch(current[0]))
            and not bold.group("text").rstrip().endswith(_TITLE_END)
            and not _BOLD_LINE.fullmatch(LIST_MARK.sub("", line))
        ):
            # An item in bold alone over items in plain text names them (CodeRabbit's `*
            # **New Features**` over its `* Made ...` items): llm-compressor #2649's summary
            # read "New Features". Items all in bold are a list (vllm-ascend #11463's files).
            current.clear()
            section, headed = bold.group("text").strip(), True
            after_image = False
        if not line or mark:
            flush()
            in_item = mark is not None
            numbered = (numbered and in_item) or bool(mark and mark.group("number"))
            if in_item:  # an item is a paragraph; its wrapped lines follow
                item = LIST_MARK.sub("", line)
                # `1. support deepspeed on ui 2. add tools` is a list on one line, not one item:
                # its mark stays for `_numbered_items`.
                one_line_list = mark is not None and mark.group("number") == "1"
                current.append(line if one_line_list and _SECOND_ITEM.search(item) else item)
            continue
        if not current:
            in_item = False
        elif (
            len(current) == 1
            and not in_item
            and (_REFERENCE_LINE.match(current[0]) or _BARE_REFERENCES.match(current[0]))
            and not current[0].endswith((".", ",", ";", ":"))
        ):
            # A reference on a line of its own, ending without punctuation, is not the start of
            # the next sentence (`Come from : https://.../issues/13220` over the summary,
            # vllm-ascend #13888); `Fix a regression from <url>,` goes on in the next line.
            flush()
        elif len(current) == 1 and (bold := _BOLD_LINE.fullmatch(current[0])):
            if in_item:
                current[0] = _item_title(current[0], bold.group("text"))
            else:
                current.clear()
                # A bold line under a test heading heads part of the testing (`**performance**:`
                # under "How was this patch tested?", vllm-ascend #2474).
                if not _SKIP_SECTIONS.match(section):
                    section, headed = bold.group("text").strip(), True
                after_image = False
        current.append(line)
    flush()
    return result


_SPACE_AFTER_CJK_PUNCTUATION = re.compile(
    r"(?<=[，。；：！？、）】」』])\s+(?=[\u3040-\u30ff\u4e00-\u9fff])"
)


def _item_title(line: str, text: str) -> str:
    """A list item's bold title, ended so that its text reads on after it."""
    if line.rstrip().endswith(_TITLE_END) or text.rstrip().endswith(_TITLE_END):
        return line
    return line.rstrip() + ("：" if _CJK_CHARACTER.search(text[-1]) else ":")


# A sentence run into the next without a space (`adapted for modelrunnerv2.When ...`,
# vllm-ascend #13192; verl #7147's `with modular vLLM.Use latest ...`): a word, the period, then
# a word that opens sentences, never a name (`torch.Tensor`, `subprocess.Popen`), so the list
# is closed.
_RUN_ON_SENTENCE = re.compile(
    r"(?<![\w./])(?P<word>[a-z][A-Za-z0-9]+)\.(?=(?:The|This|These|That|Those|There|They|It|Its"
    r"|If|In|When|We|Our|So|But|And|Also|Other|Second|Third|Finally|Therefore|However|Then|Now"
    r"|Add|Fix|Remove|Update|Use|Currently|Previously|After|Before|Since|Because|Please|Note"
    r"|Otherwise|Thus|Hence|Besides|Meanwhile|Additionally|Furthermore|Moreover)\b)"
)


def _spaced_sentences(text: str) -> str:
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(
        part if part.startswith("`") else _RUN_ON_SENTENCE.sub(r"\g<word>. ", part)
        for part in parts
    )


# A compound hard-wrapped at its hyphen (`context-` over `window capping`, AReaL #1112) is one
# word again; a dash after a space is no hyphen.
_WRAPPED_HYPHEN = re.compile(r"(?<=[A-Za-z]-)\s*\n\s*(?=[A-Za-z])")


# A link hard-wrapped after its scheme (`Based on https:` over `//github.com/...`, verl #5104,
# whose summary read "https: //github.com/...") is one link again.
_WRAPPED_LINK = re.compile(r"(?:(?<=https:)|(?<=http:))\s*\n\s*(?=//\S)")


def _joined_lines(lines: list[str]) -> str:
    """A paragraph's lines as one line."""
    joined = _WRAPPED_LINK.sub("", _WRAPPED_HYPHEN.sub("", "\n".join(lines)))
    return " ".join(joined.split("\n"))


def _plain(text: str) -> str:
    text = _IMAGE.sub("", text)
    text = _LONG_CODE_SPAN.sub(lambda m: f"`{m.group('code')}`", text)
    text = _HTML_CODE.sub(lambda m: f"`{m.group('code')}`", text)
    text = _LINK.sub(lambda m: m.group("text"), text)
    # No emphasis inside a code span (`model(**inputs, **extra)`): each is set aside meanwhile.
    spans: list[str] = []

    def set_aside(match: re.Match[str]) -> str:
        spans.append(match.group())
        return f"\x00{len(spans) - 1}\x00"

    text = _CODE_SPAN.sub(set_aside, text)
    for emphasis in (_EMPHASIS, _UNDERSCORE_EMPHASIS, _SINGLE_EMPHASIS):
        text = emphasis.sub(lambda m: m.group("text"), text)
    text = re.sub("\x00(\\d+)\x00", lambda m: spans[int(m.group(1))], text)
    # Lines join with a space, which Chinese does not write after its full-width punctuation
    # (English written with a full-width comma keeps it).
    return _SPACE_AFTER_CJK_PUNCTUATION.sub(
        "", re.sub(r"\s+", " ", _spaced_sentences(text))
    ).strip()


def _first_sentences(text: str, limit: int) -> str:
    summary = ""
    for sentence in sentences(text):
        if not summary and len(sentence) > limit * SLACK:
            sentence = _after_scene_setting(sentence)
        candidate = f"{summary} {sentence}".strip() if summary else sentence
        # A later sentence that introduces a list would end the summary on nothing, unless the
        # summary is only a few words so far and the sentence can end as one (not `Changes on:`).
        lead_in = sentence.endswith((":", "：")) and (
            len(summary) >= limit // 4 or _dangles(sentence)
        )
        if summary and (len(candidate) > limit or lead_in):
            break
        summary = candidate
        if len(summary) >= limit * 0.5:
            break
    # A first sentence a little over the limit stays whole (451 of 11,738 summaries over five
    # repositories ended in `…` within a quarter of the limit).
    return shorten(summary, limit, SLACK)


_DOING = re.compile(r"^[a-z]+ing\s", re.IGNORECASE)


def _after_scene_setting(sentence: str) -> str:
    """Of a sentence too long for a summary, what follows its colon when that says what is
    done and what leads to the colon does not: verl #7085's "Second half of the
    review-requested split (engine core + FSDP moved to #7144, which this PR is stacked on —
    ...; review the second commit only): wires veomni FSDP2+EP into the sharded delta sync end
    to end." was cut to "...: wires…". A lead in a verb's -ing form says what is done too
    (vllm-ascend #10685's "Fixing the problem that historical PR changes are overwritten:")."""
    colon = _top_level_colon(sentence)
    if colon is None:
        return sentence
    lead, rest = sentence[:colon], sentence[colon + 1 :].strip()
    if any(says.match(lead) for says in (_AUTHOR_LEAD, _STATES_THE_CHANGE, _DOING)):
        return sentence
    return rest if _AUTHOR_LEAD.match(rest) else sentence


def _top_level_colon(text: str) -> int | None:
    """Where the first colon followed by a space outside brackets and code spans is, if any."""
    depth = 0
    in_code = False
    for at, char in enumerate(text):
        if char == "`":
            in_code = not in_code
        elif in_code:
            continue
        elif char in _CLOSING:
            depth += 1
        elif char in _CLOSING.values():
            depth = max(depth - 1, 0)
        elif char in ":：" and not depth and text[at + 1 : at + 2].isspace():
            return at
    return None


# Where a line can be cut: at a space, or next to a Chinese or Japanese character (no spaces).
_CJK = "\u3000-\u303f\u3040-\u30ff\u4e00-\u9fff\uff00-\uffef"
_CUT_POINT = re.compile(rf" |(?<=[{_CJK}])|(?=[{_CJK}])")
# Nothing a cut line should end on before its `…`: a comma, a colon, an opening bracket, a dash.
_BEFORE_ELLIPSIS = " ,.;:!?([{-–—/，。；：、！？（【"


# Words a cut line should not end on: they lead into what the cut took ("..., the…",
# "leading to…"), 86 of 565 cut summaries over eight repositories.
_DANGLING_WORD = re.compile(
    r"\s+(?:the|a|an|and|or|but|nor|to|of|in|on|at|for|with|from|by|as|into|onto|via|than"
    r"|that|which|who|whose|when|where|while|if|so|is|are|was|were|be|been|its|their|our|your"
    r"|this|these|those|has|have|had|not|no|under|over|about|after|before|between|without"
    r"|within|across|through|against|during|because)$",
    re.IGNORECASE,
)


# A clause of a word or two after a colon, semicolon or dash says nothing yet: the line ends
# better before it ("... full state restoration — including…", verl #2292; "... under ACL graph
# mode — using…", vllm-ascend #10586). Words, not values: a name, path or image after a label's
# colon is what the label is for (vllm-ascend #1879 "... runner: linux-aarch64-310p-1,
# linux-aarch64-310p-4…" was cut to "... runner…").
_CLAUSE_BARELY_BEGUN = re.compile(r"(?:[:;]|\s[—–-])\s+(?:\S{1,15}\s+)?\S{1,15}$")


def _cut(line: str, room: int) -> str:
    """At most `room` characters of `line`, ending between words; mid-word only when the word
    there is so long that cutting before it would leave less than a quarter of the room. Not
    on a word that only leads into the next, while half the room is still used."""
    points = [p.start() for p in _CUT_POINT.finditer(line[: room + 1]) if 0 < p.start() <= room]
    end = points[-1] if points and points[-1] >= room // 4 else room
    cut = line[:end].rstrip(_BEFORE_ELLIPSIS)
    while (dangling := _DANGLING_WORD.search(cut)) and dangling.start() >= room // 2:
        cut = cut[: dangling.start()].rstrip(_BEFORE_ELLIPSIS)
    if (begun := _CLAUSE_BARELY_BEGUN.search(cut)) and begun.start() >= room // 2:
        cut = cut[: begun.start()].rstrip(_BEFORE_ELLIPSIS)
    return cut


# How far over its limit a text may run rather than be cut: cutting a word or two saves little
# and loses how the sentence ends ("reuse trainer worker group for hybrid rollout to do…",
# verl #6076's subject, 62 characters against 60).
SLACK = 1.25


def shorten(text: str, limit: int, slack: float = 1.0) -> str:
    """`text` on one line in at most `limit` characters, marked `…` where cut: between words,
    mid-word only in one enormous token, and never inside a `code span` (cut before it, or
    close it when it is most of what is left). A text at most `slack` times `limit` long is
    kept whole."""
    line = " ".join(text.split())
    if len(line) <= limit * slack:
        return line
    cut = _cut(line, limit - 1)  # one character for the `…`
    if cut.count("`") % 2:
        before = cut[: cut.rfind("`")].rstrip(_BEFORE_ELLIPSIS)
        # The `…` goes outside the span, so its closing backtick needs a character too.
        cut = before if len(before) >= limit // 4 else _cut(line, limit - 2) + "`"
    opened = _unclosed_bracket(cut)
    if opened is not None:
        # An aside cut short reads as a fragment ("kernels (torch.compile, Triton/DeepGEMM…");
        # the clause before it ends the line cleanly, when that keeps half the room.
        before = cut[:opened].rstrip(_BEFORE_ELLIPSIS)
        if len(before) >= limit // 2:
            cut = before
    return (cut or line[: limit - 1]) + "…"


_CLOSING = {"(": ")", "（": "）", "[": "]", "【": "】"}


def _unclosed_bracket(text: str) -> int | None:
    """Where the outermost bracket still open at the end of `text` opens, if one is."""
    stack: list[tuple[int, str]] = []
    for at, char in enumerate(text):
        if char in _CLOSING:
            stack.append((at, _CLOSING[char]))
        elif stack and char == stack[-1][1]:
            stack.pop()
    return stack[0][0] if stack else None


def own_references(text: str, repo: str) -> str:
    """Links to the repository's own PRs and issues as `#N` (which the report links again)."""
    pattern = (
        rf"https?://github\.com/{re.escape(repo)}/(?:pull|issues)/(\d+)(?:[/#][\w./#-]*[\w/-])?"
    )
    return re.sub(pattern, r"#\1", text, flags=re.IGNORECASE)


# Thanks to someone, for their part: `Thanks for @QwertyJack for the rapid rough adaption of
# DSv4 DSpark.` (vllm-ascend #11431).
_THANKS = re.compile(r"^(?:many\s+)?(?:thanks?|thank\s+you)\s+(?:to|for)?\s*@[\w-]+", re.IGNORECASE)
# Who to thank or ask (`cc @a @b`, `Collaborated with @name`): no word on the change.
_CREDIT = re.compile(
    r"^\s*(?:cc|thanks?(?:\s+to)?|collaborated\s+with|co-?authored\s+(?:with|by)|credits?\s+to)"
    r"\b[\s:,]*(?:@[\w-]+[\s,]*(?:and\s+)?)+$",
    re.IGNORECASE,
)
# `See ...`, `Please refer to ...`: a pointer, unless what follows it says what is done.
_POINTER_LEAD = re.compile(r"^(?:please\s+)?(?:see|refer\s+to)\b", re.IGNORECASE)
POINTER_MAX_WORDS = 10
# What a pointer points at: a place to read, not a subject (`See #7402, pre-commit hook will
# forbid ...` says what the hook does).
_POINTED_AT = re.compile(
    r"\b(?:above|below|(?:in-?line\s+|code\s+)?comments?|implementation|discussion|conversation"
    r"|link|issue|docs?|documentation|details?|description|design|rfc|thread)\b",
    re.IGNORECASE,
)
# `Reference: minimax paper section 6.2.4 of <url>`, `Original discussion #2225.`: a source
# cited, not the change.
_CITATION_LEAD = re.compile(
    r"^(?:references?|refs?\s*[:：]|original\s+(?:discussion|issue|pr)|related\s+(?:issues?|prs?"
    r"|discussions?))\b\s*[:：]?",
    re.IGNORECASE,
)
# `The reason is explained in ...`: where the why is, not the why.
_EXPLAINED_ELSEWHERE = re.compile(
    r"^(?:the\s+)?(?:reasons?|rationale|motivation|details?|context|background|root\s+cause"
    r"|explanation)\s+(?:is|are)\s+(?:explained|described|documented|detailed|given|discussed)"
    r"\s+(?:in|at|on|below|above|here)\b[^.]{0,50}$",
    re.IGNORECASE,
)
# A template section answered with nothing (`No API change.`, `No change for the design.`), or
# a field of verl's "Additional Info." filled in (`Training: FSDP`, `Issue Number: #1313`).
_NOTHING_HERE = re.compile(
    r"^(?:no\b[^.,;:]{0,25}\bchanges?\b[^.,;:]{0,20}|not\s+(?:related|applicable|needed|involved)"
    r"|none)$"
    # A template question answered no (vllm-ascend's "Does this PR introduce any user-facing
    # change?": `No, doc only`, `No. This is a documentation-only update.`).
    r"|^(?:no|none|n/a)\s*[,.;:，。；：]"
    # A caption over the results shown below it (`test result （mimo 7b， dapo dataset）`, verl
    # #7188, over three screenshots).
    r"|^(?:(?:test(?:ing)?|experiment(?:al)?|training|benchmark|e2e|accuracy|precision"
    r"|performance|eval(?:uation)?)\s+)?results?\s*(?:[(（][^)）]{0,80}[)）])?\s*[:：]?$"
    r"|^(?:测试|实验|训练|精度|性能)?结果\s*(?:[(（][^)）]{0,80}[)）])?\s*[:：]?$"
    # `As per title.` (six of verl's), `Same as title`, `See title`: nothing beyond the title.
    r"|^(?:as(?:\s+per)?|same\s+as|see)\s+(?:the\s+)?(?:pr\s+)?title$"
    r"|^(?:issue number|training|inference)\s*:"
    # A placeholder the author never filled in (torchtitan #1555's `[TBA] description + figure`).
    r"|^\[?(?:tba|tbd|to be added|coming soon)\b"
    # A template's instruction left in place (llm-compressor's `"please outline how the
    # changes were tested"`).
    r"|^(?:[a-z ]{3,20}:\s*)?[\"“]please\b[^\"”]*[\"”]$"
    # A bot's metadata line: vllm-ascend's `vLLM version: v0.11.2` (or `: main`,
    # `: release/v0.13.0`) ends every description.
    r"|^[\w .-]{1,24}:\s*(?:release/)?v?\d[\w.+-]*$|^vllm\s+(?:version|main)\b"
    # Trailers git and cherry-picks add to a message (vllm-ascend keeps them in the body;
    # LLaMA-Factory's migrated history ends 383 messages with `Former-commit-id: <sha>`).
    # Hyphens or spaces alike: torch-mlir's `Signed-Off By: name <email>` (11 summaries).
    r"|^(?:(?:signed[- ]off|co[- ]authored|reviewed|acked|tested|reported|suggested|assisted)"
    r"[- ]by|former-commit-id|change-id)\s*:|^\(cherry picked from commit\b",
    re.IGNORECASE,
)


# A Chinese or Japanese character, not the full-width punctuation (`：`) English text may hold.
_CJK_CHARACTER = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")


def _only_provenance(text: str) -> bool:
    """Whether every sentence of a paragraph says where the PR comes from, where to read about
    it or whom to thank: `Continuation of #3032 (accidentally merged to wrong base branch). See
    #3032 for full description.` (torchtitan #3127's whole description)."""
    told = sentences(text)
    return bool(told) and all(
        _PROVENANCE.match(s) or _points_elsewhere(s) or _THANKS.match(s) for s in told
    )


def _points_elsewhere(sentence: str) -> bool:
    """A sentence that only says where the explanation is (`See the inline comments for
    rationale.`, `The reason is explained in the in-line comments.`, `Refer to the
    implementation of #1026.`) or cites a source (`Reference: minimax paper section 6.2.4`),
    not what the PR does (`See #2687: we skip the flaky tests`)."""
    words = _ISSUE_NUMBER.sub("", URL.sub("", sentence)).strip(" ,;:.。")
    if _EXPLAINED_ELSEWHERE.match(words):
        return True
    cited = _CITATION_LEAD.match(words)
    if cited is not None:
        rest = words[cited.end() :]
        return len(rest.split()) <= POINTER_MAX_WORDS and not _CHANGE_WORDS.search(rest)
    lead = _POINTER_LEAD.match(words)
    if lead is None:
        return False
    rest = words[lead.end() :]
    return (
        len(rest.split()) <= POINTER_MAX_WORDS
        and (not rest or _POINTED_AT.search(rest) is not None)
        and not _CHANGE_WORDS.search(rest)
    )


# A note on how the change was tried out, not what it is: `claude ran a OOM job to verified 3
# things. super safe!` (torchtitan #2374, over its three checks).
_TESTING_NOTE = re.compile(
    r"^(?:[\w-]+\s+)?(?:ran|re-?ran|tested|verified|validated)\s+(?:it|this|the|a|an|on|with"
    r"|locally|manually|against)\b",
    re.IGNORECASE,
)


def _without_asides(paragraphs: list[_Paragraph]) -> list[_Paragraph]:
    """The paragraphs without those that open by saying how the change was tried and never
    say what it does, nor the list items after such a paragraph (what was checked), nor a
    question over a list."""
    kept: list[_Paragraph] = []
    noted = False
    for at, paragraph in enumerate(paragraphs):
        if paragraph.list_item and noted:
            continue
        told = sentences(_plain(paragraph.text))
        noted = (
            not paragraph.list_item
            and bool(told)
            and _TESTING_NOTE.match(told[0]) is not None
            and not any(_STATES_THE_CHANGE.match(s) or _AUTHOR_LEAD.match(s) for s in told)
        )
        heading = (
            not paragraph.list_item
            and _QUESTION.match(_plain(paragraph.text).strip()) is not None
            and at + 1 < len(paragraphs)
            and paragraphs[at + 1].list_item
        )
        if not noted and not heading:
            kept.append(paragraph)
    return kept


# A question alone over a list heads it: vllm-ascend #11431's `What does it follow?`, `What
# does it refactor?` and `What does it add?`.
_QUESTION = re.compile(r"^[^.!?。！？]+[?？]$")
# A command line left unformatted: a flag and its value (`--additional-config '{...}'`, the
# usage under vllm-ascend #6442's lead-in) or a shell prompt.
_COMMAND_LINE = re.compile(r"^(?:--[A-Za-z]|\$\s+\S)")
# An error a program printed, pasted as a line of text: verl #5234's summary was its quoted
# `AttributeError: 'Parameter' object has no attribute 'weight_loader'`, vllm-ascend #9334's a
# `RuntimeError: npu_add ...` under "**Error information**".
_LOG_LINE = re.compile(
    r"^(?:Traceback \(most recent call last\)|(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning)"
    r"(?:: |\())"
)
# A frame of a Python traceback pasted as text, whatever prefixes its lines (`E (EngineCore
# pid=6388) File "/home/.../subprocess.py", line 1026, in __init__`: llm-compressor #2618's
# summary was that frame).
_TRACEBACK_FRAME = re.compile(r'\bFile\s+"[^"\n]+",\s+line\s+\d+')
# A table pasted without its leading pipes (`Step | time | log` over `-- | -- | --`,
# torchtitan #1804): its delimiter row gives it away.
_TABLE_DELIMITER = re.compile(r"(?:^|\s)\|?\s*:?-{2,}:?\s*\|\s*:?-{2,}:?")


MAX_NAME_CHARS = 30  # a code span this long names a thing; a longer one is code


def _says_something(paragraph: str) -> bool:
    """Not a link, reference or code span with a few words around it (`Address the first issue
    in https://...`, `Follow #2815.`, a file's path), and not the rest of a title GitHub cut
    short (`…ion when`), nor a greeting of reviewers (`cc @name`) or a template's field."""
    if (
        _ONLY_REFERENCES.match(paragraph.strip())
        or _COMMAND_LINE.match(paragraph.strip())
        or _LOG_LINE.match(paragraph.strip())
        or _TRACEBACK_FRAME.search(paragraph)
        or _TABLE_DELIMITER.search(paragraph)
    ):
        return False
    # The names a sentence acts on are what it says (verl #7158's "Convert `routed_experts` to
    # `numpy.ndarray`."); beside no verb a name is a file's path or a list's item, and a long
    # span is code pasted in (verl #1756's "Changed `copy_to_local(...)` to `...`").
    acts = _AUTHOR_LEAD.match(paragraph.strip()) is not None
    words = _CODE_SPAN.sub(
        lambda span: "name" if acts and len(span.group()) <= MAX_NAME_CHARS else "",
        _ISSUE_NUMBER.sub("", URL.sub("", paragraph)),
    )
    words = _CREDIT.sub("", words).strip(" ,;.")
    enough = 40 if URL.search(paragraph) else 12
    return (
        len(words) >= enough
        # One name alone is a list's item, not a sentence (`MiniMax-M2.md`, a model's id);
        # Chinese writes a sentence without spaces.
        and (len(words.split()) > 1 or _CJK_CHARACTER.search(words) is not None)
        and not paragraph.startswith(("…", "..."))
        and not _NOTHING_HERE.match(words)
        and not _points_elsewhere(paragraph)
        and not _is_data(words)
    )


# A paragraph of figures, not words: verl #884's CI timings ("Ckpt 0 16m Dataset 1 1m dcf 1
# 6m ..." and "0 16+6+15+15+3+1+12=68"), which read as nonsense in a summary. Most of its
# tokens carry a digit, or few of its characters are letters.
MIN_DATA_TOKENS = 8
DATA_DIGIT_SHARE = 0.6
MIN_LETTER_SHARE = 0.3


def _is_data(text: str) -> bool:
    tokens = text.split()
    with_digits = sum(1 for token in tokens if any(c.isdigit() for c in token))
    characters = "".join(tokens)
    letters = sum(1 for c in characters if c.isalpha())
    return (
        len(tokens) >= MIN_DATA_TOKENS and with_digits >= DATA_DIGIT_SHARE * len(tokens)
    ) or letters < MIN_LETTER_SHARE * len(characters)


# Verbs a sentence about a change opens with, in any of their forms ("add", "adds", "added").
CHANGE_VERBS = (
    r"(?:add|fix|remove|support|make|update|implement|introduce|use|enable|allow|refactor|move"
    r"|rename|replace|improve|optimi[sz]e|avoid|prevent|bump|upgrade|migrate|switch|skip|extend"
    r"|expose|provide|create|delete|clean|drop|correct|resolve|handle|restore|unify|simplify"
    r"|align|set|change|ensure|wire|pass|split|register|integrate|adapt|reduce|cache|defer"
    r"|upload|hardcode|revert|disable|raise|lower|pin|guard|return|keep|let|apply|install|stop"
    r"|deprecate|rewrite|rework|reorganize|speed|accelerate|validate|sync|increase|decrease"
    r"|limit|convert)"
    r"(?:s|es|ed|d)?\b"
)
# Words by which a sentence says what is done, beside where to look (`See #2687, we skip ...`).
_CHANGE_WORDS = re.compile(
    rf"\b{CHANGE_VERBS}|\bthis (?:pr|pull request|change|patch)\b|\bwe\b", re.IGNORECASE
)
# A paragraph that says what the PR does ("This PR adds ...", "In this PR, we ...", "We add
# ..."), not one that only points back at the background ("This PR fixes the above issue.").
_STATES_THE_CHANGE = re.compile(
    r"^(?:this (?:pr|pull request|change|patch|commit)\b|in this (?:pr|pull request|change)\b"
    rf"|we (?:now )?{CHANGE_VERBS})"
    r"(?![^.]{0,40}\b(?:above|the issue|this issue|the problem|this problem)\b[^.]{0,20}(?:\.|$))",
    re.IGNORECASE,
)
# A paragraph on what the PR does that names what it acts on only by pointing back at the
# background ("This change restores that ordering when ...", vllm-ascend #13412; "This PR only
# removes those two keyword arguments.", vllm-ascend #13149) does not stand alone as a summary,
# unless a `by ...ing` clause says the change (see `_FIXES_IT_BY`).
_POINTS_BACK = re.compile(
    r"^(?:this (?:pr|pull request|change|patch|commit)|in this (?:pr|pull request|change),?\s+we"
    r"|we)\s+(?:\w+\s+){0,4}?"
    rf"(?:{CHANGE_VERBS}|solve[sd]?|address(?:es|ed)?)\s+(?:the\s+)?"
    r"(?:th(?:ese|ose)|(?<!ensure )(?<!ensures )that|this|above|aforementioned)\s+"
    r"(?![^.:;]*\bby\s+\w+ing\b)(?!(?:pr|pull request|change|patch|commit)\b)\S",
    re.IGNORECASE,
)
# A sentence that opens by going on from the one before it.
_CONTINUES = re.compile(r"^(?:also|and)\s*,?\s+(?=[a-z`])", re.IGNORECASE)
# "This PR also fixes two adjacent bugs ...": a change beside the main one, not the main one.
_ALSO = re.compile(
    r"^(?:this (?:pr|pull request|change|patch|commit)|we|it)\s+also\b", re.IGNORECASE
)
# `now` before what something does (`each card now simply stores`), not before what it intends
# or suffers (`the operator team now plans to`, `training now fails`).
_NOW = re.compile(
    r"\bnow\s+(?:\w+ly\s+)?(?!(?:plan|need|want|seem|look|tend|fail|break|crash|hang)s\b)"
    r"\w+(?:s|es)\b"
)
# "The corresponding build entries ... are removed": what is done, said in the passive.
_PASSIVE_CHANGE = re.compile(
    rf"\b(?:is|are|was|were|has been|have been)\s+{CHANGE_VERBS}", re.IGNORECASE
)
# A paragraph that opens with what is done ("Adds ...", "We bring ...") is a summary already.
_AUTHOR_LEAD = re.compile(rf"^(?:{CHANGE_VERBS}|we\b)", re.IGNORECASE)


# The end of a sentence that introduces a list, and the words that point at it (`such as:`).
_LIST_LEAD_END = re.compile(r"(?:,?\s+(?:such\s+as|including))?\s*[:：]\s*$")
# A lead-in that cannot end a sentence: `... canonical GRPO by:`, `... the changes are:`.
_DANGLING = re.compile(
    r"\b(?:by|with|to|for|of|in|on|at|from|as|via|like|below|following|follows|include|includes"
    r"|supports?|provides?|contains?|offers?|covers?"
    r"|is|are|was|were|be|which|that|these|those|the|a|an|and|or)\s*$",
    re.IGNORECASE,
)
LONG_LEAD_IN_WORDS = 15
# Words of a lead-in's last clause that leave what it tells to the list: "the following
# error", "some issues", "several changes"; not "When some workers restart, ...:".
_POINTS_AT_ITEMS = re.compile(
    r"\b(?:follow(?:s|ing)?|below|some|several|a few|multiple|various)\b", re.IGNORECASE
)
_CLAUSE_BREAK = re.compile(r"[,;，；]")


# A sentence that only counts what follows (`this pr accomplish two things`, vllm-ascend
# #13532; `This PR completes that path with three changes, plus the example-script wiring:`,
# verl #7297), with or without the colon.
_ANNOUNCES_A_LIST = re.compile(
    r"^(?:this|the|in this) (?:pr|pull request|change|patch)\b[^.,;]{0,30}?"
    r"\b(?:two|three|four|five|several|a few|some|multiple|the following|following|\d+)\s+"
    r"(?:main |major |key )?(?:things|changes|parts|items|modifications|fixes|points|aspects"
    r"|updates|improvements|tasks)(?:,?\s+plus\s[^.:：]{1,60})?\s*[.:：]?$",
    re.IGNORECASE,
)


def _is_bare_lead_in(paragraph: str) -> bool:
    """One sentence that introduces a list (`Main changes:`, `This PR makes X match Y by:`),
    which is no summary; unless it says what the PR does at some length and can end as a
    sentence (`This PR replaces the crash with a warning + NaN return, so training can continue
    gracefully in edge cases such as:`, verl #5899), which beats the list's first item."""
    if _ANNOUNCES_A_LIST.match(paragraph):
        return True
    lead_end = _LIST_LEAD_END.search(paragraph)
    if not lead_end or len(_SENTENCE_END.split(paragraph)) > 1:
        return False
    if _dangles(paragraph):
        return True
    if _STATES_THE_CHANGE.match(paragraph) and len(paragraph.split()) >= 10:
        return False
    # A long one may tell the problem (verl #6268: "When `use_fused_kernels=True` is combined
    # with ..., the fused-forward functions ... were re-rolling SP-sliced inputs locally:"),
    # unless it points at what follows ("we have to make the following changes:").
    return (
        len(paragraph.split()) < LONG_LEAD_IN_WORDS
        or _POINTS_AT_ITEMS.search(_CLAUSE_BREAK.split(paragraph[: lead_end.start()])[-1])
        is not None
    )


# A few words that run on into the list below them, without a colon: `This pr adds` (torchtitan
# #1540, whose summary was just that), `This PR also`, `At the same time`, `which includes`,
# `I observed that`. Not a sentence without its stop (`support training qwen3vl with megatron`).
_OPEN_LEAD = re.compile(
    r"^(?:(?:\S+\s+){0,3}[\w`]+"
    r"|(?:\S+\s+){0,5}(?:also|adds?|includes?|including|contains?|does|following|below|that"
    r"|by|with|to|for|of|in|on|from|as|via|like|is|are|the|a|an|and|or))$",
    re.IGNORECASE,
)
# A lead-in whose last word runs on into its items without the colon: `... GRPO by:`.
_RUNS_ON = re.compile(r"\b(?:by|with|via|like|to|for|of)\s*[:：]\s*$", re.IGNORECASE)
_EXAMPLES_LEAD_END = re.compile(r"\b(?:such\s+as|including)\s*[:：]\s*$")
# A list item short enough to go into its lead-in's sentence.
_ITEM_MAX_CHARS = 120
# An item's first word that is no name, so lower-cased inside the sentence: a verb or a
# function word (`The maximum ...`, `Add ...`), or a word before a lower-case one; not `Tensor
# Parallel (TP)` or `Incorrect Division in Batch Sizes`.
_PLAIN_CAPITALISED = re.compile(
    rf"^(?-i:(?=[A-Z]))(?:{CHANGE_VERBS}\w*|the|an?|this|that|these|those|each|all|any|some"
    r"|its|their|our|new|in|on|for|with|when|if)\b(?![-_.(])"
    r"|^(?-i:[A-Z][a-z]+)\b(?![-_.(])(?!\s+(?-i:[A-Z]))",
    re.IGNORECASE,
)
# A template's field as a list item: `**Training**: FSDP`, `Modified File : x.yaml`.
_FIELD_ITEM = re.compile(r"^\W*[A-Za-z][\w ]{0,24}?\W*\s*[:：]\s*\S")


def _lead_ins_with_their_items(paragraphs: list[_Paragraph], limit: int) -> list[_Paragraph]:
    """A sentence that says what the PR does and introduces a short list, with the list's
    items: "This PR unifies the token-dispatch API ... and separates:" over two items read
    "... and separates." (pytorch/torchtitan #3970), and "This PR separates:" gave way to its
    first item alone. Items go in whole, as many as fit the summary, `…` for the rest; a
    lead-in that is itself most of a summary takes all or none. A few words that run on into
    the list without a colon go with it when they say the change, else they go. A heading
    over nothing but a list (`## Supported Features`) leads it, unless a template names it
    (`## Summary`): torchtitan #1373's summary was its second item, "Activation checkpointing"."""
    joined: list[_Paragraph | None] = list(paragraphs)
    for at, paragraph in enumerate(paragraphs):
        if not paragraph.list_item:
            lead, first_item = paragraph, at + 1
        elif _opens_a_listed_section(paragraphs, at):
            heading = paragraph.section.rstrip(" :：?？")
            lead, first_item = paragraph._replace(text=f"{heading}:"), at
        else:
            continue
        items: list[str] = []
        for following in paragraphs[first_item:]:
            if not following.list_item or following.section != lead.section:
                break
            items.append(_without_leading_symbols(following.text).rstrip(" .;,。；，…"))
        open_lead = (
            bool(items)
            and not lead.list_item
            and _OPEN_LEAD.match(lead.text) is not None
            and not _CJK_CHARACTER.search(lead.text)  # Chinese writes a sentence without spaces
        )
        if open_lead and not _STATES_THE_CHANGE.match(lead.text):
            joined[at] = None  # `At the same time` over a list (torchtitan #1064): no sentence
            continue
        named_by_heading = paragraph.list_item
        if not (open_lead or _introduces_items(lead.text, 2 if named_by_heading else 3)):
            continue
        if named_by_heading and all(_FIELD_ITEM.match(item) for item in items):
            continue  # a template's fields (verl's `### Additional Info.`: `Training: FSDP`)
        text = lead.text.rstrip()
        written = 0
        for entry in items:
            if not entry or not _fits_a_sentence(entry):  # `- ...`: the author's "and so on"
                break
            marks = len(entry) - len(entry.lstrip("*_"))  # `**Incorrect division ...**`
            if _PLAIN_CAPITALISED.match(entry[marks:]):
                entry = entry[:marks] + entry[marks].lower() + entry[marks + 1 :]
            longer = f"{text}{'; ' if written else ' '}{entry}"
            if len(longer) > limit * SLACK:
                break
            text, written = longer, written + 1
        if _RUNS_ON.search(lead.text):  # `... match canonical GRPO by centering the sums.`
            text = _LIST_LEAD_END.sub("", lead.text.rstrip()) + text[len(lead.text.rstrip()) :]
        if written and written == len(items):
            joined[at] = lead._replace(text=text + ".")
        elif written and len(lead.text) < limit // 2:
            joined[at] = lead._replace(text=text + "; …")
        elif open_lead:
            joined[at] = None
    return [paragraph for paragraph in joined if paragraph is not None]


def _opens_a_listed_section(paragraphs: list[_Paragraph], at: int) -> bool:
    """Whether a list item opens a section of its own heading that holds only the list."""
    item = paragraphs[at]
    before = paragraphs[at - 1] if at else None
    rest = [p for p in paragraphs[at:] if p.section == item.section]
    return (
        bool(item.section)
        and not item.section[0].isdigit()  # `### 1. Fix Config Reference` numbers a change
        and (before is None or before.section != item.section)
        and all(p.list_item for p in rest)
        and not _known_section(item.section)
    )


def _fits_a_sentence(item: str) -> bool:
    """A list item that can go into its lead-in's sentence: short, one sentence, words rather
    than links (verl #6335's two URLs), and no lead-in of a list of its own."""
    return (
        len(item) <= _ITEM_MAX_CHARS
        and len(sentences(item)) == 1
        and not _LIST_LEAD_END.search(item)
        and not _ONLY_REFERENCES.match(item)
        and len(URL.sub("", item).strip()) >= len(item) // 2
    )


def _introduces_items(lead: str, min_words: int) -> bool:
    """One sentence that ends in a colon, says what the PR does (`This PR supports:`) or is more
    than a label (`Add missing NVIDIA GPU entries:`, `Minimal set up for dropless-enough
    cudagraphable moe:`; not `Changes:`, `Changes on:`), and does not count what follows
    (`This PR does three things:`). A sentence that says the change and then points
    at examples (`... in edge cases such as:`, verl #5899) stands without them."""
    examples = _EXAMPLES_LEAD_END.search(lead) is not None
    return (
        _LIST_LEAD_END.search(lead) is not None
        and not (examples and not _is_bare_lead_in(lead))
        and len(sentences(lead)) == 1
        and not _ANNOUNCES_A_LIST.match(lead)
        and (_STATES_THE_CHANGE.match(lead) is not None or len(lead.split()) >= min_words)
    )


def _dangles(lead_in: str) -> bool:
    """Whether a sentence that introduces a list cannot end as a sentence (`... GRPO by:`)."""
    lead_end = _LIST_LEAD_END.search(lead_in)
    return lead_end is not None and _DANGLING.search(lead_in[: lead_end.start()]) is not None


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


_STEM_ENDINGS = ("ing", "ed", "es", "s", "e")
# Words a sentence adds to its title without saying more: function words, and those that say a
# change is made rather than what it is (vllm-ascend's "Add release note for v0.11.0rc0" under
# "[Doc] Release note for v0.11.0rc0"; tilelang's "Fix WS prelude liveness ordering" under
# "[Transform] Preserve WS prelude liveness ordering").
_FUNCTION_WORDS = _words(
    "a an the this that these those it its is are was be we i our to of in on for and or with"
    " by as at from into"
)
_MAKING_WORDS = _words(
    "add fix updat support enabl implement introduc remov refactor optimiz improv"
)
_PR_NUMBER = re.compile(r"#\d+")
_COMMIT_HASH = re.compile(r"[0-9a-f]{12,40}")
# A word this close to a title word, with the same digits, is that word misspelt (`uesless`).
MISSPELT_RATIO = 0.85
MISSPELT_MIN_LENGTH = 6


def _stem(word: str) -> str:
    """A word without the ending that inflects it (`bumps`, `fixed`, `removes` -> `bump`,
    `fix`, `remov`), applied alike to both texts compared; short words stay whole."""
    for ending in _STEM_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def _misspelt(word: str, title_words: Sequence[str]) -> bool:
    if len(word) < MISSPELT_MIN_LENGTH:
        return False
    digits = re.sub(r"\D", "", word)
    return any(
        len(other) >= MISSPELT_MIN_LENGTH
        and re.sub(r"\D", "", other) == digits
        and _close(word, other)
        for other in title_words
    )


@lru_cache(maxsize=65536)
def _close(word: str, other: str) -> bool:
    # Upper bounds of the ratio first, cheapest first: most pairs are told apart by them. Words
    # of lengths a and b share at most min(a, b) characters (difflib's real_quick_ratio).
    if 2 * min(len(word), len(other)) < MISSPELT_RATIO * (len(word) + len(other)):
        return False
    matcher = difflib.SequenceMatcher(None, word, other)
    return matcher.quick_ratio() >= MISSPELT_RATIO and matcher.ratio() >= MISSPELT_RATIO


def words_beyond(text: str, title: str) -> set[str]:
    """The words of `text` that say more than `title` does, stemmed. Not a PR number, nor a
    word's ending (Dependabot's "Bumps X from 4 to 5." under its title "Bump X from 4 to 5"),
    a function word, two title words run together (`Qwen3Next`, `from3`), a title word
    misspelt, or a commit hash; nor a word that only says a change is made (`add`, `fix`)
    under a title that says what kind of change it is: under tilelang's "[CUDA][Codegen] Keep
    RNG state in kernel scope", "Fix CUDA RNG state scope" says it is a fix."""
    title_words = re.findall(r"\w+", _PR_NUMBER.sub(" ", title.lower()))
    known = {_stem(word) for word in title_words}
    making = _MAKING_WORDS if parse_title(title).type != "other" else frozenset()
    joined = {first + second for first, second in pairwise(title_words)}
    beyond = set()
    for word in re.findall(r"\w+", _PR_NUMBER.sub(" ", text.lower())):
        stemmed = _stem(word)
        if (
            stemmed in known
            or stemmed in _FUNCTION_WORDS
            or stemmed in making
            or word in joined
            or _COMMIT_HASH.fullmatch(word)
            or _misspelt(word, title_words)
        ):
            continue
        beyond.add(stemmed)
    return beyond


def _only_the_title(sentence: str, title_words: set[str]) -> bool:
    words = _words(sentence)
    return bool(words) and words <= title_words


# A section that lists what changed: `## Changes ##`, `Specific Changes`, `What changed`.
_CHANGES_SECTION = re.compile(
    r"^(?:(?:specific|code|main|key)\s+)?(?:changes?|modifications?)(?:\s+made)?\s*[:：]?$"
    r"|^what(?:'s|\s+has|\s+was|\s+is)?\s+changed?\b",
    re.IGNORECASE,
)


def _beyond_the_title(paragraphs: list[_Paragraph], title_words: set[str]) -> list[tuple[str, str]]:
    """(section, plain text) of each paragraph from its first sentence that is more than the
    title again: authors open with the title (`Add Checkpoint Engine abstraction.`, verl #4775)
    and explain after it. A list that opens with the title lists squashed commits or lesser
    changes (`* add allgather method`, `* add tests`, ...) and is left out whole."""
    result: list[tuple[str, str]] = []
    in_title_list = False
    for index, paragraph in enumerate(paragraphs):
        if _BARE_LINK.match(paragraph.text):
            continue
        text = _PARAGRAPH_LEAD.sub("", _plain(paragraph.text))
        split = sentences(text)
        beyond = split
        while beyond and _only_the_title(beyond[0], title_words):
            beyond = beyond[1:]
        first_item = paragraph.list_item and (index == 0 or not paragraphs[index - 1].list_item)
        if first_item:
            in_title_list = bool(split) and not beyond
            if in_title_list and index == 0:  # GitHub's squash message: only commit subjects
                # A section on the changes says them still: llm-compressor #2822's `## Purpose
                # ##` item is the title, its `## Changes ##` item what changed.
                changes = [
                    p
                    for p in paragraphs
                    if p.section != paragraph.section and _CHANGES_SECTION.match(p.section)
                ]
                return _beyond_the_title(changes, title_words) if changes else []
        if paragraph.list_item and in_title_list:
            continue
        rest = " ".join(beyond)
        # What trails the title is often only a pointer (`Related issue: [issue](...)`).
        if beyond == split or len(rest.split()) >= 5:
            result.append((paragraph.section, rest))
    return result


# GitHub's default squash message: the branch's commits, `* subject` paragraph by paragraph
# (a subject is plain text; an author's list item may open with `**` or a code span).
_COMMIT_ITEM = re.compile(r"^\* [^\s*`]", re.MULTILINE)


# A commit subject in the conventional form, as a squash lists it: `* fix(batch): restore ...`.
_CONVENTIONAL_COMMIT_ITEM = re.compile(r"^\* [a-z]+(?:\([^)\n]*\))?!?: \S", re.IGNORECASE)


def _blank_line_paragraphs(body: str) -> list[str]:
    """The body's blocks between blank lines, as a squash message separates its commits."""
    return [p.strip() for p in re.split(r"\n\s*\n", body.strip()) if p.strip()]


def _is_squashed_commit_list(body: str, title: str) -> bool:
    """A body that lists the branch's commits rather than describing the PR (tilelang #682
    opened with `* Refactor buffer index handling ... (#668)`, another PR's subject).

    Some squashes list the commits a line each, with no blank lines between: such a list names
    the PR's own title among its commits (aibrix #2273: `* Add brixbench benchmark module`, the
    commit of the PR its branch grew from, then `* Add Qwen3-8B 4P4D PD routing benchmark
    scenarios`, the title), which a list the author wrote does not; or whose every line is a
    conventional commit subject (aibrix #2564: `* chore(batch): log result persistence
    failures`, then three `* fix(batch): ...`), as an author's list is not written.
    """
    paragraphs = _blank_line_paragraphs(body)
    if not paragraphs or _COMMIT_ITEM.match(paragraphs[0]) is None:
        return False
    if len([p for p in paragraphs if _COMMIT_ITEM.match(p)]) >= 2:
        return True
    lines = paragraphs[0].splitlines()
    subject = commit_subject(title)
    return (
        len(lines) >= 2
        and all(_COMMIT_ITEM.match(line) for line in lines)
        and (
            any(commit_subject(line[2:]) == subject for line in lines)
            or all(_CONVENTIONAL_COMMIT_ITEM.match(line) for line in lines)
        )
    )


def _own_commit_message(body: str, title: str) -> str:
    """What a squash message says under its first commit, when that commit is the PR's own
    change (its subject is the PR's title): the branch's later commits are fixups, and the
    first one's message is the description the PR has (lmdeploy #4838: `* fix(turbomind):
    dispatch cuMemcpyBatchAsync ...`, then why CUDA 13 segfaulted). A first commit under
    another subject describes only itself (tilelang #583: `Enhanced pythonic_expr ...` under
    "align shared memory allocations"), and one naming a PR number the title does not came
    from that PR."""
    paragraphs = _blank_line_paragraphs(body)
    subject, *rest = paragraphs[0].splitlines()
    taken = re.search(r"\(#\d+\)$", subject.rstrip())
    if commit_subject(subject[2:]) != commit_subject(title) or (
        taken and taken.group() not in title
    ):
        return ""
    message = ["\n".join(rest)] if rest and not _COMMIT_ITEM.match(rest[0]) else []
    for paragraph in paragraphs[1:]:
        if _COMMIT_ITEM.match(paragraph):
            break
        message.append(paragraph)
    return "\n\n".join(message)


# Commit subjects that say nothing of the change: merges, reverts within the branch, attempts,
# review rounds, bots' fixes, typos and a file's name alone (`Update README.rst`).
_FIXUP_SUBJECT = re.compile(
    r"^(?:merge|revert|wip|rebased?|debug|need|try|trying|tried)\b|\bpre-?commit\b"
    r"|^(?:apply\b.{0,10}\b)?suggestions?\b"
    r"|^fix(?:e[sd])?\s+(?:an?\s+|some\s+)?typos?\b"
    r"|^(?:address|resolve|fix)(?:e[sd]|s|ed)?\b.{0,20}\b(?:comments?|reviews?|feedback|conflicts?)$"
    # A review round, however long its subject, unless a colon goes on to say what changed:
    # `address grouped MLP fused op review comments` (TE #2981), `renaming based on reviewers
    # suggestions` (TE #765), `fixes per PR review` (TE #2412); not `address review: drop dead
    # 8.9 FP8 guard` (TE #2959), nor `bugs surfaced by simplicity review` (OpenRLHF #1307).
    r"|^address(?:e[sd]|ing)?\b[^:]*\breview(?!.*:\s*\S)"
    r"|\b(?:per|based on|according to)\s+(?:the\s+)?(?:[\w-]+\s+)?review(?:er)?s?'?"
    r"(?:\s+(?:comments?|suggestions?|feedback))?$"
    r"|^(?:update|create|delete|add|modify|rename|fix)(?:e?[sd])?\s+[\w./-]+\.\w+$",
    re.IGNORECASE,
)
# Words a fixup's subject is made of (`fix`, `update`, `polish code`, `fix CI path`, `next round
# fixes`, `final cpp cleanup`): a subject needs two words beside them to say what changed.
_FIXUP_WORDS = (
    _words(
        "fix fixes fixed fixing bugfix hotfix update updates updated upd tmp temp test tests "
        "testing lint linter linting format formatting style typo typos polish refine refined "
        "revise revision minor small some more again debug try cleanup clean up code bug bugs "
        "issue issues error errors problem problems comment comments review reviews conflict "
        "conflicts nit nits misc change changes modify modified done ok save commit final "
        "next round initial first second ci path perf port unused copyright year "
        "license header headers import imports docstring docstrings whitespace spelling print "
        "prints draft failure failures need work working stuff things todo tweak params"
    )
    | _FUNCTION_WORDS
)
# A word that opens a line in lower case, not an identifier (`vllm_ascend ...`, `torch.compile
# ...`) or a link, which keep their case.
_LOWER_CASE_WORD = re.compile(r"[a-z]+(?=[\s,;]|:(?!//)|$)")
# A commit that names a PR came from it (`Refactor buffer index handling (#668)`, tilelang #682;
# AReaL's `PullRequest: 67 Update v0.2.0 Dockerfile`, merged from its internal review site).
_OTHER_PR = re.compile(r"\s*\(#(?P<number>\d+)\)\s*$|^pullrequest:\s*\d+\b", re.IGNORECASE)
MIN_SUBJECT_WORDS = 3
MIN_SUBJECT_CONTENT_WORDS = 2
MAX_WORDS_BEYOND_OWN_COMMIT = 1
MIN_WORDS_BEYOND_ONE_COMMIT = 3


def _listed_subjects(body: str) -> list[str]:
    """The subjects of the commits a squash message lists, in order: each `* subject` that
    opens a paragraph, and every line of a paragraph that is all such lines."""
    subjects: list[str] = []
    for paragraph in _blank_line_paragraphs(body):
        lines = paragraph.splitlines()
        if all(_COMMIT_ITEM.match(line) for line in lines):
            subjects.extend(line[2:].strip() for line in lines)
        elif _COMMIT_ITEM.match(lines[0]):
            subjects.append(lines[0][2:].strip())
    return subjects


def _says_a_change(subject: str) -> bool:
    """A commit subject that says what changed, not a fixup (`fix lint`, `update`, `.`)."""
    if _FIXUP_SUBJECT.search(subject):
        return False
    words = re.findall(r"[^\W\d_][\w-]*", subject.lower())
    content = [word for word in words if not {word, _stem(word)} & _FIXUP_WORDS]
    return len(words) >= MIN_SUBJECT_WORDS and len(content) >= MIN_SUBJECT_CONTENT_WORDS


def subject_keys(text: str) -> set[str]:
    """The keys by which a title or commit subject is told as the same subject elsewhere: with
    and without its tags, type (`feat: add x` and `add x`), PR number and closing stop."""
    return {" ".join(commit_subject(form).split()) for form in (text, parse_title(text).subject)}


def squash_list_subjects(title: str, body: str) -> list[str]:
    """The commit subjects a description lists when it is GitHub's squash message; none else."""
    body = body[:MAX_DESCRIPTION_CHARS]
    return _listed_subjects(body) if _is_squashed_commit_list(body, title) else []


# A branch carries another PR's commits by the handful; one subject alike is chance: `add missing
# license` (TE #3156) landed in #235 three years before.
MIN_COMMITS_FROM_ONE_PR = 2


def _landed_through_other_prs(
    subjects: Sequence[str], title: str, landed_through: Callable[[str], int | None]
) -> set[str]:
    """The squashed commits that landed through another PR before: a branch that merged main
    in, or grew from another PR's branch, lists those commits too (ColossalAI #822's list is
    #821's and more, #1597's holds #1587's, each summary named the other's commits). Not the
    PR's own subject, nor one naming its PR (`... (#668)`), which says the list's owners are
    unknown. A fixup (`Fixes`, `[pre-commit.ci] auto fixes ...`) is every branch's (TE
    #1017): it tells no PR's commits apart, but goes with those of a PR they do."""
    own_keys = subject_keys(title)
    through: dict[str, int] = {}
    for subject in subjects:
        keys = subject_keys(subject)
        if keys & own_keys or _OTHER_PR.search(subject):
            continue
        number = next((n for key in keys if (n := landed_through(key)) is not None), None)
        if number is not None:
            through[subject] = number
    carried = Counter(
        number
        for subject, number in through.items()
        if _says_a_change(parse_title(subject).subject.rstrip(" ."))
    )
    return {
        subject for subject, number in through.items() if carried[number] >= MIN_COMMITS_FROM_ONE_PR
    }


def _nowhere(_: str) -> int | None:
    return None


def _commit_subjects_summary(
    body: str, title: str, limit: int, landed_through: Callable[[str], int | None]
) -> str:
    """What a squash message's commits say, when none of them is the PR's own: OpenRLHF #1307
    ("Cleanup/simplicity tier1 2") lists `* fix: correct latent bugs surfaced by simplicity
    review` and `* refactor: remove dead params and unreachable code`, each over its message.
    The subjects that say a change, in order, as many as fit. None when a commit is the title
    again (those before it came from the base branch, those after are its fixups, aibrix
    #2273), when one came from another PR (a stacked branch, tilelang #682, or main merged in:
    which commits are whose is unknown), or when fixups are most of the list (a branch's
    diary: `fix`, `update`, `polish code`)."""
    # A subject may list changes of its own (`first draft; debug plan failure`, TE #2148).
    listed = _listed_subjects(body)
    elsewhere = _landed_through_other_prs(listed, title, landed_through)
    subjects = [
        " ".join(_without_leading_symbols(part).split())
        for subject in listed
        if subject not in elsewhere
        for part in subject.split("; ")
    ]
    # A name's parts are words of the title too: `Support no sync for zero1 plugin` under
    # "support no_sync method for zero1 plugin" (ColossalAI #4138) says it again.
    title_parts = title.replace("_", " ")
    changes: list[str] = []
    for subject in subjects:
        taken = _OTHER_PR.search(subject)
        if taken and (taken.group("number") is None or f"#{taken.group('number')}" not in title):
            return ""
        # A subject cut off at a comma (`... in test_custom_call_compute.py,`, TE #765) ends
        # at its words, not in `,;`.
        said = parse_title(_OTHER_PR.sub("", subject)).subject.rstrip(" .,;，；")
        if not _says_a_change(said) or said.endswith((":", "：")):
            continue
        # The title reworded (`Move jaxx cuda kernels to core` under "Move cuda kernels from Jax
        # extensions to core", TE #1697) is the PR's own commit too.
        if len(words_beyond(said.replace("_", " "), title_parts)) <= MAX_WORDS_BEYOND_OWN_COMMIT:
            return ""
        if commit_subject(said) not in map(commit_subject, changes):
            changes.append(said)
    if not changes or 2 * len(changes) < len(set(map(commit_subject, subjects))):
        return ""
    # One change alone that adds only a word or two to the title is its own commit reworded
    # (`FA v2.0 support` under "FlashAttention 2.0 support", TE #329): where the change is says
    # more.
    beyond = words_beyond(changes[0].replace("_", " "), title_parts)
    if len(changes) == 1 and len(beyond) < MIN_WORDS_BEYOND_ONE_COMMIT:
        return ""
    # Commits none of which shares a word with the title came with the branch, not for the PR:
    # ColossalAI #300 ("polish license") lists `init shard param from shape tuple`. A fixup word
    # of the title is no such word, stemmed or not: AReaL #70 "Update Dockerfile to v0.3.0"
    # (its Dockerfile alone) lists `update benchmark script`.
    title_words = {_stem(word) for word in _words(title) if not {word, _stem(word)} & _FIXUP_WORDS}
    if not any(title_words & {_stem(word) for word in _words(change)} for change in changes):
        return ""
    text = ""
    for written, change in enumerate(changes):
        if not written:
            if _LOWER_CASE_WORD.match(change):
                change = change[0].upper() + change[1:]
        elif _PLAIN_CAPITALISED.match(change):
            change = change[0].lower() + change[1:]
        longer = f"{text}; {change}" if text else change
        if text and len(longer) > limit:
            return f"{text}; …"
        text = longer
    text = shorten(text, limit, SLACK)
    return text if text.endswith((".", "…")) else f"{text}."


def first_commit_subject(body: str) -> str | None:
    """The subject of the first commit, when a description opens as GitHub's squash message
    does, with a `* subject` line."""
    opening = body.lstrip()
    if _COMMIT_ITEM.match(opening) is None:
        return None
    return opening.split("\n", 1)[0][2:].strip()


def commit_subject(text: str) -> str:
    """A title or commit subject without its tags, PR number and closing stop, lower-cased."""
    without_tags = _LEADING_TAGS.sub("", text.strip())
    return re.sub(r"\s*\(#\d+\)$", "", without_tags).rstrip(". ").lower()


_LEADING_TAGS = re.compile(r"^(?:\[[^\[\]\n]{1,30}\]\s*)+(?=\w)")


# A gitmoji shortcode (`:pencil2: fix typo`, ms-swift #1064).
_SHORTCODE = re.compile(r"^:[a-z0-9_+-]+:\s*")


def _without_leading_symbols(text: str) -> str:
    """Text without the emoji or shortcodes that decorate its start (`✅ Upgrade vllm ...`,
    `📝 Add docstrings ...`): the summary's line is about the change."""
    rest = _SHORTCODE.sub("", text)
    while rest and (rest[0].isspace() or unicodedata.category(rest[0]) in ("So", "Mn")):
        rest = rest[1:]
    return rest or text


_FIELD_LABEL = re.compile(
    r"^(?:reason|rationale|motivation|background|purpose|problem|symptom|summary|description"
    r"|overview|概述|描述)\s*[:：]\s*(?=\S)",
    re.IGNORECASE,
)
# `1.`, `1、`, `1)`, `(1)` before an item, but not a version (`1.5B`).
_ITEM_NUMBER = re.compile(r"(?:^|(?<=\s))\(?(?P<n>\d{1,2})[.、)）](?!\d)\s*")


def _numbered_items(text: str) -> str:
    """A list written on one line (`1.add static EPLB unit test 2.fix bug: ...`, 43 summaries
    over eight repositories) as its items: `add static EPLB unit test; fix bug: ...`; after a
    lead, as the lead and its items (7 more)."""
    marks = list(_ITEM_NUMBER.finditer(text))
    first = next((i for i, mark in enumerate(marks) if mark.group("n") == "1"), None)
    if first is None:
        return text
    numbered = [marks[first]]
    for mark in marks[first + 1 :]:
        if int(mark.group("n")) == len(numbered) + 1:
            numbered.append(mark)
    lead = text[: numbered[0].start()].strip()
    # After a lead (`Remove unnecessary attributes from X 1.prefetch_stream 2.weight_...`,
    # vllm-ascend #5204), a list needs a second item to be one: `version 1. x` is none.
    if lead and len(numbered) < 2:
        return text
    ends = [m.start() for m in numbered[1:]] + [len(text)]
    items = [text[m.end() : end].strip() for m, end in zip(numbered, ends, strict=True)]
    items = [item.rstrip(" ;,.。；") for item in items[:-1]] + items[-1:]
    chinese = _CJK_CHARACTER.search(text) is not None
    joined = ("；" if chinese else "; ").join(item for item in items if item)
    if lead and joined:
        # A lead that ends its sentence (`... CI config. (1) Add ...`) is followed, not joined.
        if lead.endswith((".", "。", "!", "！", "?", "？")):
            return f"{lead} {joined}"
        return lead.rstrip(":： ") + ("：" if chinese else ": ") + joined
    return joined or text


# "This PR fixes it by passing ...": `it` is the background the summary leaves out, and the
# title says what is fixed; what follows `by` is the change (verl #7107, vllm-ascend #6939).
_FIXES_IT_BY = re.compile(
    r"^(?:this (?:pr|pull request|change|patch|commit)|we)\s+"
    r"(?P<verb>fix|solve|address|resolve|mitigate|avoid|handle)(?:es|s|ed|d)?\s+"
    r"(?:it|this|that|them|(?:the|this|that|these|those)\s+"
    r"(?:issues?|problems?|bugs?|errors?|regressions?|failures?))\s+by\s+(?=\w+ing\b)",
    re.IGNORECASE,
)


def _fixed_by(match: re.Match[str]) -> str:
    verb = match.group("verb").lower()
    return f"{verb.capitalize()}{'d' if verb.endswith('e') else 'ed'} by "


# A collapsed `<details>` block: what the author folded away (Dependabot's release notes, logs)
# is not what the PR does, and its HTML can run on from the sentence before it (verl #646).
_COLLAPSED = re.compile(r"<details\b.*?</details>", re.IGNORECASE | re.DOTALL)


def summarize(
    title: str,
    body: str,
    limit: int = 180,
    landed_through: Callable[[str], int | None] = _nowhere,
) -> str:
    """One line on what the PR does: the first sentences the author wrote about it.

    Prefers a "What does this PR do?" / "Summary" / "Overview" section, skips sentences that
    only say the title again, reference-only lines ("Fixes #12"), images and code, and falls
    back to the title's subject. `landed_through` names the PR a title or squashed commit (by
    its `subject_keys`) landed through before this one, if any: a squash message's commits that
    other PRs landed are not this one's to tell.
    """
    body = body[:MAX_DESCRIPTION_CHARS]
    if _is_squashed_commit_list(body, title):
        own = _own_commit_message(body, title)
        if not own and (listed := _commit_subjects_summary(body, title, limit, landed_through)):
            return listed
        body = own
    body = _COLLAPSED.sub("\n\n", body)
    # Text under a screenshot a lead-in announced says what it shows (`When discrete=False, the
    # results fused to ...json` between two profiler views, verl #7408), not what the PR does;
    # text under one nothing announced is the author's (verl #4674's fix below the error).
    read = _lead_ins_with_their_items(
        _without_asides(
            [
                p
                for p in _paragraphs(clean_description(body))
                if not _SKIP_SECTIONS.match(p.section) and not p.after_image
            ]
        ),
        limit,
    )

    def informative(title_words: set[str]) -> list[tuple[str, str]]:
        paragraphs = _beyond_the_title(read, title_words)
        return [(section, text) for section, text in paragraphs if _says_something(text)]

    def described(paragraphs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return [
            (section, text)
            for section, text in paragraphs
            if not _REFERENCE_LINE.match(text)
            and not _only_provenance(text)
            and not _is_bare_lead_in(text)
        ]

    # What the author wrote beyond the title, else the title in their words, else anything but
    # where the PR comes from (the title says more than `port #12351 to main branch.`,
    # vllm-ascend #12470's whole description) or a lead-in that cannot end as a sentence (verl
    # #5453's `The accuracy comparison are as follows:` over its figures).
    everything = informative(set())
    paragraphs = (
        described(informative(_words(title)))
        or described(everything)
        or [
            (section, text)
            for section, text in everything
            if not _only_provenance(text) and not _dangles(text)
        ]
    )
    preferred = [text for section, text in paragraphs if _SUMMARY_SECTIONS.search(section)]
    chosen = preferred[0] if preferred else (paragraphs[0][1] if paragraphs else "")
    # "Currently X breaks when Y. ... This PR makes X ...": the background leads, but the
    # paragraph that says what the PR does is the summary.
    if preferred and not _STATES_THE_CHANGE.match(chosen) and not _AUTHOR_LEAD.match(chosen):
        # The author's lines before llm-compressor's `SUMMARY:` line may say the change the
        # section then explains (#2606: "This PR updates recovery thresholds ..." over the
        # regression's history); before a heading of the author's own (`### Problem`,
        # torchtitan #1226) they are a preface.
        summary_at = next(
            at for at, (section, _) in enumerate(paragraphs) if _SUMMARY_SECTIONS.search(section)
        )
        preface = [text for section, text in paragraphs[:summary_at] if not section]
        chosen = next(
            (
                text
                for text in (preface if paragraphs[summary_at][0].isupper() else []) + preferred[1:]
                if _STATES_THE_CHANGE.match(text)
                and len(text.split()) >= 7
                and not _ALSO.match(text)
                and not _POINTS_BACK.match(text)
            ),
            chosen,
        )
        # "The old X relied on Y, breaking Z. The receiver now reconciles ...": in the background
        # that stays the summary, the sentence on what is done now is the change (verl #7327);
        # else a later paragraph or item that opens so (`PackedSeqParams now carries ...`, verl
        # #7297), unless the background already says what is done (`... are removed`).
        if not _STATES_THE_CHANGE.match(chosen) and not _AUTHOR_LEAD.match(chosen):
            told = sentences(chosen)
            now = next((i for i, s in enumerate(told) if i and _NOW.search(s)), None)
            if now is not None:
                chosen = " ".join(told[now:])
            elif not _PASSIVE_CHANGE.search(chosen):
                # An item deep in a list is one change of several (vllm-ascend #8289's third
                # of four, "`capture_model()` now returns ..."): the background says more.
                later_items = {p.text for q, p in pairwise(read) if p.list_item and q.list_item}
                chosen = next(
                    (
                        text
                        for text in preferred[1:]
                        if _NOW.search(sentences(text)[0]) and text not in later_items
                    ),
                    chosen,
                )
    if not chosen:
        chosen = parse_title(title).subject or title
    chosen = _without_leading_symbols(_plain(chosen))
    # "Split from #6118. This PR adds ...": where it came from opens it; what it does follows
    # (so too after "The reason is explained in the in-line comments.").
    opening = sentences(chosen)
    while len(opening) > 1 and (_PROVENANCE.match(opening[0]) or _points_elsewhere(opening[0])):
        opening = opening[1:]
    # A reference after what is done says where to read more (`... avoid infinite hang. Closes
    # #468.`); in lower case it runs on in the sentence (verl #487's `... hang. close #468`).
    opening = opening[:1] + [s for s in opening[1:] if not _REFERENCE_LINE.match(s)]
    chosen = _TRAILING_REFERENCE.sub("", " ".join(opening))
    # A field's label before the sentence (vllm-ascend's `Reason： The functions ...`) goes, and
    # a list written on one line reads as its items.
    chosen = _numbered_items(_FIELD_LABEL.sub("", chosen, count=1))
    chosen = _FIXES_IT_BY.sub(_fixed_by, chosen, count=1)
    # A commit's subject as the description (`[CUDA] Refactor TMA atomic add layout
    # validation`, tilelang #2846) says what changed; its tags and type say it again. So does
    # a type before what is done (`Fix: handle nvidia namespace packages ...`), though not
    # before what went wrong (`Fix: pre-commit broken by #2354`), which needs the word.
    conventional = CONVENTIONAL.match(chosen)
    if _LEADING_TAGS.match(chosen) or (
        conventional
        and conventional.group("type").lower() in TYPE_ALIASES
        and _AUTHOR_LEAD.match(conventional.group("rest"))
    ):
        chosen = parse_title(chosen).subject
    summary = _first_sentences(chosen, limit)
    # "Also allow VLM training" goes on from a sentence the summary left out (the title again,
    # verl #2390): on its own, the line says what is done.
    summary = _CONTINUES.sub("", summary, count=1)
    # "move `hf_transfer` into ..." (after "As title, ") starts its sentence with a capital;
    # an identifier ("vllm_ascend ...", "torch.compile ...") or a link (verl #4614's
    # "https://.../pull/4606 still has some issues ...") keeps its case.
    if _LOWER_CASE_WORD.match(summary):
        summary = summary[0].upper() + summary[1:]
    # A lead-in to the list, log or code the summary leaves out ends the line as a sentence,
    # without the words that pointed at it (`... in edge cases such as:`).
    if lead_end := _LIST_LEAD_END.search(summary):
        stop = "。" if summary.endswith("：") else "."
        summary = summary[: lead_end.start()].rstrip(" ,;") + stop
    # A list item that goes on in the next one (`1. migrates X to `verl-recipe`,`, verl #4795).
    elif summary.endswith((",", ";", "，", "；")):
        summary = summary[:-1] + ("。" if summary.endswith(("，", "；")) else ".")
    return summary


class AuthorParagraph(NamedTuple):
    """A paragraph or list item of the author's own text, as plain text, with its heading."""

    section: str
    text: str
    list_item: bool


def author_paragraphs(body: str) -> list[AuthorParagraph]:
    """The cleaned description's paragraphs and list items, without code, quotes or tables."""
    return [
        AuthorParagraph(p.section, _plain(p.text), p.list_item)
        for p in _paragraphs(clean_description(body))
    ]


def sentences(text: str) -> list[str]:
    """A paragraph's sentences (a sentence ends at `.`, `!` or `?` before a capital, or at
    Chinese end punctuation)."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def prose(body: str) -> str:
    """The author's own sentences: the cleaned description without code, quotes or tables.

    Keyword signals read this rather than the raw body, so a pasted log or the template's
    instructions cannot make a PR look like it fixes a crash.
    """
    return "\n".join(p.text for p in author_paragraphs(body))


_OPEN_CHECKBOX = re.compile(r"^\s*[-*+]\s+\[ \]\s*")


def open_checklist_items(body: str) -> list[tuple[str, str]]:
    """The description's unchecked checklist items (`- [ ] Add document`, wrapped lines
    joined), each with what leads them, in order: the heading they sit under, or a label line
    after it (`Known issues:`, `TODO:`). `clean_description` drops most checklists, since most
    are the template's; a caller that knows which leads open the author's own to-do list reads
    those items here."""
    text = normalised(body)
    items: list[tuple[str, str]] = []
    section = lead = ""
    current: list[str] = []

    def flush() -> None:
        if current:
            items.append((lead, _plain(" ".join(current))))
            current.clear()

    for kind, lines in split_blocks(text.split("\n")):
        line = lines[0]
        if kind == "text" and current and wraps_item(line):
            current.append(line.strip())
            continue
        flush()
        if kind != "text":
            continue
        heading = HEADING.match(line.strip())
        if heading:
            section = lead = heading.group("text")
        elif _OPEN_CHECKBOX.match(line):
            current.append(_OPEN_CHECKBOX.sub("", line).strip())
        elif line.strip() and not LIST_MARK.match(line):
            label = line.strip()
            lead = label if label.endswith((":", "：")) else section
    flush()
    return items
