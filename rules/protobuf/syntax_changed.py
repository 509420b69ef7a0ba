"""Flags a file whose `syntax` changed (proto2, proto3, editions; buf's PACKAGE and FILE categories).

The syntax decides how generated code treats every field: presence and has-accessors, default
values, open or closed enums, required fields. What that changes for payloads is reported field
by field (PROTO_FIELD_PRESENCE_CHANGED, PROTO_REQUIRED_FIELD_CHANGED, PROTO_FIELD_DEFAULT_CHANGED);
the switch itself changes the generated code of the whole file, in both directions (buf:
FILE_SAME_SYNTAX).

Example: `syntax = "proto2";` becomes `syntax = "proto3";`.

Fix: keep the syntax; write new messages in a new file with the new syntax.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity
from ..registry import RuleSpec
from .categories import CODE
from .pairs import Kind

IMPACT = ("code generated from the new file follows another syntax's rules (presence, defaults, "
          "enum openness), so code written against the old generated code behaves differently "
          "or stops compiling, and the other way round.")
SPEC = RuleSpec(id="PROTO_SYNTAX_CHANGED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="the file's syntax changed (PACKAGE, FILE)",
                impact=IMPACT, categories=CODE)
KINDS = (Kind.FILE,)
MESSAGE = 'The syntax changed from "{old}" to "{new}".'
SYNTAX = 12  # FileDescriptorProto.syntax: the statement's source path


def check(pair, ctx):
    old, new = pair.old.syntax, pair.new.syntax
    if old == new:
        return
    yield SPEC.finding(path="syntax", line=pair.new.index.get((SYNTAX,)).line or 1,
                       message=MESSAGE.format(old=old, new=new))
