"""The reference tools' verdicts on one pair: `buf breaking` for protobuf, Apache Avro's checker."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

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
    if run.returncode == BREAKING and violations:
        return Verdict(False, tuple(sorted({v["type"] for v in violations})),
                       tuple(v["message"] for v in violations))
    return Verdict(None, error=(run.stderr or run.stdout).strip().splitlines()[-1][:300]
                   if (run.stderr or run.stdout).strip() else f"exit {run.returncode}")


IMPORT = re.compile(r'^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"\s*;', re.MULTILINE)


def closure(root: Path, file: str) -> list[str]:
    """`file` and every file it imports, transitively, that exists under root (google/protobuf
    comes with buf; a missing import is left for buf to report)."""
    seen, todo = [], [file]
    while todo:
        name = todo.pop()
        if name in seen or not (root / name).is_file():
            continue
        seen.append(name)
        todo += IMPORT.findall((root / name).read_text(encoding="utf-8", errors="replace"))
    return seen


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
