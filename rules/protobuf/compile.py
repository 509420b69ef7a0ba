"""Run the real protoc (grpcio-tools) in an isolated subprocess; return a FileDescriptorSet."""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path, PurePosixPath

from .. import limits
from ..model import SchemaError, Source
from ..sources import decode

# protoc runs in its own process: it writes diagnostics to file descriptor 2 (not sys.stderr),
# a hostile file cannot hang or crash the caller, and a timeout can simply kill it.
# `-I` isolates the child from PYTHON* variables, the user site and the current directory;
# sys.argv[0] of `python -c` ("-c") stands in for protoc's program name.
BOOTSTRAP = ("import sys; from grpc_tools import _protoc_compiler as c; "
             "sys.exit(c.run_main([a.encode() for a in sys.argv]))")
# protoc's log chatter (absl's banner and W/I-prefixed lines) and warnings are not errors.
CHATTER = re.compile(r"^WARNING: All log messages|^[IW]\d{4} |^\[libprotobuf (WARNING|INFO)"
                     r"|^[^:\n]*:\d+:\d+: warning: |^warning: ")
DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$")

BAD_IMPORT_PATH = "import path {name!r} is not a relative path inside the repository"
UNWRITABLE = "cannot lay out import {name!r}: {problem}"
TOO_MANY_FILES = "{count} imported files, over the limit of {limit}"
TIMED_OUT = "protoc did not finish within {seconds} seconds; the file is too complex to compile"
PROTOC_FAILED = "protoc: {message}"
IN_IMPORT = "protoc: in {name}:{line}:{col}: {msg}"
MORE_ERRORS = " (and {count} more protoc error(s))"
NO_OUTPUT = "protoc failed without a diagnostic (exit code {code})"


def well_known_root() -> str:
    """The include dir for google/protobuf/*.proto shipped inside grpcio-tools."""
    import grpc_tools  # imported lazily: only its location is needed here
    return str(Path(grpc_tools.__file__).parent / "_proto")


def import_name(source: Source) -> str:
    """The name the file is compiled under: relative to a proto_path root, else its basename."""
    path = Path(source.path).resolve()
    for root in source.proto_paths:
        try:
            return path.relative_to(Path(root).resolve()).as_posix()
        except ValueError:
            continue
    return PurePosixPath(source.path.replace("\\", "/")).name or "schema.proto"


def _checked_name(source: Source, name: str) -> PurePosixPath:
    relative = PurePosixPath(name)
    if (not name or "\\" in name or "\0" in name or relative.is_absolute()
            or any(part in ("..", "") for part in name.split("/"))):
        raise SchemaError(source.path, None, BAD_IMPORT_PATH.format(name=name))
    return relative


def _materialise(source: Source, name: str, root: Path) -> None:
    """Write the file and the supplied imports under `root` (and nowhere else)."""
    if len(source.imports) + 1 > limits.MAX_PROTO_FILES:
        raise SchemaError(source.path, None, TOO_MANY_FILES.format(
            count=len(source.imports), limit=limits.MAX_PROTO_FILES))
    files = {**source.imports, name: source.text}
    for each, text in files.items():
        target = root / _checked_name(source, each)
        data = text.encode("utf-8", "surrogatepass")
        decode(source.path if each == name else each, data)  # size, binary and UTF-8 checks
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as error:  # e.g. "a.proto" and "a.proto/b.proto" both supplied
            raise SchemaError(source.path, None, UNWRITABLE.format(
                name=each, problem=error.strerror or error)) from None


class Compilation:
    """One protoc run, started at once so that both versions compile in parallel."""

    def __init__(self, source: Source):
        self.source = source
        self.name = import_name(source)
        _checked_name(source, self.name)
        self._scratch = tempfile.TemporaryDirectory(prefix="schema-review-proto-")
        root = Path(self._scratch.name)
        tree, self._out = root / "src", root / "set.pb"
        tree.mkdir()
        try:
            _materialise(source, self.name, tree)
        except BaseException:
            self._scratch.cleanup()
            raise
        self._closed = False
        roots = [str(tree), *(str(Path(p).resolve()) for p in source.proto_paths),
                 well_known_root()]
        args = [sys.executable, "-I", "-c", BOOTSTRAP, *(f"-I{r}" for r in roots),
                "--include_imports", "--include_source_info", f"--descriptor_set_out={self._out}",
                self.name]
        self._roots = roots
        self._stderr = open(root / "stderr", "w+b")
        self._process = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=self._stderr, cwd=tree)
        # A timer kills a run that overstays; waiting itself blocks in waitpid instead of
        # polling (Popen.wait(timeout) sleeps in steps, which costs up to 50 ms per run).
        self._timed_out = threading.Event()
        self._timer = threading.Timer(limits.PROTOC_TIMEOUT_SECONDS, self._kill)
        self._timer.daemon = True
        self._timer.start()

    def _kill(self) -> None:
        self._timed_out.set()
        self._process.kill()

    def result(self) -> bytes:
        """The serialized FileDescriptorSet, or a SchemaError naming protoc's first complaint."""
        try:
            code = self._process.wait()
            self._timer.cancel()
            if self._timed_out.is_set():
                raise SchemaError(self.source.path, None, TIMED_OUT.format(
                    seconds=limits.PROTOC_TIMEOUT_SECONDS))
            if code != 0:
                self._stderr.seek(0)
                raise _failure(self.source, self.name, self._stderr, code, self._roots)
            return self._out.read_bytes()
        finally:
            self.close()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._timer.cancel()
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._stderr.close()
        self._scratch.cleanup()


def _virtual(file: str, roots: list[str]) -> str:
    """protoc names files by their path on disk; the import name is what the user wrote."""
    for root in roots:
        if file.startswith(root.rstrip("/") + "/"):
            return file[len(root.rstrip("/")) + 1:]
    return file


def _failure(source: Source, name: str, stderr, code: int, roots: list[str]) -> SchemaError:
    """protoc's first diagnostic (preferring one in the file itself) as a SchemaError."""
    lines = []
    for raw in stderr:
        if len(lines) > limits.MAX_PROTOC_ERRORS:
            break
        text = raw.decode("utf-8", "replace").rstrip()
        if text and not CHATTER.search(text):
            lines.append(text)
    if not lines:
        return SchemaError(source.path, None, NO_OUTPUT.format(code=code))
    parsed = [DIAGNOSTIC.match(line) for line in lines]
    own = next((m for m in parsed if m and _virtual(m["file"], roots) == name), None)
    more = MORE_ERRORS.format(count=len(lines) - 1) if len(lines) > 1 else ""
    if len(lines) > limits.MAX_PROTOC_ERRORS:
        more = MORE_ERRORS.format(count=f"{limits.MAX_PROTOC_ERRORS}+")
    if own:
        return SchemaError(source.path, int(own["line"]),
                           PROTOC_FAILED.format(message=f"{own['msg']} (column {own['col']})") + more)
    first = parsed[0]
    if first:
        return SchemaError(source.path, None, IN_IMPORT.format(
            name=_virtual(first["file"], roots), line=first["line"], col=first["col"], msg=first["msg"]) + more)
    first_line = lines[0]
    for root in roots:
        first_line = first_line.replace(root.rstrip("/") + "/", "")
    return SchemaError(source.path, None, PROTOC_FAILED.format(message=first_line) + more)
