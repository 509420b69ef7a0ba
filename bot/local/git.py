"""The git commands the local review reads a repository with: argument lists only (never a shell),
a scrubbed environment, and git's own first line when one fails."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from rules.limits import MAX_SCHEMA_BYTES

GIT_MISSING = "git is not installed or not on PATH"
GIT_FAILED = "git {command} failed: {message}"
BAD_REF = "{ref!r} is not a git ref"
MAX_HISTORY = 30  # versions looked at for transitive checks and the deprecation window
# Identity for the commits made here: a fresh machine has no git user configured.
IDENTITY = ("-c", "user.name=schema-review", "-c", "user.email=schema-review@invalid",
            "-c", "commit.gpgsign=false")
STAGED = "schema-review: the staged changes"
SYMLINK_MODE = "120000"  # git's mode of a symbolic link: its blob is the link's target, a path


class LocalError(Exception):
    """A problem with the repository, a ref or git itself; str() is one line for the user."""


def git(repo: Path, *args: str, stdin: bytes | None = None) -> bytes:
    """Run git in `repo`; its stdout as bytes, or LocalError with git's own first line."""
    command = ["git", "-C", str(repo), "-c", "core.quotepath=off", *args]
    try:
        done = subprocess.run(command, capture_output=True, check=False, env=_git_environment(),
                              input=stdin)
    except FileNotFoundError:
        raise LocalError(GIT_MISSING) from None
    if done.returncode != 0:
        message = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["?"])[0]
        raise LocalError(GIT_FAILED.format(command=args[0], message=message))
    return done.stdout


def _git_environment() -> dict[str, str]:
    """What git needs and nothing else: the App's or a CI job's secrets stay out of the child
    (a repository's hooks or config could otherwise see them); HOME keeps the user's git config."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR",
            # set by git itself for hooks (pre-commit): where the index and repository are
            "GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR")
    env = {key: os.environ[key] for key in keep if key in os.environ}
    return {**env, "GIT_TERMINAL_PROMPT": "0"}


def staged_commit(repo: Path) -> str:
    """A commit of the index on top of HEAD, on no branch: the staged change as a head to review
    (what `git stash` does too; git's garbage collection removes it later)."""
    tree = git(repo, "write-tree").decode().strip()
    parent = git(repo, "rev-parse", "--verify", "HEAD^{commit}").decode().strip()
    return git(repo, *IDENTITY, "commit-tree", tree, "-p", parent, "-m", STAGED).decode().strip()


def read_all(repo: Path, ref: str, paths: list[str]) -> tuple[dict[str, str], list[str]]:
    """(path -> text of files at `ref`, in one git process; the paths of files left out as too
    large or binary)."""
    if not paths:
        return {}, []
    request = "".join(f"{ref}:{path}\n" for path in paths).encode("utf-8", "surrogateescape")
    output = git(repo, "cat-file", "--batch", stdin=request)
    found, unreadable, at = {}, [], 0
    for path in paths:
        end = output.index(b"\n", at)
        header = output[at:end].split()
        at = end + 1
        if len(header) != 3 or header[1] != b"blob":
            continue  # "missing", or not a file
        size = int(header[2])
        data, at = output[at:at + size], at + size + 1
        if len(data) <= MAX_SCHEMA_BYTES and b"\0" not in data:
            found[path] = data.decode("utf-8", "replace")
        else:
            unreadable.append(path)
    return found, unreadable


def patch(repo: Path, base: str, head: str, *paths: str) -> str | None:
    """The file's hunks without the `diff --git` headers, as GitHub's `patch` field has them."""
    text = git(repo, "diff", "-M", "-U3", "--no-color", "--no-ext-diff", "--no-textconv",
               base, head, "--", *paths).decode("utf-8", "replace")
    start = text.find("\n@@")
    if not text.startswith("@@") and start < 0:
        return None  # binary, or only a rename or mode change: GitHub shows no patch either
    return (text if text.startswith("@@") else text[start + 1:]).removesuffix("\n")


def show(repo: Path, ref: str, path: str) -> bytes | None:
    """The file at `ref`, or None when it does not exist there."""
    try:
        return git(repo, "show", f"{ref}:{path}")
    except LocalError:
        return None


def history(repo: Path, base: str, path: str) -> list[tuple[str, str, bytes]]:
    """(sha, ISO date, text) of the file's versions on `base`'s own line, newest first.

    First parents only: the versions the branch itself held, in order. Git's default history
    simplification follows whichever parent of a merge has the same file, so a branch that
    merged the base with `-s ours` would hide the versions the base held in between.
    """
    log = git(repo, "log", "--first-parent", f"-n{MAX_HISTORY}", "--format=%H %cI", base, "--",
              path).decode()
    out = []
    for line in log.splitlines():
        sha, date = line.split(" ", 1)
        text = show(repo, sha, path)
        if text is None:
            break  # the file did not exist before this commit
        out.append((sha, date, text))
    return out


def mode_of(repo: Path, ref: str, path: str) -> str | None:
    """The git mode of `path` at `ref` (100644, 120000 for a link, ...), or None."""
    for entry in git(repo, "ls-tree", "-z", ref, "--", path).split(b"\0"):
        meta, _tab, name = entry.partition(b"\t")
        if name.decode("utf-8", "surrogateescape") == path:  # ls-tree takes patterns: exact only
            return meta.split(b" ", 1)[0].decode()
    return None
