"""Directory mode: pair two trees' schema files by relative path and check each within its tree.

`check OLD_DIR NEW_DIR` is `buf breaking --against`'s shape: every schema file present in both
trees is checked with its own tree as its schema set (Avro named types, JSON Schema `$ref`s and
protobuf imports resolve there), so a change to a shared file shows in the files that use it.
A file only OLD has is followed to where its types went, as the App does (rules/likeness.py):
an added file of the format that defines one of its type names, or, where either has none, one
alike in content, is compared with it like a rename; a removal beside an addition that may be
it but is not known to be fails closed (a problem, exit 2), never a pass.
"""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .engine import EXTENSIONS, check
from . import likeness
from .limits import MAX_SCHEMA_BYTES
from .localfile import Refused, linked_parent, refusal, read_regular
from .model import Finding, Format, Mode, Options, Report, SchemaError
from .once import once
from .sources import read

# Files looked at per tree: a tree is a repository's schemas, not a whole disk.
MAX_TREE_FILES = 5000
REMOVED = "{path}: the schema file was removed (files that use it say what breaks)"
MOVED = "{path}: the schema file was removed; its types are in {to}, compared with it"
AMBIGUOUS = ('the schema file was removed and "{added}" added, one of them without a type name to follow '
             "(an Avro full name, a protobuf `package.Message`, a JSON Schema `$id`), and their contents "
             "not found alike enough to call it a move: not compared")
TOO_MANY = "more than {limit} schema files in this tree: not compared (check a smaller tree)"
TOO_BIG = "more than {limit} entries in this tree: not compared (check a smaller tree)"
MAX_TREE_ENTRIES = 200_000  # directory entries walked per tree, schema or not


# A repository path -> (its format, the mode to check it in), or None when it is no schema.
Classify = Callable[[str], "tuple[Format, Mode] | None"]


@dataclass
class TreeResult:
    report: Report  # every pair's findings, file names relative to the trees
    problems: list[SchemaError]  # files that could not be checked, relative names
    checked: list[str] = dataclasses.field(default_factory=list)  # files compared, relative

    @property
    def exit_code(self) -> int:
        return 2 if self.problems else self.report.exit_code


def by_extension(mode: Mode) -> Classify:
    """Without a config: every file with a schema extension, all in one mode."""
    def classify(path: str):
        fmt = EXTENSIONS.get(os.path.splitext(path)[1].lower())
        return None if fmt is None else (fmt, mode)
    return classify


def check_trees(old_dir: str, new_dir: str, *, classify: Classify, options: Options,
                mode: Mode, proto_paths: tuple[str, ...] = (), examples: bool = False,
                checker: Callable[..., Report] = check, categories_given: bool = False) -> TreeResult:
    """Check every schema file of NEW_DIR that OLD_DIR also has (the trees' own roots first).
    `checker` is `check`, or one that checks under a budget (the CLI's). A protobuf file gets
    the `breaking:` section of NEW's buf module holding it, as in file mode (`categories_given`:
    the caller's own categories replace its `use`/`except`)."""
    notes: list[str] = []
    problems: list[SchemaError] = []
    old_all, new_all = _files(old_dir, classify, problems), _files(new_dir, classify, problems)
    if any(not isinstance(problem, Refused) for problem in problems):
        # A tree too big to compare whole is never called compatible. A refused entry (a link,
        # a FIFO) is a problem too, but the tree's other files are still compared.
        return TreeResult(Report(mode=mode, findings=(), notes=()), problems)
    old_files, new_files = _classified(old_all, classify), _classified(new_all, classify)
    # A change anywhere in a format's files (schemas or files they use) can break any file of
    # that format: a shared type or `$ref` target changed shows where it is used.
    every = {**old_files, **new_files}
    changed = {every[rel][0] if rel in every else EXTENSIONS.get(os.path.splitext(rel)[1].lower())
               for rel in sorted(old_all | new_all) if _differs(old_dir, new_dir, rel)}
    if Format.PROTOBUF not in changed and _import_changed(old_dir, new_dir, old_all | new_all, every, proto_paths):
        changed.add(Format.PROTOBUF)
    seen: list[tuple[str, Finding]] = []  # (file checked, what its check found)
    checked: list[str] = []
    refused = {_relative(problem.file, old_dir, new_dir) for problem in problems}
    layout = None  # NEW's buf modules, read when the first protobuf file is checked
    removed = sorted(old_files.keys() - new_files.keys() - refused)  # refused: not removed
    moves, unsure = _moves(old_dir, new_dir, removed, sorted(new_files.keys() - old_files.keys() - refused),
                           old_files, new_files)
    for rel in removed:
        if rel in unsure:
            problems.append(SchemaError(rel, None, AMBIGUOUS.format(added=unsure[rel])))
        elif any(gone == rel for gone, _to in moves):
            notes.append(MOVED.format(path=rel, to=", ".join(to for gone, to in moves if gone == rel)))
        else:
            notes.append(REMOVED.format(path=rel))
    compared = sorted([(rel, rel) for rel in old_files.keys() & new_files.keys()] + moves,
                      key=lambda pair: (pair[1], pair[0]))
    for was, rel in compared:
        fmt, file_mode = new_files[rel]
        if fmt not in changed:
            continue  # nothing of this format changed: its verdicts cannot have either
        file_options = options
        if fmt is Format.PROTOBUF:
            from .protobuf import bufrules  # only protobuf files read buf's sections

            layout = layout or _buf_layout(new_dir, new_all)
            file_options, buf_notes = bufrules.for_file(layout, rel, options,
                                                        categories_given=categories_given)
            notes += [note for note in buf_notes if note not in notes]
        try:
            old = read(os.path.join(old_dir, was), proto_paths=_roots(old_dir, proto_paths),
                       root=old_dir)
            new = read(os.path.join(new_dir, rel), proto_paths=_roots(new_dir, proto_paths),
                       root=new_dir)
            report = checker(old, new, format=fmt, mode=file_mode, options=file_options,
                             examples=examples)
        except SchemaError as error:
            if isinstance(error, Refused) and str(error) in map(str, problems):
                continue  # a link the walk refused already, met again through a `$ref`
            error.file = _relative(error.file, old_dir, new_dir)
            if str(error) not in map(str, problems):  # a broken shared file: said once
                problems.append(error)
            continue
        checked.append(rel)
        seen += [(rel, dataclasses.replace(finding, file=_relative(finding.file, old_dir, new_dir)))
                 for finding in report.findings]
        notes += [note for note in report.notes if note not in notes]
    # A shared file's change is seen from itself and from each file using it: once, there.
    ordered = once(seen)
    modes = {how[1] for how in new_files.values()}
    shown = modes.pop() if len(modes) == 1 else mode  # the summary names the mode used
    return TreeResult(Report(mode=shown, findings=tuple(ordered), notes=tuple(notes)), problems,
                      checked)


def _files(root: str, classify: Classify, problems: list[SchemaError]) -> set[str]:
    """Relative paths (with "/") of a tree's schema files (those the config classifies, those
    with a schema extension, buf's layout files); other files are neither kept nor counted, so
    padding a tree with junk hides nothing. Over the bounds: a problem, and nothing compared."""
    from .protobuf import bufyaml  # only directory mode: the package imports every protobuf rule

    found: set[str] = set()
    walked = 0
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        walked += len(dirs) + len(names)
        if walked > MAX_TREE_ENTRIES:
            problems.append(SchemaError(root, None, TOO_BIG.format(limit=MAX_TREE_ENTRIES)))
            return found
        # os.walk lists a linked directory without entering it: the files it would hold (and
        # any `$ref` or import through it) are not the tree's, so the tree is not all checked.
        for name in [name for name in dirs if os.path.islink(os.path.join(folder, name))]:
            problems.append(_refused(os.path.join(folder, name)))
            dirs.remove(name)
        for name in sorted(names):
            rel = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
            # Besides schema files: buf's layout files, which decide protobuf import roots.
            if not (name in bufyaml.NAMES or os.path.splitext(name)[1].lower() in EXTENSIONS
                    or classify(rel) is not None):
                continue
            if len(found) >= MAX_TREE_FILES:
                problems.append(SchemaError(root, None, TOO_MANY.format(limit=MAX_TREE_FILES)))
                return found
            if (refused := _refused(os.path.join(folder, name))) is not None:
                problems.append(refused)  # never opened: a FIFO would hang, a link leak
                continue
            found.add(rel)
    return found


def _moves(old_dir: str, new_dir: str, removed: list[str], added: list[str], old_files: dict,
           new_files: dict) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """(removed, added) pairs to compare as moves, and the removals that may have moved but are
    not known to (-> the addition that may be it). By shared type names first, each addition
    that took some of a removal's types; then, where either side has no name, by content."""
    def text(tree: str, rel: str) -> str | None:
        try:
            return read_regular(os.path.join(tree, rel), MAX_SCHEMA_BYTES).decode("utf-8", "replace")
        except SchemaError:
            return None

    gone = {rel: (old_files[rel][0], text(old_dir, rel)) for rel in removed}
    new = {rel: (new_files[rel][0], text(new_dir, rel)) for rel in added}
    names = {rel: likeness.identities(fmt, body) for rel, (fmt, body) in {**gone, **new}.items()}
    pairs = [(was, rel) for was in removed for rel in added
             if gone[was][0] is new[rel][0] and names[was] & names[rel]]
    paired = {rel for pair in pairs for rel in pair}
    weak = [(was, rel) for was in removed if was not in paired for rel in added
            if rel not in paired and gone[was][0] is new[rel][0] and not (names[was] and names[rel])]
    if len(weak) > likeness.MAX_COMPARISONS:  # too many to compare: none is known to have moved
        return pairs, dict(weak)
    compared = {rel for pair in weak for rel in pair}
    features = {rel: likeness.features(*side) for rel, side in {**gone, **new}.items()
                if rel in compared}  # each file parsed once, not once per pair
    unsure: dict[str, str] = {}
    for was, rel in weak:
        if likeness.similarity(features[was], features[rel]) >= likeness.SIMILAR:
            pairs.append((was, rel))
            paired.add(was)
        else:
            unsure.setdefault(was, rel)
    return pairs, {was: rel for was, rel in unsure.items() if was not in paired}


def _import_changed(old_dir: str, new_dir: str, files: set[str], every: dict,
                    proto_paths: tuple[str, ...]) -> bool:
    """Whether a file the trees' .proto files import, directly or through one another, that is
    no schema file of the walk (protoc imports any name: `import "types.inc";`) differs between
    the trees. Only paths inside the trees are read, bounded like every read."""
    from . import proto_imports

    pending = [rel for rel in sorted(files) if every.get(rel, (None,))[0] is Format.PROTOBUF]
    seen = set(pending)
    while pending and len(seen) <= MAX_TREE_FILES:
        rel = pending.pop()
        names = set()
        for tree in (old_dir, new_dir):
            try:
                names.update(proto_imports.imported(read_regular(os.path.join(tree, rel), MAX_SCHEMA_BYTES)))
            except SchemaError:
                continue
        for name in sorted(names):
            for root in ("", *proto_paths):
                path = os.path.normpath(os.path.join(root, name)).replace(os.sep, "/")
                if name.startswith(proto_imports.WELL_KNOWN) or os.path.isabs(path) \
                        or path.startswith("..") or path in seen:
                    continue
                if any(os.path.lexists(os.path.join(tree, path)) for tree in (old_dir, new_dir)):
                    if any(linked_parent(os.path.join(tree, path), tree) for tree in (old_dir, new_dir)) \
                            or _differs(old_dir, new_dir, path):  # a linked folder: not followed
                        return True
                    seen.add(path)
                    pending.append(path)
    return False


def _buf_layout(tree: str, files: set[str]):
    """The buf modules NEW's layout files declare (buf.yaml v1/v2 `modules`, buf.work.yaml,
    buf.gen.yaml), by paths relative to the tree, as the App reads a repository's. A file that
    cannot be read is left out (the layout notes why); a link was refused by the walk."""
    from .protobuf import bufyaml

    texts = {}
    for rel in sorted(files):
        if rel.rsplit("/", 1)[-1] not in bufyaml.NAMES:
            continue
        try:
            data = read_regular(os.path.join(tree, rel), bufyaml.MAX_BYTES)
        except SchemaError:
            continue
        texts[rel] = data.decode("utf-8", errors="replace")
    return bufyaml.layout(texts)


def _refused(path: str) -> Refused | None:
    """Why an entry is not read (a link, a FIFO, a device, ...), from lstat; None: a file."""
    try:
        why = refusal(os.lstat(path).st_mode)
    except OSError:
        return None  # gone since the walk: reading it says so
    return None if why is None else Refused(path, None, why)


def _classified(files: set[str], classify: Classify) -> dict[str, tuple[Format, Mode]]:
    """Relative path -> how it is checked, for the schema files among them."""
    return {rel: how for rel in sorted(files) if (how := classify(rel)) is not None}


def _differs(old_dir: str, new_dir: str, rel: str) -> bool:
    try:  # bounded like every read: a file swapped for a device since the walk stops here
        return (read_regular(os.path.join(old_dir, rel), MAX_SCHEMA_BYTES)
                != read_regular(os.path.join(new_dir, rel), MAX_SCHEMA_BYTES))
    except SchemaError:
        return True  # on one side only (added or removed), or unusable: read it to say why


def _roots(tree: str, proto_paths: tuple[str, ...]) -> tuple[str, ...]:
    """The tree itself is the first import root; --proto-path roots are inside each tree."""
    return (tree, *(os.path.join(tree, root) for root in proto_paths))


def _relative(file: str, *trees: str) -> str:
    for tree in trees:
        prefix = os.path.join(tree, "")
        if file.startswith(prefix):
            return file[len(prefix):]
    return file
