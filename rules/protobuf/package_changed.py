"""Flags a change of the file's `package`.

Every message and enum of the file is known by its fully qualified name: `google.protobuf.Any`
type URLs, gRPC method paths (`/pkg.Service/Method`), schema registries and generated code all
carry the package. Renaming it makes every type a different type for those readers, in both
directions, even though the bytes of a message do not change (buf: FILE_SAME_PACKAGE).

Example: `package shop.v1;` becomes `package shop.orders.v1;`.

Fix: keep the package. To move types, add them under the new package alongside the old ones and
migrate readers before removing the old package.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity, Suggestion
from ..registry import RuleSpec
from .categories import ALL
from .pairs import Kind

IMPACT = ("every type's full name changes: generated code moves to another namespace (its "
          "users stop compiling), `Any` type URLs and registries naming the old types no longer "
          "resolve, and gRPC clients call service paths the server no longer serves.")
SPEC = RuleSpec(id="PROTO_PACKAGE_CHANGED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR, summary="the file's package changed",
                impact=IMPACT,
                categories=ALL)
KINDS = (Kind.FILE,)
MESSAGE = 'The package changed from "{old}" to "{new}".'
TITLE = 'Restore "package {old};"'
NONE = "(none)"


def check(pair, ctx):
    old, new = pair.old.package, pair.new.package
    if old == new:
        return
    yield SPEC.finding(path=new or old, line=pair.new.package_span.line or 1,
                       message=MESSAGE.format(old=old or NONE, new=new or NONE),
                       suggestion=_restore(pair.new, old, new))


def _restore(schema, old: str, new: str):
    """Only when the package has its own line and nothing spells out the new package name."""
    span = schema.package_span
    if not old or not new or not span.line or span.line != span.end_line:
        return None
    if any(f".{new}." in line or f" {new}." in line for line in schema.lines):
        return None
    text = schema.lines[span.line - 1]
    fixed = text.replace(f"package {new};", f"package {old};", 1)
    if fixed == text:
        return None
    return Suggestion(title=TITLE.format(old=old), line_start=span.line, line_end=span.line,
                      replacement=fixed)
