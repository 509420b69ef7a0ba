"""JSON Schema text -> Parsed: JSON with lines, the draft, meta-schema and pattern checks, refs."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

# At import, not when the first pattern is met: a worker near its memory limit cannot map an
# extension module, and would stop on an ImportError instead of reporting its memory budget.
import regress

from .. import jsontext
from ..limits import MAX_SCHEMA_BYTES
from ..model import SchemaError, Source
from ..sources import EMPTY
from ..textlines import file_lines
from . import drafts, keywords, outside
from .drafts import Draft
from .refs import Refs

TOO_LARGE = "file is {size:,} bytes, over the {limit:,}-byte limit for a schema"
NOT_OBJECT = "a JSON Schema must be an object or a boolean, not {kind}"
UNKNOWN_DRAFT = '"$schema" {uri!r} is not a JSON Schema draft this checker knows (04, 06, 07, 2019-09, 2020-12)'
INVALID = "not a valid {draft} JSON Schema: {problem} (at {where})"
BAD_PATTERN = 'pattern {pattern!r} is not a valid ECMA-262 regular expression: {problem}'
LATEST_NOTE = ('{file}: "$schema" {uri!r} names no draft; it was read as the latest draft, '
               '{draft}.')
MAX_PROBLEM = 200  # characters of a validator message kept: it can quote a whole subschema


@dataclass(frozen=True)
class Parsed:
    """One version of a JSON Schema, ready to be compared."""

    path: str
    lines: tuple[str, ...]  # the text, for suggestions that rewrite whole lines
    root: object
    draft: Draft
    refs: Refs
    notes: tuple[str, ...] = ()  # how the file was read, where that is a guess
    # (source, schema objects) of a file that names no `$schema`, to read it as 2020-12 too
    unnamed: tuple | None = field(default=None, compare=False, repr=False)


def parse(source: Source) -> Parsed:
    if len(source.text) > MAX_SCHEMA_BYTES:
        raise SchemaError(source.path, None,
                          TOO_LARGE.format(size=len(source.text), limit=MAX_SCHEMA_BYTES))
    if not source.text.strip():
        raise SchemaError(source.path, None, EMPTY)  # Sources built in memory skip sources.decode
    root = jsontext.loads(source.text, source.path)
    if not isinstance(root, (dict, bool)):
        raise SchemaError(source.path, 1, NOT_OBJECT.format(kind=type(root).__name__))
    draft = _draft(root, source.path)
    schemas = keywords.walk(root)
    _check_patterns(schemas, source.path)
    unnamed = (source, schemas) if isinstance(root, dict) and "$schema" not in root else None
    return _read(source, root, schemas, draft, unnamed)


def _read(source: Source, root, schemas: list, draft: Draft, unnamed: tuple | None = None) -> Parsed:
    _validate(schemas, draft, source.path)
    refs = Refs(root, draft, source.path, schemas, source.imports, source.withheld)
    refs.check_all()
    return Parsed(path=source.path, lines=tuple(file_lines(source.text)), root=root, draft=draft,
                  refs=refs, notes=_draft_notes(root, draft, source.path) + outside.notes(refs),
                  unnamed=unnamed)


def as_latest(parsed: Parsed) -> Parsed | None:
    """A file that names no draft, read as the latest one (2020-12, what Python's `jsonschema`
    assumes, where Confluent and ajv assume draft-07); itself where it names one; None where
    that reading refuses it (a draft-07 tuple `items`: no such validator can use the file)."""
    if parsed.unnamed is None:
        return parsed
    source, schemas = parsed.unnamed
    try:
        return _read(source, parsed.root, schemas, drafts.LATEST)
    except SchemaError:
        return None


def _draft(root: object, file: str) -> Draft:
    uri = root.get("$schema") if isinstance(root, dict) else None
    if uri is None:
        return drafts.DEFAULT
    draft = drafts.URIS.get(drafts.normalise(uri)) if isinstance(uri, str) else None
    if isinstance(uri, str) and drafts.normalise(uri) == drafts.LATEST_URI:
        draft = drafts.LATEST
    if draft is None:
        raise SchemaError(file, root.key_line("$schema"), UNKNOWN_DRAFT.format(uri=uri))
    return draft


def _draft_notes(root: object, draft: Draft, file: str) -> tuple[str, ...]:
    uri = root.get("$schema") if isinstance(root, dict) else None
    if isinstance(uri, str) and drafts.normalise(uri) == drafts.LATEST_URI:
        return (LATEST_NOTE.format(file=file, uri=uri, draft=draft.value),)
    return ()


def _validate(schemas: list, draft: Draft, file: str) -> None:
    """Validate every schema object against the draft's meta-schema, one level at a time.

    Each object is checked with its subschemas replaced by `{}` (they get their own turn) and
    its maps of subschemas cut to one entry per distinct value (keywords.one_of_each: the
    verdict is the same), and objects that then look alike are checked once: real contracts
    repeat the same shapes thousands of times, and whole-document validation costs ~1 s per MB.
    A refused object is validated whole again, so the error names what it always named.
    Formats are not asserted: "regex" would mean Python's `re` (see _check_patterns).
    """
    cls = drafts.validator_class(draft)
    meta = cls(cls.META_SCHEMA)
    checked: set[str] = set()
    for node in schemas:
        if not isinstance(node, dict):
            continue
        shallow = keywords.shallow(node)
        alike = keywords.one_of_each(shallow)
        key = repr(alike)  # alike objects (same keys in the same order) are validated once
        if key in checked:
            continue
        checked.add(key)
        error = next(iter(meta.iter_errors(alike)), None)
        if error is not None:
            raise _invalid(next(iter(meta.iter_errors(shallow)), error), node, draft, file)


def _invalid(error, node: dict, draft: Draft, file: str) -> SchemaError:
    steps = list(error.absolute_path)
    problem = error.message if len(error.message) <= MAX_PROBLEM else error.message[:MAX_PROBLEM] + "..."
    where = "/".join(str(step) for step in steps) or "the schema object"
    return SchemaError(file, _line_of(node, deque(steps)),
                       INVALID.format(draft=draft.value, problem=problem, where=where))


def _line_of(node: object, steps: deque) -> int | None:
    line = getattr(node, "line", None)
    while steps:
        step = steps.popleft()
        if isinstance(node, dict) and step in node:
            line, node = node.key_line(step), node[step]
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
            line = getattr(node, "line", line)
        else:
            break
    return line


def _check_patterns(schemas: list, file: str) -> None:
    """`pattern` and `patternProperties` are ECMA-262 regexes: compile them as such."""
    for schema in schemas:
        if not isinstance(schema, dict):
            continue
        # Lines only for the objects that have a pattern: working one out reads the text.
        found = [(schema["pattern"], schema.key_line("pattern"))] if "pattern" in schema else []
        props = schema.get("patternProperties")
        if isinstance(props, dict):
            found += [(key, props.key_line(key)) for key in props]
        for pattern, line in found:
            if not isinstance(pattern, str):
                continue
            try:
                regress.Regex(pattern)
            except regress.RegressError as error:
                raise SchemaError(file, line, BAD_PATTERN.format(pattern=pattern, problem=error)) from None
