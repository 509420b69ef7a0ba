"""Real git repositories for tests: a base commit on main, the change on a feature branch."""
from __future__ import annotations

import os
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Mapping

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@invalid", "-c", "commit.gpgsign=false",
       "-c", "init.defaultBranch=main"]


def git(repo: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    return subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True,
                          text=True, env=env).stdout.strip()


def commit_at(repo: Path, when: datetime, files: Mapping[str, str | None], message: str) -> None:
    """Write and commit `files` on the checked-out branch, authored and committed at `when`
    (history on the default branch is read by committer date)."""
    write(repo, files)
    dates = {"GIT_AUTHOR_DATE": when.isoformat(), "GIT_COMMITTER_DATE": when.isoformat()}
    git(repo, "commit", "-q", "-m", message, env={**os.environ, **dates})


def write(repo: Path, files: Mapping[str, str | None]) -> None:
    """Write the files (None deletes one) and stage everything."""
    for name, text in files.items():
        target = repo / name
        if text is None:
            target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    git(repo, "add", "-A")


def make_repo(repo: Path, base: Mapping[str, str | None], head: Mapping[str, str | None], *,
              branch: str = "feature") -> Path:
    """`base` committed on main, then `head`'s changes committed on `branch` (checked out)."""
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q")
    write(repo, base)
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", branch)
    write(repo, head)
    git(repo, "commit", "-q", "--allow-empty", "-m", "head")
    return repo
