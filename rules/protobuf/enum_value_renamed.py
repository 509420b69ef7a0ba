"""Flags an enum value number whose name in JSON changed: renamed, or another name put first.

Binary payloads carry only the number, so the change is wire-safe; JSON payloads carry a name,
and generated code names it. A JSON writer emits a number's first-declared name (descriptors
find a value by number as the first one defined), and a parser takes any of the number's names
(aliases, with `option allow_alias = true;`). So JSON breaks backward when the old first name is
no name of the number in the new enum (old JSON is refused), and forward when the new first
name is no name of it in the old one (new JSON is refused). A rename breaks both ways; removing
the first name of an aliased number (`ACTIVE = 1; ENABLED = 1;` to `ENABLED = 1;`) breaks
backward; an alias declared before the first name (`ACTIVE = 1;` to `ENABLED = 1; ACTIVE = 1;`)
breaks forward, though buf's ENUM_VALUE_SAME_NAME accepts it (the runtime's instances:
tests/rules/protobuf/test_enum_alias_runtime.py). An alias after the first name may come and
go without a finding, as no runtime writes it; buf reports one removed (JSON written by hand
with that name is refused, and generated code loses the constant). An error in buf's WIRE_JSON,
PACKAGE and FILE categories (WIRE_JSON is the default); with WIRE alone, a lost name is a
warning (generated code) and a new first name is not reported.

Example: `STATUS_INACTIVE = 1;` becomes `STATUS_DISABLED = 1;`.

Fix: keep the old name, and first; a new name goes after it, as an alias.
"""
from ..model import BACKWARD_ONLY, BOTH_DIRECTIONS, FORWARD_ONLY, Format, Severity
from ..registry import RuleSpec
from .categories import JSON
from .pairs import Kind

IMPACT = ("binary data is unaffected (it carries numbers). JSON payloads carry the number's "
          "first-declared name, so a reader of one version rejects the other's; generated code "
          "that names a lost value stops compiling.")
SPEC = RuleSpec(id="PROTO_ENUM_VALUE_RENAMED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="an enum number's name in JSON changed (renamed, or an alias put first)",
                impact=IMPACT, categories=JSON, outside=Severity.WARNING)
KINDS = (Kind.ENUM_VALUE,)
MESSAGE = 'Enum value "{old_path}" (number {number}) was renamed to "{new}".'
JSON_NAME = ' JSON payloads carry the name: "{old}" is unknown to the new version and "{new}" to the old.'
FIRST_REMOVED = ('Enum value "{old_path}" (number {number}) was removed; its alias "{new}" now '
                 'names the number first.')
FIRST_ADDED = ('Enum value "{new_path}" (number {number}) was declared before "{old}", which '
               'named the number first.')
WRITERS = " JSON writers emit a number's first-declared name: "
OLD_JSON = 'old JSON carries "{old}" for {number}, which the new version does not read as {number}.'
NEW_JSON = 'new JSON carries "{new}" for {number}, which the old version does not read as {number}.'


def check(pair, ctx):
    if pair.old is None or pair.new is None:
        return
    number = pair.new.number
    lost = pair.old.name not in {v.name for v in pair.new_parent.by_number[number]}
    unknown = pair.new.name not in {v.name for v in pair.old_parent.by_number[number]}
    names = {"old": pair.old.name, "new": pair.new.name, "number": number,
             "old_path": pair.old_path, "new_path": pair.path}
    if lost and unknown:
        message, tail, breaks = MESSAGE, JSON_NAME, BOTH_DIRECTIONS
    elif lost:  # generated code no longer has the old name: both ways, where code is checked
        message, tail = FIRST_REMOVED, WRITERS + OLD_JSON
        breaks = BOTH_DIRECTIONS if ctx.code else BACKWARD_ONLY
    elif ctx.json:  # no name is lost: only JSON changed
        message, tail, breaks = FIRST_ADDED, WRITERS + NEW_JSON, FORWARD_ONLY
    else:
        return
    message = message.format(**names) + (tail.format(**names) if ctx.json else "")
    line, side = pair.where()
    yield SPEC.finding(path=pair.path, line=line, side=side, message=message, breaks=breaks)
