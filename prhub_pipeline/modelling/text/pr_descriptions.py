"""A PR's description without its template: what the author wrote.

Descriptions are mostly PR-template boilerplate (headings, instructions in blockquotes,
checklists); `clean_description` keeps what the author wrote, and `split_blocks` reads it as
code, quote and text blocks for `pr_summaries`.
"""

from __future__ import annotations

import re

from prhub_pipeline.records import MAX_DESCRIPTION_CHARS

# A byte-order mark or zero-width space before the text hides the heading it opens (vllm-ascend
# #9801 "\ufeff### What this PR does / why we need it?").
_INVISIBLE = re.compile("[\ufeff\u200b\u200c\u200d\u2060]")
# A paragraph break a tool wrote escaped, as the two characters `\n` twice between sentences
# (vllm-ascend #12605 "...and graph replay.\n\nThe decode mask..."). Code (`"\n\n".join`)
# and quoted model output (vllm-ascend #6940's JSON, "course.\n\n## Tuesday") keep theirs.
_ESCAPED_PARAGRAPH_BREAK = re.compile(r"(?<=\w[.!?])(?:\\n){2,}(?=\n?[A-Z][a-z])")
# `--` and `•` mark items too (vllm-ascend #8959's "-- When kv cache transmit failed, ...").
LIST_MARK = re.compile(r"^\s*(?:--?(?!\s*\|)|[*+•]|(?P<number>\d+)[.)])\s+")
HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<text>.*?)\s*#*\s*$")
_CHECKBOX = re.compile(r"^\s*[-*+]\s+\[[ xX]\]")
_TICKED_CHECKBOX = re.compile(r"^\s*[-*+]\s+\[[xX]\]")
# A line that leads into the change, as llm-compressor #2366's `This PR` over its ticked
# `- [x] adds an offload map ...` items: those items are the change, not a checklist.
_CHANGE_LEAD_IN = re.compile(
    r"^(?:this (?:pr|pull request|change|patch)|in this pr,? we|we)\b[^.:：]*[:：]?$", re.IGNORECASE
)
_FENCE = re.compile(r"^\s*(```|~~~|\\`\\`\\`)")
_DROPPED_SECTIONS = re.compile(
    r"^(checklist|before submitting|who can review|checklist before (starting|submitting))",
    re.IGNORECASE,
)
_TEMPLATE_QUOTE = re.compile(
    r"^(add \*\*concise\*\* overview|add one-line overview|for changes that can not be tested"
    r"|demonstrate (how|the high-level)|list the specific changes|provide usage example"
    r"|\[!important\]|please check all the following)",
    re.IGNORECASE,
)
# A template's headings pasted as plain lines (vllm-ascend #2037 `What this PR does / why we
# need it?`, verl #6715 `What does this PR do?` under a `---`): read as the headings they are.
_PLAIN_TEMPLATE_HEADING = re.compile(
    r"^(?:what (?:does this pr do|this pr does)(?:\s*/\s*why we need it)?"
    r"|does this pr introduce _?any_? user[- ]facing changes?"
    r"|how was this (?:patch|pr|change) tested"
    r"|checklist before (?:starting|submitting)|api and usage example|design & code changes|test)"
    r"\s*[?？:]?$",
    re.IGNORECASE,
)
_THEMATIC_BREAK = re.compile(r"^(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$")
_TEMPLATE_CODE = re.compile(r"#\s*add code snippet or script demonstrating", re.IGNORECASE)
_PLACEHOLDER_LINES = re.compile(
    r"^\s*(n/?a\.?|none\.?|\.\.\.|-|tbd|[-*+]\s+\*\*[^*]+(?::\*\*|\*\*\s*:))\s*$", re.IGNORECASE
)
# Instructions of widely copied PR templates that authors leave in: GitHub's community
# template (`Please include a summary of the change and which issue is fixed. ...`, `Fixes #
# (issue)`), TransformerEngine's (`Please list the changes introduced in this PR:`, `- Change
# A`) and ms-swift's (`Write the detail information belongs to this PR.`).
_TEMPLATE_INSTRUCTIONS = re.compile(
    r"^\s*(?:please (?:include a (?:brief )?summary of the change|list the changes introduced"
    r"|delete options that are not relevant|describe the tests that you ran)"
    r"|fixes # \(issue\)\s*$|[-*+] change [ab]\s*$|write the detail information belongs to"
    r"|paste your experiment result here)",
    re.IGNORECASE,
)
# Placeholders of verl's 2025 template, left in by most authors; the first spans lines.
_TEMPLATE_PHRASES = re.compile(
    r"\[note which backend this pr will affect:[^\]]*\]|fixes issue # or discussion # if any\.?"
    # A template's quoted instruction kept in brackets (verl #6630 `[> Add **concise** overview
    # ... review.]`), and the end of a comment whose start the author deleted (vllm-ascend #9165).
    r"|\[>[^\]]*\]|^[ \t]*-->"
    # ghstack's list of the stack a PR is in (`Stacked PRs:` / `Stack from [ghstack] ...:`,
    # then `* __->__#1768` items and its `--- --- ---` rule): pytorch/torchtitan #1768's
    # summary read "Stacked PRs."
    r"|^(?:Stacked PRs|Stack from \[ghstack\](?:\([^)\s]*\))?\s*(?:\(oldest\s+at\s+bottom\))?)"
    r"[ \t]*:?[ \t]*\n(?:[ \t]*[*-][^\n]*\n?)*"
    r"(?:\s*^[ \t]*--- --- ---[ \t]*$)?",
    re.IGNORECASE | re.MULTILINE,
)


def split_blocks(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Lines grouped as ('code'|'quote'|'text', lines), keeping fenced code together."""
    blocks: list[tuple[str, list[str]]] = []
    in_code = False
    opened_with = ""  # the fence's first character: only a fence of the same one closes it
    for line in lines:
        # The cheap `in` tests first: this runs on every line of every description.
        fence = _FENCE.match(line) if "`" in line or "~" in line else None
        # A backtick fence's info string holds no backtick (CommonMark): "```tests/a.py```" is
        # a code span in the text (vllm-ascend #10379's took the fences after it for text, and
        # its summary was a traceback).
        if fence and fence.group(1) == "```" and "`" in line[fence.end() :] and not in_code:
            fence = None
        if in_code:
            blocks[-1][1].append(line)
            # A `~~~~^^^^` line of a Python traceback closes no ``` block (verl #4962's summary
            # was the traceback's last line, the fence's real end then opening a block).
            in_code = fence is None or fence.group(1)[0] != opened_with
            continue
        if fence:
            blocks.append(("code", [line]))
            in_code, opened_with = True, fence.group(1)[0]
            continue
        kind = "quote" if line.lstrip().startswith(">") else "text"
        after_quote = bool(blocks) and blocks[-1][0] == "quote"
        lazy = (  # a blockquote paragraph goes on until a blank line ("lazy continuation")
            after_quote
            and kind == "text"
            and line.strip()
            and blocks[-1][1][-1].strip().lstrip(">").strip()
            and not HEADING.match(line.strip())
        )
        if after_quote and (kind == "quote" or lazy):
            blocks[-1][1].append(line)
        else:
            blocks.append((kind, [line]))
    if in_code:
        # A fence that never closes: read its lines as text rather than lose the rest.
        opened = blocks.pop()[1]
        blocks.extend(split_blocks(opened[1:]))
    return blocks


def _without_html_comments(text: str) -> str:
    """`text` without `<!-- ... -->` (an unclosed one stays). Found by `str.find`: a regex
    lazily scanning for `-->` from every `<!--` took seconds on thousands of them."""
    kept = []
    position = 0
    while (start := text.find("<!--", position)) != -1:
        end = text.find("-->", start + 4)
        if end == -1:
            break
        kept.append(text[position:start])
        position = end + 3
    kept.append(text[position:])
    return "".join(kept)


def normalised(body: str) -> str:
    """The description (its first MAX_DESCRIPTION_CHARS) with `\n` line ends, without HTML
    comments or invisible characters."""
    body = body[:MAX_DESCRIPTION_CHARS]
    text = _without_html_comments(body.replace("\r\n", "\n").replace("\r", "\n"))
    text = _ESCAPED_PARAGRAPH_BREAK.sub("\n\n", text)
    return _INVISIBLE.sub("", text)


def clean_description(body: str) -> str:
    """The description without template boilerplate: instructions, checklists, empty sections.

    Headings stay when something the author wrote follows them.
    """
    text = normalised(body)
    text = _TEMPLATE_PHRASES.sub("", text)
    kept: list[str] = []
    drop_level = 0  # inside a dropped section until a heading of this level or higher
    in_checkbox = False  # the lines after a dropped checklist item are its wrapped rest
    in_ticked_change = False  # ticked items after a lead-in into the change are kept
    for kind, lines in split_blocks(text.split("\n")):
        line = lines[0]
        if kind == "text" and (in_checkbox or in_ticked_change) and wraps_item(line):
            if in_ticked_change:
                kept.append(line.rstrip())
            continue
        in_checkbox = False
        if kind == "text" and _TICKED_CHECKBOX.match(line) and not drop_level:
            if not in_ticked_change and kept and _CHANGE_LEAD_IN.match(kept[-1].strip()):
                in_ticked_change = True
                if len(kept) > 1 and kept[-2].strip():  # the lead-in is a paragraph of its own
                    kept.insert(len(kept) - 1, "")
            if in_ticked_change:
                kept.append(_TICKED_CHECKBOX.sub("-", line).rstrip())
                continue
        in_ticked_change = False
        if kind == "code":
            if drop_level or _TEMPLATE_CODE.search("\n".join(lines)):
                continue
            kept.extend(lines)
            continue
        if kind == "quote":
            joined = " ".join(line.lstrip().lstrip(">").strip() for line in lines).strip()
            if drop_level or not joined or _TEMPLATE_QUOTE.match(joined):
                continue
            kept.extend(lines)
            continue
        if _THEMATIC_BREAK.match(line.strip()):
            kept.append("")
            continue
        if _PLAIN_TEMPLATE_HEADING.match(line.strip()):
            line = f"### {line.strip()}"
        heading = HEADING.match(line.strip())
        if heading:
            level = len(heading.group("hashes"))
            if drop_level and level > drop_level:
                continue
            drop_level = level if _DROPPED_SECTIONS.match(heading.group("text")) else 0
            if not drop_level:
                kept.append(line.strip())
            continue
        if (
            drop_level
            or _CHECKBOX.match(line)
            or _PLACEHOLDER_LINES.match(line)
            or _TEMPLATE_INSTRUCTIONS.match(line)
        ):
            in_checkbox = bool(_CHECKBOX.match(line))
            continue
        kept.append(line.rstrip())
    return _drop_empty_headings(kept)


def wraps_item(line: str) -> bool:
    """Whether a line goes on with the list item above it: Markdown's lazy continuation, as a
    hard-wrapped squash body has it (verl #1138: `- [x] ... replace ... to http` then
    `call /v1/chat/completions`)."""
    return bool(line.strip()) and not LIST_MARK.match(line) and not HEADING.match(line.strip())


def _drop_empty_headings(lines: list[str]) -> str:
    result: list[str] = []
    for line in lines:
        if heading := HEADING.match(line):
            while result and not result[-1].strip():
                result.pop()
            previous = HEADING.match(result[-1]) if result else None
            if previous and len(previous.group("hashes")) >= len(heading.group("hashes")):
                result.pop()
            if result:
                result.append("")
        result.append(line)
    while result and (not result[-1].strip() or HEADING.match(result[-1])):
        result.pop()
    text = "\n".join(result).strip()
    return re.sub(r"\n{3,}", "\n\n", text)
