"""Compile a Source with protoc (grpcio-tools), sandboxed; return its FileDescriptorSet."""
from __future__ import annotations

import math
import re
import tempfile
from dataclasses import replace
from pathlib import Path, PurePosixPath

from .. import limits, proto_imports, sandbox
from ..model import SchemaError, Source, Unresolved
from ..sources import decode

# protoc runs through the sandbox: its own process (it writes diagnostics to file descriptor 2,
# and a hostile file cannot hang or crash the caller), a minimal environment, hard limits, and
# an argv that is the same for every repository: the file is compiled under a generated name
# inside a scratch tree, so no repository text can become an option (`--plugin=...`) or an
# argument file (`@file`). sys.argv[0] of `python -c` ("-c") stands in for protoc's name.
BOOTSTRAP = ("import sys; from grpc_tools import _protoc_compiler as c; "
             "sys.exit(c.run_main([a.encode() for a in sys.argv]))")
GENERATED = "f{number:04d}.proto"  # the compiled file's name on protoc's command line
WELL_KNOWN = "wkt"  # google/protobuf/*.proto, linked into the scratch tree
OUTPUT = "set.pb"
# protoc's log chatter (absl's banner and W/I-prefixed lines) and warnings are not errors.
CHATTER = re.compile(r"^WARNING: All log messages|^[IW]\d{4} |^\[libprotobuf (WARNING|INFO)"
                     r"|^[^:\n]*:\d+:\d+: warning: |^warning: ")
DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$")
CONSEQUENCE = re.compile(r'^Import ".*" was not found or had errors\.$')
NOT_FOUND = re.compile(r'^(?P<name>[^:\n]+): File not found\.$')
OWN_PREFIXES = re.compile(r"(?<![\w./-])(?:\./|\.\./" + WELL_KNOWN + r"/)")

BAD_IMPORT_PATH = "import path {name!r} is not a relative path inside the repository"
LEADING_CHARACTER = ("file name {name!r} has a path component starting with {char!r}, which "
                     "schema-review does not accept (protoc reads such names as options)")
UNWRITABLE = "cannot lay out import {name!r}: {problem}"
TOO_MANY_FILES = "{count} imported files, over the limit of {limit}"
TIMED_OUT = "protoc did not finish within {seconds} seconds; the file is too complex to compile"
OUT_OF_MEMORY = "protoc ran out of memory ({limit} MiB); the file is too complex to compile"
OUTPUT_TOO_LARGE = "protoc's output grew past {limit} MiB; the file is too large to compile"
KILLED = "protoc was stopped by signal {signal}"
PROTOC_FAILED = "protoc: {message}"
IN_IMPORT = "protoc: in {name}:{line}:{col}: {msg}"
MORE_ERRORS = " (and {count} more protoc error(s))"
# Said for the App and the CLI alike: the engine does not know which of them runs it.
IMPORT_NOT_FOUND = ('import "{name}" was not found. Imports resolve from the roots of a buf.yaml '
                    "or buf.work.yaml module holding the file, from the configured import roots "
                    "(`protobuf.import_roots` in .github/schema-review.yml; `--proto-path DIR` "
                    "on the command line) and from the file's own directory")
FROM_DEPS = ("; it may come from the module's buf dependencies ({deps}), which schema-review "
             "never downloads: vendor them into the repository (for example `buf export "
             "<dependency> -o third_party`) and add that directory to the import roots")
MAX_DEPS_NAMED = 3
NO_OUTPUT = "protoc failed without a diagnostic (exit code {code})"
MEMORY_HINTS = ("std::bad_alloc", "out of memory", "Cannot allocate memory")


def protoc_limits() -> sandbox.Limits:
    """Read at each run (tests lower them); protoc may never start another process."""
    return sandbox.Limits(wall_seconds=limits.PROTOC_TIMEOUT_SECONDS,
                          cpu_seconds=math.ceil(limits.PROTOC_TIMEOUT_SECONDS),
                          memory_bytes=limits.PROTOC_MEMORY_BYTES,
                          file_bytes=limits.PROTOC_OUTPUT_BYTES, processes=0)


def well_known_root() -> str:
    """The include dir for google/protobuf/*.proto shipped inside grpcio-tools."""
    import grpc_tools  # imported lazily: only its location is needed here
    return str(Path(grpc_tools.__file__).parent / "_proto")


def import_name(source: Source) -> str:
    """The name the user knows the file by: relative to a proto_path root, else its basename."""
    path = Path(source.path).resolve()
    for root in source.proto_paths:
        try:
            return path.relative_to(Path(root).resolve()).as_posix()
        except ValueError:
            continue
    return PurePosixPath(source.path.replace("\\", "/")).name or "schema.proto"


def _checked_name(source: Source, name: str) -> PurePosixPath:
    relative = PurePosixPath(name)
    parts = name.split("/")
    if (not name or "\\" in name or "\0" in name or relative.is_absolute()
            or any(part in ("..", "") for part in parts)):
        raise SchemaError(source.path, None, BAD_IMPORT_PATH.format(name=name))
    for part in parts:
        if part[0] in "@-":
            raise SchemaError(source.path, None, LEADING_CHARACTER.format(name=name, char=part[0]))
    return relative


def _generated(source: Source) -> str:
    """A name no supplied import and no --proto-path file already has (protoc would refuse an
    input shadowed by another root)."""
    taken = {name.split("/")[0] for name in (*source.imports, import_name(source))}
    number = 0
    while (GENERATED.format(number=number) in taken
           or any((Path(root) / GENERATED.format(number=number)).exists()
                  for root in source.proto_paths)):
        number += 1
    return GENERATED.format(number=number)


def _materialise(source: Source, name: str, own: str, tree: Path) -> None:
    """Write the file and the supplied imports under `tree` only. The file goes there twice:
    under its generated name (the one compiled) and under its own (so that an import cycle
    back to it is reported as a cycle, as protoc sees it)."""
    if len(source.imports) + 1 > limits.MAX_PROTO_FILES:
        raise SchemaError(source.path, None, TOO_MANY_FILES.format(
            count=len(source.imports), limit=limits.MAX_PROTO_FILES))
    files = [(each, _checked_name(source, each), text) for each, text in source.imports.items()
             if each != own]
    files += [(source.path, PurePosixPath(name), source.text),
              (source.path, PurePosixPath(own), source.text)]
    for each, relative, text in files:
        data = text.encode("utf-8", "surrogatepass")
        decode(each, data)  # size, binary and UTF-8 checks
        target = tree / relative
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as error:  # e.g. "a.proto" and "a.proto/b.proto" both supplied
            raise SchemaError(source.path, None, UNWRITABLE.format(
                name=each, problem=error.strerror or error)) from None


def _with_root_imports(source: Source, located: dict[str, str]) -> Source:
    """The supplied imports (they win, as `-I.` comes first), and those found in the import
    roots, copied: protoc never searches a directory of the repository, where a link would
    lead it to any file of the machine (rules/proto_imports.py refuses links instead).
    `located` gets the path each import found in a root was read from."""
    if not source.proto_paths:
        return source
    found = proto_imports.from_roots(source.text.encode("utf-8", "surrogatepass"),
                                     source.proto_paths, located)
    for name in source.imports:
        located.pop(name, None)  # a supplied import wins, and its path is not known here
    return replace(source, imports={**found, **source.imports})


class Compilation:
    """One protoc run, started at once so that both versions compile in parallel."""

    def __init__(self, source: Source):
        self.source = source
        self.own = import_name(source)
        _checked_name(source, self.own)
        self.name = _generated(source)
        self.files: dict[str, str] = {}  # import name -> the path it was read from, when known
        self._scratch = tempfile.TemporaryDirectory(prefix="schema-review-proto-")
        self._closed = False
        root = Path(self._scratch.name)
        tree = root / "src"
        try:
            tree.mkdir()
            _materialise(_with_root_imports(source, self.files), self.name, self.own, tree)
            self.files.update((name, path) for name, path in source.import_paths.items()
                              if name in source.imports)
            (root / WELL_KNOWN).symlink_to(well_known_root())
            includes = ["-I.", f"-I../{WELL_KNOWN}"]
            argv = sandbox.python(BOOTSTRAP, *includes, "--include_imports",
                                  "--include_source_info", f"--descriptor_set_out=../{OUTPUT}",
                                  self.name, site=False)
            self._out = root / OUTPUT
            self._child = sandbox.start(argv, cwd=str(tree), limits=protoc_limits())
        except BaseException:
            self._scratch.cleanup()
            raise

    def result(self) -> bytes:
        """The serialized FileDescriptorSet, or a SchemaError naming protoc's first complaint."""
        try:
            outcome = self._child.wait()
            if outcome.code != 0:
                raise self._failure(outcome)
            return self._out.read_bytes()
        finally:
            self.close()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._child.close()
        self._scratch.cleanup()

    def _failure(self, outcome: sandbox.Outcome) -> SchemaError:
        path = self.source.path
        text = outcome.output.decode("utf-8", "replace")
        if outcome.timed_out or outcome.cpu_exceeded:
            return SchemaError(path, None, TIMED_OUT.format(seconds=limits.PROTOC_TIMEOUT_SECONDS))
        if any(hint in text for hint in MEMORY_HINTS):
            return SchemaError(path, None, OUT_OF_MEMORY.format(
                limit=limits.PROTOC_MEMORY_BYTES >> 20))
        if outcome.file_too_large:
            return SchemaError(path, None, OUTPUT_TOO_LARGE.format(
                limit=limits.PROTOC_OUTPUT_BYTES >> 20))
        if outcome.code < 0:
            return SchemaError(path, None, KILLED.format(signal=-outcome.code))
        return diagnose(self.source, self._scrub, text, outcome.code)

    def _scrub(self, text: str) -> str:
        """protoc's words with the scratch tree gone: include prefixes dropped, the generated
        name replaced by the user's, and no path of this machine left."""
        text = OWN_PREFIXES.sub("", text)
        text = re.sub(rf"(?<![\w./-]){re.escape(self.name)}(?![\w.-])", lambda _: self.own, text)
        for secret in (self._scratch.name, well_known_root(),
                       *(str(Path(p).resolve()) for p in self.source.proto_paths)):
            text = text.replace(secret.rstrip("/") + "/", "").replace(secret, "")
        return text


def diagnose(source: Source, scrub, text: str, code: int) -> SchemaError:
    """protoc's first diagnostic (preferring one in the file itself) as a SchemaError."""
    lines = []
    for raw in text.splitlines():
        if len(lines) > limits.MAX_PROTOC_ERRORS:
            break
        line = raw.rstrip()
        if line and not CHATTER.search(line):
            lines.append(scrub(line))
    if not lines:
        return SchemaError(source.path, None, NO_OUTPUT.format(code=code))
    own_name = import_name(source)
    parsed = [DIAGNOSTIC.match(line) for line in lines]
    mine = [m for m in parsed if m and m["file"] == own_name]
    missing = next((m["name"] for m in map(NOT_FOUND.match, lines) if m), None)
    if missing is not None:  # the cause of what follows ("X is not defined"): say how to fix it
        at = next((int(m["line"]) for m in mine if f'"{missing}"' in m["msg"]), None)
        hint = FROM_DEPS.format(deps=_named(source.buf_deps)) if source.buf_deps else ""
        return Unresolved(source.path, at, IMPORT_NOT_FOUND.format(name=missing) + hint)
    # "Import X was not found or had errors" in the file is a consequence; when protoc named
    # the cause in another file (an error there, an import cycle), the cause is the message.
    own = next((m for m in mine if not CONSEQUENCE.match(m["msg"])), None)
    if own is None and not (parsed[0] and parsed[0]["file"] != own_name):
        own = mine[0] if mine else None
    more = MORE_ERRORS.format(count=len(lines) - 1) if len(lines) > 1 else ""
    if len(lines) > limits.MAX_PROTOC_ERRORS:
        more = MORE_ERRORS.format(count=f"{limits.MAX_PROTOC_ERRORS}+")
    if own:
        return SchemaError(source.path, int(own["line"]),
                           PROTOC_FAILED.format(message=f"{own['msg']} (column {own['col']})") + more)
    first = parsed[0]
    if first:
        return SchemaError(source.path, None, IN_IMPORT.format(
            name=first["file"], line=first["line"], col=first["col"], msg=first["msg"]) + more)
    return SchemaError(source.path, None, PROTOC_FAILED.format(message=lines[0]) + more)


def _named(deps: tuple[str, ...]) -> str:
    """A few of the dependencies, each cut short: they are repository text."""
    shown = [dep if len(dep) <= 100 else dep[:97] + "..." for dep in deps[:MAX_DEPS_NAMED]]
    more = f" and {len(deps) - MAX_DEPS_NAMED} more" if len(deps) > MAX_DEPS_NAMED else ""
    return ", ".join(shown) + more
