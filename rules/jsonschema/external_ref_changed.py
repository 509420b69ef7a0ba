"""Flags a change at a `$ref` whose target was not read: it is not known to be compatible.

A `$ref` to an absolute URI that no schema file of either version declares points outside the
repository (a public schema by URL). Nothing is fetched, so its target is opaque: the identical
reference on both sides is unchanged (the rest of the schema there is compared as usual), and
anything else at that place (another URI, a schema where the reference was, a reference where a
constraint was) is an error in the directions the unread target leaves open. A new property
whose schema is such a reference is judged like any added property (JSONSCHEMA_PROPERTY_ADDED):
under the lenient policy it does not constrain old data. A conditional whose `then`/`else` gained
such a reference is reported here too (by JSONSCHEMA_CONDITION_CHANGED's module). Every run notes
the references it did not read.

The same rule warns (advisory) where the base's own `$ref` does not resolve (a missing file,
`$id` or pointer): no validator could use the base there, so what the head has there was not
checked, and the pull request that repairs it is not blocked.

Example: `{"$ref": "https://example.com/address-v1.json"}` became
`{"$ref": "https://example.com/address-v2.json"}`.

Fix: check the two targets' compatibility yourself (or vendor them into the repository, where
they are compared), then override the check.
"""
from ..model import ADVISORY, BOTH_DIRECTIONS, Direction, Format, Severity
from ..registry import RuleSpec
from .flat import anything
from .pairs import UncheckedPair

SPEC = RuleSpec(id="JSONSCHEMA_EXTERNAL_REF_CHANGED", format=Format.JSONSCHEMA, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="a `$ref` whose target was not read changed: not known to be compatible",
                impact=("The reference's target was not read, so whether readers on either side "
                        "accept the other's data is not known."))
PAIR = UncheckedPair
MESSAGE = ('A $ref at "{path}" points outside the repository and was not read, so this change is '
           'not known to be compatible: it was {old}, it is {new}.')
BASE_UNRESOLVED = ('The base\'s $ref {old} of "{path}" does not resolve, so what the head has there was '
                   'not checked.')


def check(pair: UncheckedPair, ctx):
    if pair.unresolved:
        yield SPEC.finding(path=pair.path, line=pair.line, breaks=ADVISORY, severity=Severity.WARNING,
                           message=BASE_UNRESOLVED.format(path=pair.path, old=_listed(pair.unresolved)))
        return
    breaks = frozenset(direction for direction, reader in ((Direction.BACKWARD, pair.new),
                                                           (Direction.FORWARD, pair.old))
                       if not _accepts_everything(ctx, reader))
    if breaks:
        yield SPEC.finding(path=pair.path, line=pair.line, breaks=breaks,
                           message=MESSAGE.format(path=pair.path, old=_shown(ctx.old, pair.old),
                                                  new=_shown(ctx.new, pair.new)))


def _accepts_everything(ctx, reader) -> bool:
    """A reader without unread references that accepts any value reads the other side's data
    whatever the unread target holds."""
    return not reader.externals and Direction.BACKWARD not in ctx.trial(anything(reader.line), reader)


def _listed(refs) -> str:
    return ", ".join(f'"{ref}"' for ref in sorted(refs))


def _shown(parsed, flat) -> str:
    """The reference(s) one side has there, naming the file each sits in when it is not the
    checked one (a referenced file of the set); else "a schema"."""
    if not flat.externals:
        return "a schema"
    return ", ".join(f'"{ref}"{_where(parsed, ref)}' for ref in sorted(flat.externals))


def _where(parsed, ref: str) -> str:
    error = parsed.refs.elsewhere.get(ref)
    return "" if error is None or error.file == parsed.path else f" (in {error.file})"
