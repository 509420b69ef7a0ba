"""Flags a file option that shapes generated code (go_package, java_package, ...) changing value.

`option go_package`, `java_package`, `csharp_namespace`, `java_outer_classname`,
`java_multiple_files`, `objc_class_prefix`, `php_*`, `ruby_package`, `swift_prefix` name the
package, namespace or class generated code lives in; `optimize_for`, `cc_enable_arenas` and the
`*_generic_services` options decide what is generated. Payloads do not change, but code written
against one version's generated classes stops compiling against the other's, in both
directions (buf's FILE and PACKAGE categories: FILE_SAME_GO_PACKAGE, FILE_SAME_JAVA_PACKAGE, ...,
one id per option). An option written out at its default value (`java_multiple_files = false`)
is no change.

Example: `option go_package = "example.com/shop/v1;shopv1";` becomes `".../orders/v1;ordersv1"`.

Fix: restore the old value (the suggestion does), or publish the new layout as a new package.
"""
from ..model import BOTH_DIRECTIONS, Format, Severity, Suggestion
from ..registry import RuleSpec
from .categories import CODE
from .descriptors import STRING, VIEW
from .pairs import Kind
from .suggest import add_after, replace_statement
from .syntax_changed import SYNTAX  # the `syntax = ...;` statement's source path

IMPACT = ("no payload changes. Code generated from the new file lives in another package, "
          "namespace or class (or is generated differently), so code written against the old "
          "generated code stops compiling, and the other way round.")
SPEC = RuleSpec(id="PROTO_FILE_OPTION_CHANGED", format=Format.PROTOBUF, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="a file option naming or shaping generated code changed (PACKAGE, FILE)",
                impact=IMPACT, categories=CODE)
KINDS = (Kind.FILE,)
MESSAGE = 'File option "{name}" changed from "{old}" to "{new}".'
TITLE = "Restore `option {name} = {value};`"
REMOVE = "Remove `option {name}` (the old file left it at its default)"
OPTIONS = 8  # FileDescriptorProto.options: source paths (8, <FileOptions field number>)
# FileOptions field numbers (for each option's source location), and which ones are strings.
NUMBERS = {name: number for name, number, *_ in VIEW["FileOptions"]}
STRINGS = frozenset(name for name, _number, kind, *_ in VIEW["FileOptions"] if kind == STRING)


def check(pair, ctx):
    old, new = pair.old.file_options, pair.new.file_options
    for name, value in new.items():
        if old.get(name, value) == value or not ctx.buf_checks(f"FILE_SAME_{name.upper()}"):
            continue  # unchanged, or its buf id left out of the buf.yaml's selection
        path = (OPTIONS, NUMBERS[name])
        span = pair.new.index.get(path)
        written = bool(pair.old.index.get(path).line)  # else OLD had the default
        yield SPEC.finding(path=f"option {name}", line=span.line or pair.new.package_span.line or 1,
                           message=MESSAGE.format(name=name, old=old[name], new=value),
                           suggestion=_restore(pair.new, name, old[name], span, written))


def _literal(name: str, value: str) -> str | None:
    """The value as the .proto file spells it; None when it would need escapes beyond quotes."""
    if name not in STRINGS:
        return value  # true/false, or an optimize_for value name
    if any(ord(char) < 0x20 or char == "\x7f" for char in value):
        return None
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _restore(schema, name: str, old: str, span, written: bool) -> Suggestion | None:
    """Rewrite the option's own statement (drop it when OLD left the option out), or add it
    after the package (or syntax) line."""
    if not written:
        return replace_statement(schema, span, "", REMOVE.format(name=name))
    literal = _literal(name, old)
    if literal is None:
        return None
    statement, title = f"option {name} = {literal};", TITLE.format(name=name, value=literal)
    if span.line:
        return replace_statement(schema, span, statement, title)
    after = schema.package_span if schema.package_span.line else schema.index.get((SYNTAX,))
    return add_after(schema, after, statement, title)
