"""Small hand-written PR sets for the module-tagging tests, modelled on verl's history."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from prhub_pipeline.config import ModulesConfig
from prhub_pipeline.records import FileChange, PullRequest

REPO = "acme/rl"
MODULES = ModulesConfig(
    allowed=["rollout", "ci", "doc", "megatron", "fsdp", "misc"],
    aliases={"docs": "doc", "mcore": "megatron"},
    min_training_prs=20,
)
# Per module: words its titles use and the directories its files live in.
_VOCABULARY = {
    "rollout": (["sampling", "engine", "generation", "kv cache", "server"], "verl/workers/rollout"),
    "ci": (["workflow", "pipeline job", "runner", "nightly", "timeout"], ".github/workflows"),
    "doc": (["documentation", "guide", "tutorial", "typo", "readme"], "docs/advance"),
    "megatron": (["pipeline parallel", "tensor parallel", "mcore", "bridge"], "verl/models/mcore"),
}
_TYPES = ["fix", "feat", "chore", "refactor"]
_BODY = """### What does this PR do?

> Add **concise** overview of what this PR aims to achieve or accomplish.

{summary}

### Checklist Before Submitting

- [ ] Read the [Contribute
Guide](https://github.com/volcengine/verl/blob/main/CONTRIBUTING.md).
- [x] Format the PR title as `[{{modules}}] {{type}}: {{description}}` like
`[megatron, fsdp, doc]`
"""


def make_pr(
    number: int,
    title: str,
    *,
    body: str = "",
    paths: tuple[str, ...] = (),
    labels: tuple[str, ...] = (),
    merged_at: datetime | None = None,
    repo: str = REPO,
) -> PullRequest:
    return PullRequest(
        repo=repo,
        number=number,
        title=title,
        body=body,
        labels=list(labels),
        merged_at=merged_at or datetime(2026, 1, 1, tzinfo=UTC) + timedelta(hours=number),
        files=[FileChange(path=p, additions=3, deletions=1) for p in paths],
    )


def synthetic_history(count: int = 160, seed: int = 7, tagged: bool = True) -> list[PullRequest]:
    """`count` PRs, oldest first, each about one or two modules, titles `[m] type: ...`."""
    rng = random.Random(seed)
    names = sorted(_VOCABULARY)
    prs = []
    for number in range(1, count + 1):
        chosen = [rng.choice(names)]
        if rng.random() < 0.15:
            chosen.append(rng.choice([n for n in names if n != chosen[0]]))
        words = [rng.choice(_VOCABULARY[m][0]) for m in chosen]
        paths = tuple(f"{_VOCABULARY[m][1]}/{rng.choice(['a', 'b', 'c'])}.py" for m in chosen)
        description = f"{' and '.join(words)} change number {number}"
        prefix = f"[{', '.join(chosen)}] " if tagged else ""
        prs.append(
            make_pr(
                number,
                f"{prefix}{rng.choice(_TYPES)}: improve {' '.join(words)}",
                body=_BODY.format(summary=description),
                paths=paths,
            )
        )
    return prs
