"""Build small git repositories with real `git` commands, for the git source's tests."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path


class GitRepo:
    """A throwaway repository whose commits carry exact committer dates and offsets."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "user.name", "Test Author")
        self.git("config", "user.email", "author@example.com")

    def git(
        self,
        *args: str,
        date: str | None = None,
        author: str | None = None,
        email: str | None = None,
        landed: str | None = None,
    ) -> str:
        """Run git with `date` as the author and committer date, or `landed` as the committer
        date when given (a commit rebased onto the branch then)."""
        env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1"}
        if date:
            env["GIT_AUTHOR_DATE"] = date
            env["GIT_COMMITTER_DATE"] = landed or date
        if author:
            env["GIT_AUTHOR_NAME"] = author
        if email:
            env["GIT_AUTHOR_EMAIL"] = email
        completed = subprocess.run(
            ["git", *args], cwd=self.path, env=env, capture_output=True, text=True, check=True
        )
        return completed.stdout.strip()

    def write(self, relative: str, content: str | bytes) -> None:
        target = self.path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")

    def commit(
        self,
        message: str,
        date: str,
        files: Mapping[str, str | bytes] | None = None,
        author: str | None = None,
        email: str | None = None,
        landed: str | None = None,
    ) -> str:
        """Write `files`, stage everything and commit, written at `date` and landed at `landed`
        (else at `date` too); returns the new commit's sha."""
        for relative, content in (files or {}).items():
            self.write(relative, content)
        self.git("add", "-A")
        self.git(
            "commit",
            "-q",
            "--allow-empty",
            "--cleanup=verbatim",
            "-m",
            message,
            date=date,
            author=author,
            email=email,
            landed=landed,
        )
        return self.git("rev-parse", "HEAD")

    def merge_pull_request(
        self,
        number: int,
        branch: str,
        title: str,
        date: str,
        files: dict[str, str],
        author: str | None = None,
        email: str | None = None,
    ) -> str:
        """A GitHub-style merge commit of a topic branch with one commit (by `author`) on it."""
        self.git("checkout", "-q", "-b", branch)
        self.commit(f"work on {branch}", date, files, author=author, email=email)
        self.git("checkout", "-q", "main")
        self.git(
            "merge",
            "-q",
            "--no-ff",
            branch,
            "-m",
            f"Merge pull request #{number} from someone/{branch}",
            "-m",
            title,
            date=date,
        )
        return self.git("rev-parse", "HEAD")
