"""A bare git repository driven through the `git` CLI: commits, blobs, history and diffs."""
from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

ZERO_SHA = "0" * 40
# Author and committer of every emulated commit; GitHub shows these in commit payloads.
AUTHOR_NAME = "Octo Cat"
AUTHOR_EMAIL = "octocat@users.noreply.github.com"
# A commit `by` a login is written with the login's noreply address, which GitHub links to it.
NOREPLY = "@users.noreply.github.com"
FILE_MODE = "100644"
LINK_MODE = "120000"  # a symbolic link: its blob holds the target's path


class GitError(RuntimeError):
    """A git command failed; the message carries git's stderr."""


@dataclass(frozen=True)
class Link:
    """A file to commit as a symbolic link to `target` (as `git add` commits one)."""

    target: str


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    tree: str
    parents: tuple[str, ...]
    message: str
    author_date: str  # ISO 8601, UTC, "Z" suffix like GitHub
    committer_date: str
    author_email: str = AUTHOR_EMAIL
    committer_email: str = AUTHOR_EMAIL


@dataclass(frozen=True)
class TreeEntry:
    mode: str
    type: str  # "blob" or "tree"
    sha: str
    size: int | None
    path: str


def _iso(value: datetime | str | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class GitStore:
    """One bare repository on disk; every operation is a `git` subprocess."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.run("init", "--bare", "--quiet")
        # Commits and blobs never change: their trees and contents are read from git once
        # (a 300-file review asks for 600 blobs; a git process each would dominate the run).
        self._trees: dict[str, dict[str, TreeEntry]] = {}
        self._blobs: dict[str, bytes] = {}
        self._commits: set[str] = set()

    def run(self, *args: str, stdin: bytes | None = None, env: dict | None = None,
            check: bool = True) -> bytes:
        full_env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(self.path),
                    "GIT_DIR": str(self.path), **(env or {})}
        done = subprocess.run(["git", "-c", "core.quotePath=false", *args], input=stdin,
                              capture_output=True, env=full_env, cwd=self.path)
        if check and done.returncode != 0:
            raise GitError(f"git {' '.join(args)}: {done.stderr.decode(errors='replace').strip()}")
        return done.stdout

    def text(self, *args: str) -> str:
        return self.run(*args).decode()

    def resolve(self, ref: str) -> str | None:
        """The commit sha a branch name, tag or (abbreviated) sha points at, or None."""
        if ref in self._commits:
            return ref
        out = self.run("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
        sha = out.decode().strip() or None
        if sha is not None and sha == ref:  # a full sha names the same commit forever
            self._commits.add(sha)
        return sha

    def branch_sha(self, branch: str) -> str | None:
        out = self.run("rev-parse", "--verify", "--quiet", f"refs/heads/{branch}", check=False)
        return out.decode().strip() or None

    def branches(self) -> list[str]:
        return self.text("for-each-ref", "--format=%(refname:short)", "refs/heads").split()

    def commit(self, branch: str, files: dict[str, str | bytes | Link | None], message: str, *,
               parent: str | None, author_date: datetime | str | None = None,
               merged: tuple[str, ...] = (), by: str | None = None) -> str:
        """Write `files` (None deletes) on top of `parent` and move `branch` to the new commit;
        `merged` are further parents (a merge commit, as a merge queue's group is); `by`: the
        login that authored and committed it (default: octocat)."""
        with tempfile.TemporaryDirectory() as scratch:
            env = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
            if parent:
                self.run("read-tree", parent, env=env)
            lines = []
            for path, content in files.items():
                if content is None:
                    lines.append(f"0 {ZERO_SHA}\t{path}")
                    continue
                mode = LINK_MODE if isinstance(content, Link) else FILE_MODE
                content = content.target if isinstance(content, Link) else content
                data = content.encode() if isinstance(content, str) else content
                blob = self.run("hash-object", "-w", "--stdin", stdin=data).decode().strip()
                lines.append(f"{mode} {blob}\t{path}")
            self.run("update-index", "--index-info", stdin="\n".join(lines).encode() + b"\n", env=env)
            tree = self.run("write-tree", env=env).decode().strip()
        parents = ((parent,) if parent else ()) + tuple(merged)
        return self._commit_tree(branch, tree, parents, message, date=author_date, by=by)

    def merge(self, branch: str, head: str, message: str, *, squash: bool = False) -> str:
        """Merge `head` into `branch` as GitHub's merge button does, dated now: a merge commit
        (both parents), or a squash (the merged tree on the branch's tip alone)."""
        tip = self.branch_sha(branch)
        tree = self.run("merge-tree", "--write-tree", tip, head, check=False).decode().split("\n")[0]
        if not tree or self.object_type(tree) != "tree":
            raise GitError(f"cannot merge {head} into {branch} without conflicts")
        return self._commit_tree(branch, tree, (tip,) if squash else (tip, head), message, date=None)

    def _commit_tree(self, branch: str, tree: str, parents: tuple[str, ...], message: str, *,
                     date: datetime | str | None, by: str | None = None) -> str:
        """A commit of `tree` (author and committer dated `date`, else now; `by` a login, else
        octocat) as `branch`'s tip."""
        date = _iso(date) or _iso(datetime.now(timezone.utc))
        name, email = (by, by + NOREPLY) if by else (AUTHOR_NAME, AUTHOR_EMAIL)
        people = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email,
                  "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email,
                  "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
        flags = [flag for sha in parents for flag in ("-p", sha)]
        sha = self.run("commit-tree", tree, *flags, "-m", message, env=people).decode().strip()
        old = self.branch_sha(branch) or ZERO_SHA
        self.run("update-ref", f"refs/heads/{branch}", sha, old)
        return sha

    def info(self, sha: str) -> CommitInfo:
        fmt = "%H%x00%T%x00%P%x00%aI%x00%cI%x00%ae%x00%ce%x00%B"
        out = self.text("show", "-s", f"--format={fmt}", sha)
        full, tree, parents, adate, cdate, aemail, cemail, message = out.split("\0", 7)
        return CommitInfo(full, tree, tuple(parents.split()), message.rstrip("\n"),
                          _utc(adate), _utc(cdate), aemail, cemail)

    def blob_at(self, ref: str, path: str) -> tuple[str, bytes] | None:
        """(blob sha, bytes) of `path` at commit `ref`, or None when it is absent or not a file."""
        entry = self.entry(ref, path)
        if entry is None or entry.type != "blob":
            return None
        return entry.sha, self.blob(entry.sha)

    def blob(self, sha: str) -> bytes:
        if sha not in self._blobs:
            self._blobs[sha] = self.run("cat-file", "blob", sha)
        return self._blobs[sha]

    def object_type(self, sha: str) -> str | None:
        out = self.run("cat-file", "-t", sha, check=False).decode().strip()
        return out or None

    def entry(self, ref: str, path: str) -> TreeEntry | None:
        path = path.strip("/")
        if not path:
            return None
        if ref in self._commits:  # a commit's whole tree, listed once
            if ref not in self._trees:
                self._trees[ref] = {e.path: e for e in self.list_tree(ref, recursive=True)}
            return self._trees[ref].get(path)
        out = self.run("ls-tree", "-z", "--long", ref, "--", path, check=False).decode()
        for item in filter(None, out.split("\0")):
            entry = _tree_entry(item)
            if entry.path == path:
                return entry
        return None

    def list_tree(self, ref: str, path: str = "", *, recursive: bool = False) -> list[TreeEntry]:
        target = f"{ref}:{path.strip('/')}" if path.strip("/") else ref
        flags = ["-r", "-t"] if recursive else []
        out = self.run("ls-tree", "-z", "--long", *flags, target, check=False).decode()
        prefix = f"{path.strip('/')}/" if path.strip("/") else ""
        entries = [_tree_entry(item) for item in filter(None, out.split("\0"))]
        return [TreeEntry(e.mode, e.type, e.sha, e.size, prefix + e.path) for e in entries]

    def merge_base(self, a: str, b: str) -> str | None:
        out = self.run("merge-base", a, b, check=False).decode().strip()
        return out or None

    def log(self, rev: str, *, path: str | None = None, exclude: str | None = None) -> list[str]:
        """Commit shas reachable from `rev`, newest first, optionally touching `path`."""
        args = ["rev-list", rev] + ([f"^{exclude}"] if exclude else [])
        if path:
            args += ["--", path]
        return self.text(*args).split()


def _tree_entry(item: str) -> TreeEntry:
    meta, path = item.split("\t", 1)
    mode, kind, sha, size = meta.split()
    return TreeEntry(mode, kind, sha, None if size == "-" else int(size), path)


def _utc(iso: str) -> str:
    return _iso(datetime.fromisoformat(iso))
