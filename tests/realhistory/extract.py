"""Consecutive versions of each schema file in a git mirror, written out with their trees.

`python -m tests.realhistory.extract --mirror DIR --format protobuf --glob 'a/**/*.proto' --out OUT`
appends one JSON line per pair to OUT/pairs.jsonl and writes each commit's tree once under
OUT/trees/<repo>/<commit>/ (at the files' repository paths):
- protobuf: every .proto under --root at that commit (imports need the whole tree), plus the
  files of any --dep mirror (a dependency such as validate/validate.proto) at its HEAD;
  google/protobuf/ is left out: both peers bring their own well-known types;
- avro: every .avsc under the file's directory (named types shared between files);
- jsonschema: the file, and the files of its directory its `$ref`s name by their last
  segment (`https://json.schemastore.org/base.json#/...` -> `base.json`), transitively: the
  siblings the engine finds in a checkout, and only those.
History is first-parent (merges diffed against their first parent), so a version is what the
main line held; a version is "consecutive" when the blob differs from the one before.
`--series GLOB` instead pairs the files of one versioned family at HEAD (`v1/X.avsc` ->
`v2/X.avsc`), the way some projects keep every version of a protocol side by side.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import re
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath

SUFFIX = {"protobuf": ".proto", "avro": ".avsc", "jsonschema": ".json"}
WELL_KNOWN = "google/protobuf/"
MAX_BLOB = 1 << 20  # the engine refuses larger schemas anyway; never write them
MAX_REFERENCED = 20  # sibling JSON Schema files written beside one file
RAW = re.compile(r"^:\d+ (\d+) [0-9a-f]+ ([0-9a-f]+) (\w)\d*\t(.+)$")
VERSION = re.compile(r"(\d+)")
# The last path segment of a `$ref` to another document: "…/base.json#/x" -> base.json
REF_FILE = re.compile(r'"\$ref"\s*:\s*"(?:[^"#]*/)?([^"#/]+\.json)(?:#[^"]*)?"')


@dataclass(frozen=True)
class Pair:
    repo: str
    format: str
    file: str  # repository path of the schema (NEW's; in --series mode OLD's differs)
    old_file: str
    old: str  # tree key: OUT/trees/<repo>/<key>
    new: str
    root: str  # protobuf import root inside the tree ("" = the tree itself)


class Git:
    """Read-only access to one bare mirror: one long-lived `cat-file --batch` for blobs."""

    def __init__(self, mirror: Path):
        self.mirror = mirror
        self._batch = subprocess.Popen(["git", "-C", str(mirror), "cat-file", "--batch"],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(self, *args: str) -> str:
        return subprocess.run(["git", "-C", str(self.mirror), *args], check=True,
                              capture_output=True, text=True).stdout

    def blob(self, sha: str) -> bytes:
        self._batch.stdin.write(sha.encode() + b"\n")
        self._batch.stdin.flush()
        header = self._batch.stdout.readline().split()
        if len(header) < 3:
            raise KeyError(sha)
        data = self._batch.stdout.read(int(header[2]) + 1)
        return data[:-1]

    def files(self, commit: str, prefix: str = "") -> dict[str, tuple[str, int]]:
        """path -> (blob, size) of every file under prefix at commit."""
        out = self.run("ls-tree", "-r", "-l", "-z", commit, *([prefix] if prefix else []))
        listing = {}
        for entry in out.split("\0"):
            if not entry:
                continue
            meta, path = entry.split("\t", 1)
            _mode, kind, sha, size = meta.split()
            if kind == "blob" and size.isdigit():  # a snapshot may lack its largest blobs
                listing[path] = (sha, int(size))
        return listing

    def close(self) -> None:
        self._batch.stdin.close()
        self._batch.wait()


def histories(git: Git, globs: list[str], ref: str) -> dict[str, list[tuple[str, str | None]]]:
    """path -> [(commit, blob or None when deleted)], oldest first, first-parent line only."""
    out = git.run("log", "--first-parent", "--diff-merges=first-parent", "--reverse",
                  "--no-renames", "--raw", "--no-abbrev", "--format=C %H", ref, "--",
                  *(f":(glob){g}" for g in globs))
    seen: dict[str, list[tuple[str, str | None]]] = {}
    commit = ""
    for line in out.splitlines():
        if line.startswith("C "):
            commit = line[2:]
            continue
        match = RAW.match(line)
        if match:
            mode, blob, status, path = match.groups()
            if mode.startswith("160"):
                continue  # a submodule, not a file
            seen.setdefault(path, []).append((commit, None if status == "D" else blob))
    return seen


def consecutive(versions: list[tuple[str, str | None]]) -> list[tuple[str, str]]:
    """(old commit, new commit) for each change of a file that exists on both sides."""
    pairs, previous = [], None
    for commit, blob in versions:
        if previous and blob and blob != previous[1]:
            pairs.append((previous[0], commit))
        previous = (commit, blob) if blob else None
    return pairs


def spread(items: list, limit: int) -> list:
    """At most `limit` items, evenly spaced and deterministic (the newest always kept)."""
    if limit <= 0 or len(items) <= limit:
        return list(items)
    step = len(items) / limit
    return [items[len(items) - 1 - int(i * step)] for i in range(limit)][::-1]


class Trees:
    """Writes each (commit, scope) tree once; remembers what is already on disk."""

    def __init__(self, git: Git, out: Path, repo: str, fmt: str, root: str,
                 deps: list[tuple[Git, str]]):
        self.git, self.out, self.repo, self.fmt, self.root, self.deps = git, out, repo, fmt, root, deps
        self._written: set[tuple[str, str]] = set()
        self._dep_files: dict[str, bytes] | None = None

    def folder(self, key: str) -> Path:
        return self.out / "trees" / self.repo / key

    def write(self, key: str, commit: str, file: str) -> None:
        scope = {"protobuf": self.root, "avro": str(PurePosixPath(file).parent),
                 "jsonschema": file}[self.fmt]
        scope = "" if scope == "." else scope
        if (key, scope) in self._written:
            return
        self._written.add((key, scope))
        target = self.folder(key)
        suffix = SUFFIX[self.fmt]
        for path, (sha, size) in self.git.files(commit, scope).items():
            if not path.endswith(suffix) or size > MAX_BLOB:
                continue
            relative = path[len(self.root):].lstrip("/") if self.fmt == "protobuf" else path
            if self.fmt == "protobuf" and relative.startswith(WELL_KNOWN):
                continue
            self._put(target / self.root / relative if self.fmt == "protobuf" else target / path,
                      self.git.blob(sha))
        if self.fmt == "jsonschema":
            self._referenced(target, commit, file)
        if self.fmt == "protobuf":
            for relative, data in self._deps().items():
                destination = target / self.root / relative
                if not destination.exists():
                    self._put(destination, data)

    def _referenced(self, target: Path, commit: str, file: str) -> None:
        """The files beside `file` that its `$ref`s (and theirs) name, by last segment."""
        folder = str(PurePosixPath(file).parent)
        listed = self.git.files(commit, folder + "/" if folder != "." else "")
        by_name = {PurePosixPath(path).name: (path, sha, size) for path, (sha, size) in listed.items()
                   if str(PurePosixPath(path).parent) == folder}
        queue, written = [file], {file}
        while queue and len(written) <= MAX_REFERENCED:
            source = target / queue.pop()
            if not source.is_file():  # too large, or absent from the snapshot
                continue
            text = source.read_text(encoding="utf-8-sig", errors="replace")
            for name in sorted(set(REF_FILE.findall(text))):
                path, sha, size = by_name.get(name, (None, None, 0))
                if path is None or path in written or size > MAX_BLOB:
                    continue
                written.add(path)
                self._put(target / path, self.git.blob(sha))
                queue.append(path)

    def _deps(self) -> dict[str, bytes]:
        if self._dep_files is None:
            self._dep_files = {}
            for git, glob in self.deps:
                for path, (sha, _size) in git.files("HEAD").items():
                    if fnmatch.fnmatch(path, glob):
                        self._dep_files[path] = git.blob(sha)
        return self._dep_files

    @staticmethod
    def _put(path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def series(git: Git, glob: str, ref: str) -> list[tuple[str, str]]:
    """(old path, new path) for each step of a versioned family at ref, by version number."""
    found = [p for p in git.files(ref) if fnmatch.fnmatch(p, glob)]
    numbered = sorted(found, key=lambda p: [int(n) for n in VERSION.findall(p)])
    return list(zip(numbered, numbered[1:]))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tests.realhistory.extract",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", required=True, type=Path, help="a bare git directory")
    parser.add_argument("--repo", help="name in the report (default: from the mirror's path)")
    parser.add_argument("--format", required=True, choices=sorted(SUFFIX))
    parser.add_argument("--glob", action="append", default=[],
                        help="repository paths to follow (git glob, repeatable)")
    parser.add_argument("--exclude", action="append", default=[],
                        help="fnmatch patterns of paths to leave out (repeatable)")
    parser.add_argument("--series", help="pair the versions of a family at HEAD instead")
    parser.add_argument("--root", default="", help="protobuf import root inside the repository")
    parser.add_argument("--dep", action="append", default=[], metavar="MIRROR:GLOB",
                        help="protobuf files of another mirror (at HEAD) added to every tree")
    parser.add_argument("--ref", default="HEAD")
    parser.add_argument("--per-file", type=int, default=8, help="pairs kept per file (newest)")
    parser.add_argument("--max-pairs", type=int, default=150, help="pairs kept per invocation")
    parser.add_argument("--out", required=True, type=Path)
    return parser


def repo_name(mirror: Path) -> str:
    """/work/.mirror/owner+name/repo -> owner/name."""
    folder = mirror.resolve()
    folder = folder.parent if folder.name == "repo" else folder
    return folder.name.replace("+", "/", 1)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    git = Git(args.mirror)
    repo = args.repo or repo_name(args.mirror)
    deps = []
    for spec in args.dep:
        mirror, _, glob = spec.partition(":")
        deps.append((Git(Path(mirror)), glob or "*.proto"))
    trees = Trees(git, args.out, repo.replace("/", "+"), args.format, args.root.strip("/"), deps)
    ref = git.run("rev-parse", args.ref).strip()
    wanted: list[Pair] = []
    if args.series:
        for number, (old, new) in enumerate(series(git, args.series, ref)):
            step = f"{ref[:12]}-{PurePosixPath(new).stem}-{number}"
            wanted.append(Pair(repo, args.format, new, old, f"{step}-old", f"{step}-new",
                               args.root.strip("/")))
    else:
        for path, versions in sorted(histories(git, args.glob, ref).items()):
            if any(fnmatch.fnmatch(path, pattern) for pattern in args.exclude):
                continue
            if not path.endswith(SUFFIX[args.format]):
                continue
            for old, new in spread(consecutive(versions), args.per_file):
                wanted.append(Pair(repo, args.format, path, path, old, new, args.root.strip("/")))
    kept = spread(wanted, args.max_pairs)
    args.out.mkdir(parents=True, exist_ok=True)
    written = 0
    with open(args.out / "pairs.jsonl", "a", encoding="utf-8") as handle:
        for pair in kept:
            if args.series:
                _write_series(git, trees, ref, pair)
            else:
                trees.write(pair.old, pair.old, pair.file)
                trees.write(pair.new, pair.new, pair.file)
            inside = Path(pair.root, pair.file)
            if not all((trees.folder(key) / inside).is_file() for key in (pair.old, pair.new)):
                continue  # over MAX_BLOB, or absent from the snapshot: nothing to compare
            handle.write(json.dumps(asdict(pair)) + "\n")
            written += 1
    git.close()
    print(f"{repo}: {written} pairs ({len(wanted)} found, {len(kept) - written} too large)",
          file=sys.stderr)
    return 0


def _write_series(git: Git, trees: Trees, ref: str, pair: Pair) -> None:
    """A series step: OLD's file written under NEW's path, so both sides name the same file."""
    files = git.files(ref)
    for key, path in ((pair.old, pair.old_file), (pair.new, pair.file)):
        Trees._put(trees.folder(key) / pair.file, git.blob(files[path][0]))


if __name__ == "__main__":
    sys.exit(main())
