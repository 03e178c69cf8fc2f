"""The distribution's Chromium, as the browser tests start it (headless, offline, no sandbox)."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# No sandbox (tests run as root in containers); nothing that reaches out to the network.
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def requires_chromium(what: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason=f"{CHROMIUM} is not installed (apt-get install -y chromium): {what}",
    )
