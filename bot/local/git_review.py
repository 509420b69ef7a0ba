"""Review a local git repository's change exactly as the App reviews a pull request."""
from __future__ import annotations

import os
import shutil
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Callable

from rules import Format, proto_imports
from rules.protobuf import bufyaml

from bot.gather import proto_users, unreviewed_uses
from bot.github.blobs import LINKED, LINKED_IMPORT
from bot.config.config import CONFIG_PATH, Config, parse_config
from bot.config.extends import no_base_here
from bot.review.review import FileChange, FileStatus, ReviewResult, review
from bot.gather.schemaset import formats_of
from bot.gather.users import context_changes, users_unchecked, with_neighbours
from bot.local import schema_sets
from bot.local.schema_sets import SET_FORMATS, SchemaSets
from bot.local.git import BAD_REF, IDENTITY, SYMLINK_MODE, LocalError, git, history, mode_of, patch, show

EXAMPLE = Path(__file__).resolve().parent.parent / "example"
CONFIG_NOT_AT_BASE = ("the config file {path} is not in the base commit ({ref}): --config names a "
                      "file committed on the base branch, which the change under review cannot edit")
CONFIG_OUTSIDE = "the config file {path} is outside the repository; --config names a file in it"
STATUSES = {"A": FileStatus.ADDED, "M": FileStatus.MODIFIED, "D": FileStatus.REMOVED,
            "R": FileStatus.RENAMED, "C": FileStatus.COPIED, "T": FileStatus.CHANGED}
EXAMPLE_GIT = (*IDENTITY, "-c", "init.defaultBranch=main")
# The pre-commit hook's default base; a clone made by `git init` + `git fetch` (or whose remote
# was added later) has no REMOTE/HEAD, and git's own "Not a valid object name" says not why.
REMOTE_HEAD_UNSET = ("{ref} is not set in this clone (git sets a remote's HEAD only when it "
                     "clones): run `git remote set-head {remote} --auto` once, or pass --base "
                     "with the branch to compare with (pre-commit: `args: [--base, {remote}/main]`)")


def review_repo(repo: Path, base: str, head: str, *, config_file: Path | None = None,
                now: datetime) -> ReviewResult:
    """Review what `head` changes relative to its merge base with `base`, like a pull request."""
    for ref in (base, head):
        if not ref or ref.startswith("-"):
            raise LocalError(BAD_REF.format(ref=ref))  # git would read it as an option
    _remote_head_set(repo, base)
    merge_base = git(repo, "merge-base", base, head).decode().strip()
    # The base's own tip, as the App reads the default branch's: the merge base is whatever
    # commit the branch was cut from, an older config of the branch author's choosing.
    config = load_config(repo, base, config_file=config_file)
    changes = []
    sets = SchemaSets(repo, config)
    changed = name_status(repo, merge_base, head)
    for status, old_path, path in changed:
        if not config.reviews(path, old_path):
            continue  # no schema under either name (one renamed out of the review is a removal)
        changes.append(file_change(repo, merge_base, head, status, old_path, path, config,
                                   sets=sets))
    candidates = sets.everything(head)
    # Users nobody could read (over schema_sets.MAX_IMPORTS, too large, binary) fail what they use.
    fmt_of = formats_of(config)
    changes = users_unchecked(changes, sets.unread(head, SET_FORMATS, changes), fmt_of)
    changes = with_neighbours(changes, candidates, fmt_of)  # a type defined twice
    changes += context_changes(changes, candidates, fmt_of)
    if proto_users.changed(changes) or proto_users.defining(changes, fmt_of):
        changes = users_unchecked(changes, sets.unread(head, (Format.PROTOBUF,), changes), fmt_of)
        changes = with_neighbours(changes, sets.of_format(head, Format.PROTOBUF), fmt_of)
    changes += proto_user_changes(repo, merge_base, head, changes, config, sets=sets)
    for fmt, used in unreviewed_uses.targets([(path, old) for _s, old, path in changed], fmt_of).items():
        layouts = [buf_layout(repo, merge_base, path) for path in used if fmt is Format.PROTOBUF]
        roots = dict.fromkeys(("", *config.import_roots, *(r for layout in layouts for r in layout.roots)))
        changes = unreviewed_uses.failing(changes, fmt, used, sets.of_format(head, fmt), roots)
    return review(changes, config, now=now)


def proto_user_changes(repo: Path, base: str, head: str, changes: list[FileChange],
                       config: Config, *, sets: SchemaSets) -> list[FileChange]:
    """The head's unchanged .proto files importing one `changes` edit, remove or rename away
    (bot/gather/proto_users.py), each with its imports at both revisions."""
    targets = proto_users.changed(changes)
    if not targets:
        return []
    in_pull = {c.path for c in changes} | {c.previous_path for c in changes if c.previous_path}
    layouts = [buf_layout(repo, base, path) for path in targets]
    roots = tuple(dict.fromkeys(("", *config.import_roots, *(r for l in layouts for r in l.roots))))
    texts = {path: text for path, text in sets.of_format(head, Format.PROTOBUF).items()
             if path not in in_pull}
    out = []
    for user, used in proto_users.importers(targets, texts, roots).items():
        data = texts[user].encode("utf-8")
        base_imports, base_paths = imports(data, lambda p: _find(repo, base, p, roots))
        head_imports, head_paths = imports(data, lambda p: _find(repo, head, p, roots))
        out.append(FileChange(
            path=user, status=FileStatus.UNCHANGED, base_text=texts[user], head_text=texts[user],
            context=True, uses=used, buf_layout=buf_layout(repo, base, user),
            base_imports=base_imports, head_imports=head_imports,
            base_import_paths=base_paths, head_import_paths=head_paths))
    return out


def load_config(repo: Path, base: str, *, config_file: Path | None = None) -> Config:
    """The config as `base` has it: --config's file (a path in the repository) when given, else
    .github/schema-review.yml, else the defaults. Never the working tree or the head: like the
    App reading the default branch, a change must not relax its own gate. `_extends` cannot be
    followed here and is refused (bot/config/extends.py)."""
    path = CONFIG_PATH if config_file is None else repository_path(repo, config_file)
    text = show(repo, base, path)
    if text is None and config_file is not None:
        raise LocalError(CONFIG_NOT_AT_BASE.format(path=path, ref=base))
    return parse_config(text.decode("utf-8", "replace") if text is not None else None, file=path,
                        extend=no_base_here)


def repository_path(repo: Path, given: Path) -> str:
    """--config as a path from the repository's top: relative ones are taken as written, absolute
    ones must lie inside the work tree (a file elsewhere is not on the base branch). Symbolic
    links are not followed: the work tree is the change's, and must not pick the file."""
    if not given.is_absolute():
        return PurePosixPath(given.as_posix()).as_posix()
    top = Path(git(repo, "rev-parse", "--show-toplevel").decode().strip())
    try:
        return Path(os.path.normpath(given)).relative_to(top).as_posix()
    except ValueError:
        raise LocalError(CONFIG_OUTSIDE.format(path=given)) from None


def _remote_head_set(repo: Path, ref: str) -> None:
    """A base naming a remote's default branch (origin/HEAD) that this clone never recorded."""
    remote, _slash, last = ref.rpartition("/")
    if last != "HEAD" or not remote:
        return
    try:
        git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except LocalError:
        raise LocalError(REMOTE_HEAD_UNSET.format(ref=ref, remote=remote)) from None


def name_status(repo: Path, base: str, head: str) -> list[tuple[FileStatus, str | None, str]]:
    """(status, previous path for renames and copies, path) of every changed file."""
    fields = git(repo, "diff", "--name-status", "-z", "-M", "--no-ext-diff", base, head,
                 "--").decode("utf-8", "surrogateescape").split("\0")
    out, items = [], iter(fields)
    for code in items:
        if not code:
            continue
        status = STATUSES.get(code[0], FileStatus.MODIFIED)
        if code[0] in "RC":
            old, new = next(items), next(items)
            out.append((status, old, new))
        else:
            out.append((status, None, next(items)))
    return out


def file_change(repo: Path, base: str, head: str, status: FileStatus, old_path: str | None,
                path: str, config: Config, *, sets: SchemaSets | None = None) -> FileChange:
    base_path = old_path or path
    base_text = None if status is FileStatus.ADDED else show(repo, base, base_path)
    head_text = None if status is FileStatus.REMOVED else show(repo, head, path)
    sets = sets or SchemaSets(repo, config)
    proto = path.endswith(".proto")
    layout = buf_layout(repo, base, path) if proto else None
    roots = ("", *config.import_roots, *(layout.roots if layout else ()))
    # A link's blob is its target's path: never a schema, never followed (fail closed).
    problem = next((LINKED.format(side=side) for side, ref, name, text in (
        ("base", base, base_path, base_text), ("head", head, path, head_text))
        if text is not None and mode_of(repo, ref, name) == SYMLINK_MODE), None)
    base_paths, head_paths = {}, {}  # protobuf: where each import was read
    try:
        base_imports, base_paths = (imports(base_text, lambda p: _find(repo, base, p, roots))
                                    if proto else (sets.of(base, base_path), {}))
        head_imports, head_paths = (imports(head_text, lambda p: _find(repo, head, p, roots))
                                    if proto else (sets.of(head, path), {}))
    except _LinkedImport as linked:
        problem, base_imports, head_imports = problem or str(linked), {}, {}
    return FileChange(
        buf_layout=layout, problem=problem,
        path=path, status=status, previous_path=old_path, base_text=base_text, head_text=head_text,
        patch=patch(repo, base, head, *dict.fromkeys((base_path, path))),
        base_imports=base_imports, head_imports=head_imports,
        base_import_paths=base_paths, head_import_paths=head_paths,
        base_withheld=sets.withheld(base, base_path), head_withheld=sets.withheld(head, path),
        history=history(repo, base, base_path) if base_text is not None else ())


def buf_layout(repo: Path, base: str, path: str) -> bufyaml.Layout:
    """buf's layout files governing `path` at the base, as the App reads them."""
    found = {name: show(repo, base, name) for name in bufyaml.candidates(path)}
    return bufyaml.layout({name: data.decode("utf-8", "replace")
                           for name, data in found.items() if data is not None})


def imports(text: bytes | None, find: Callable[[str], tuple[str, bytes] | None]
            ) -> tuple[dict[str, str], dict[str, str]]:
    """Every file a .proto imports, transitively: import path as written -> text, and -> the
    repository path it was read from (`find` gives both, or None)."""
    paths: dict[str, str] = {}

    def read(name: str) -> bytes | None:
        hit = find(name)
        if hit is None:
            return None
        paths[name] = hit[0]
        return hit[1]
    found = proto_imports.closure(text, read, schema_sets.MAX_IMPORTS)
    return found, {name: path for name, path in paths.items() if name in found}


class _LinkedImport(Exception):
    """An import found as a symbolic link: the file is not reviewed (str(): the problem)."""


def _find(repo: Path, ref: str, name: str, roots: tuple[str, ...]) -> tuple[str, bytes] | None:
    for root in roots:
        candidate = f"{root}/{name}" if root else name
        data = show(repo, ref, candidate)
        if data is not None:
            if mode_of(repo, ref, candidate) == SYMLINK_MODE:
                raise _LinkedImport(LINKED_IMPORT.format(name=name))
            return candidate, data
    return None


def example_repo(into: Path) -> tuple[Path, str, str]:
    """A git repository made from bot/example: base/ committed on main, then head/ on top."""
    repo = into / "example"
    repo.mkdir()
    git(repo, *EXAMPLE_GIT, "init", "-q")
    for tree, message in (("base", "Schemas as on the default branch"),
                          ("head", "Change the schemas (the pull request)")):
        for entry in repo.iterdir():
            if entry.name != ".git":
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        shutil.copytree(EXAMPLE / tree, repo, dirs_exist_ok=True)
        if tree == "head":  # the config file lives on the default branch only
            shutil.copytree(EXAMPLE / "base" / ".github", repo / ".github", dirs_exist_ok=True)
        git(repo, *EXAMPLE_GIT, "add", "-A")
        git(repo, *EXAMPLE_GIT, "commit", "-q", "--no-verify", "-m", message)
    return repo, "HEAD~1", "HEAD"
