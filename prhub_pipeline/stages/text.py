"""How run summaries and log lines count things: `1 PR`, `2 PRs`, `0 risk flags`."""


def counted(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
