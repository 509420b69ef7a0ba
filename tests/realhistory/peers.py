"""The reference tools' verdicts on one pair: `buf breaking` for protobuf, Apache Avro's checker."""
from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rules.proto_imports import imported

BUF_TIMEOUT = 60
BREAKING = 100  # buf's exit status when it found breaking changes


@dataclass(frozen=True)
class Verdict:
    """compatible True/False, or None when the tool could not judge (`error` says why)."""

    compatible: bool | None
    rules: tuple[str, ...] = ()  # the tool's rule ids (buf) or incompatibility types (Avro)
    details: tuple[str, ...] = ()
    error: str = ""


def buf_binary() -> str:
    """buf from the same environment as this interpreter (requirements-dev's buf-bin)."""
    beside = Path(sys.executable).with_name("buf")
    return str(beside) if beside.exists() else (shutil.which("buf") or "buf")


def buf(old_root: Path, new_root: Path, file: str, category: str, *, cache: Path) -> Verdict:
    """`buf breaking NEW --against OLD` with only `category` in use, on FILE and its imports.

    A violation anywhere in the closure counts: our engine follows the file's types into the
    files that define them (a change there is a change to what this file sends).

    Each side is the file's import closure, linked into a scratch module: buf builds the whole
    module, and an unrelated file of the tree that does not build (a missing third-party import)
    must not fail the pair. buf's `--path` cannot be used instead: it resolves the path against
    the working directory for both inputs ("is outside the context directory")."""
    config = json.dumps({"version": "v1", "breaking": {"use": [category]}})
    with tempfile.TemporaryDirectory(prefix="buf-pair-") as scratch:
        old, new = Path(scratch, "old"), Path(scratch, "new")
        for root, module in ((old_root, old), (new_root, new)):
            for name in closure(root, file):
                (module / name).parent.mkdir(parents=True, exist_ok=True)
                (module / name).symlink_to(root / name)
        argv = [buf_binary(), "breaking", str(new), "--against", str(old),
                "--config", config, "--against-config", config, "--error-format", "json"]
        env = {"PATH": os.environ.get("PATH", ""), "HOME": str(cache), "BUF_CACHE_DIR": str(cache)}
        run = subprocess.run(argv, capture_output=True, text=True, timeout=BUF_TIMEOUT, env=env,
                             cwd=scratch)
    violations = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    if any(v.get("type") == "COMPILE" for v in violations):
        return Verdict(None, error=next(v["message"] for v in violations
                                        if v.get("type") == "COMPILE")[:300])
    if run.returncode == 0:
        return Verdict(True)
    # Only what this file's own types see: a change in an imported type that none of the
    # file's fields uses is the other file's change (its own pair reports it).
    seen = reachable(old_root, file) | reachable(new_root, file)
    violations = [v for v in violations if _concerns(v, file, seen)]
    if run.returncode == BREAKING and not violations:
        return Verdict(True)
    if run.returncode == BREAKING:
        return Verdict(False, tuple(sorted({v["type"] for v in violations})),
                       tuple(v["message"] for v in violations))
    return Verdict(None, error=(run.stderr or run.stdout).strip().splitlines()[-1][:300]
                   if (run.stderr or run.stdout).strip() else f"exit {run.returncode}")


def closure(root: Path, file: str) -> list[str]:
    """`file` and every file it imports, transitively, that exists under root (google/protobuf
    comes with buf; a missing import is left for buf to report)."""
    seen, todo = [], [file]
    while todo:
        name = todo.pop()
        if name in seen or not (root / name).is_file():
            continue
        seen.append(name)
        todo += imported((root / name).read_bytes())
    return seen


TYPE_NAMED = re.compile(r'on (?:message|enum) "([^"]+)"')


def _concerns(violation: dict, file: str, seen: set[tuple[str, str]]) -> bool:
    where = violation.get("path", "").rpartition("/new/")[2]
    if where == file:
        return True
    named = TYPE_NAMED.search(violation.get("message", ""))
    return bool(named) and (where, named.group(1)) in seen


@functools.lru_cache(maxsize=4096)
def reachable(root: Path, file: str) -> frozenset[tuple[str, str]]:
    """(defining file, package-less name) of every type the file's messages use through their
    fields, transitively: what our engine follows into imports. Empty if protoc fails."""
    from google.protobuf import descriptor_pb2
    from grpc_tools import protoc

    with tempfile.TemporaryDirectory(prefix="reach-") as scratch:
        out = Path(scratch, "set.pb")
        wkt = Path(protoc.__file__).parent / "_proto"
        run = subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{root}", f"-I{wkt}",
                              "--include_imports", f"--descriptor_set_out={out}", file],
                             capture_output=True, timeout=BUF_TIMEOUT)
        if run.returncode != 0:
            return frozenset()
        files = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file
    where: dict[str, tuple[str, str]] = {}  # full name -> (file, package-less name)
    fields: dict[str, list[str]] = {}  # full name -> referenced full names

    def index(proto, prefix: str, messages, enums) -> None:
        for enum in enums:
            where[f"{prefix}.{enum.name}".lstrip(".")] = (proto.name, "")
        for message in messages:
            full = f"{prefix}.{message.name}".lstrip(".")
            where[full] = (proto.name, "")
            fields[full] = [f.type_name.lstrip(".") for f in message.field if f.type_name]
            index(proto, full, message.nested_type, message.enum_type)

    for proto in files:
        index(proto, proto.package, proto.message_type, proto.enum_type)
        package = proto.package + "." if proto.package else ""
        for full, (name, _) in list(where.items()):
            if name == proto.name:
                where[full] = (name, full[len(package):])
    todo = [full for full, (name, _) in where.items() if name == file]
    seen: set[str] = set()
    while todo:
        full = todo.pop()
        if full in seen or full not in where:
            continue
        seen.add(full)
        todo += fields.get(full, [])
    return frozenset(where[full] for full in seen)


def avro(old: Path, new: Path, mode: str) -> Verdict:
    """Apache Avro's ReaderWriterCompatibilityChecker; `full` is both directions."""
    import avro.compatibility as compatibility

    try:
        writer, reader = _avro_parse(old), _avro_parse(new)
    except Exception as error:  # the peer's own parse failure: it cannot judge
        return Verdict(None, error=f"{type(error).__name__}: {error}"[:300])
    checks = {"backward": [(reader, writer)], "forward": [(writer, reader)],
              "full": [(reader, writer), (writer, reader)]}[mode]
    rules, details = set(), []
    checker = compatibility.ReaderWriterCompatibilityChecker()
    for read_with, written_with in checks:
        result = checker.get_compatibility(read_with, written_with)
        if result.compatibility is not compatibility.SchemaCompatibilityType.compatible:
            rules.update(i.name for i in result.incompatibilities)
            details.extend(result.messages)
    return Verdict(not rules, tuple(sorted(rules)), tuple(sorted(set(details))))


def _avro_parse(path: Path):
    """The file alone, or, when it names types defined elsewhere, with the named types of the
    other .avsc files under its directory (the way our engine and avro-maven-plugin see them)."""
    import avro.errors
    import avro.schema

    text = path.read_text(encoding="utf-8-sig")
    try:
        return avro.schema.parse(text)
    except avro.errors.SchemaParseException as error:
        if "Could not make an Avro Schema object from" not in str(error):
            raise  # not a name defined elsewhere: the file itself is unusable
    names = avro.schema.Names()
    pending = [p for p in sorted(path.parent.rglob("*.avsc")) if p.resolve() != path.resolve()]
    progress = True
    while pending and progress:  # siblings may use each other: parse until nothing more parses
        progress, still = False, []
        for sibling in pending:
            try:
                avro.schema.make_avsc_object(json.loads(sibling.read_text(encoding="utf-8-sig")),
                                             names)
                progress = True
            except Exception:
                still.append(sibling)
        pending = still
    return avro.schema.make_avsc_object(json.loads(text), names)
