"""Real git repositories for tests: a base commit on main, the change on a feature branch."""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Mapping

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@invalid", "-c", "commit.gpgsign=false",
       "-c", "init.defaultBranch=main"]


def git(repo: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True,
                          text=True).stdout.strip()


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
