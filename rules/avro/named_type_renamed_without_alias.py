"""Flags a record, enum or fixed type renamed without its old name in the new type's `aliases`.

Avro matches named types by unqualified name, or by a reader alias naming the writer's full name
(short aliases are qualified with the type's namespace). A namespace-only change keeps the
unqualified name and is compatible, so it is not reported.

Why it breaks: a new reader meets old data of a type it does not know by that name
("NAME_MISMATCH"), so **backward** compatibility breaks; old readers do not know the new name
either, so **forward** breaks too unless the old type already listed it as an alias.

Example: OLD `{"type": "record", "name": "Customer", ...}`, NEW `{"type": "record", "name":
"Client", ...}` -> `Type "Customer" was renamed to "Client" without an alias.`

Fix: add the old name to the new type's aliases: `"aliases": ["Customer"]` (the suggestion
inserts it, fully qualified when the namespaces differ).
"""
from ..model import BOTH_DIRECTIONS, Direction, Format, Severity
from ..registry import RuleSpec
from . import suggest
from .pairs import TypePair
from .resolution import names_match
from .schema import Named

SPEC = RuleSpec(id="AVRO_NAMED_TYPE_RENAMED_WITHOUT_ALIAS", format=Format.AVRO, breaks=BOTH_DIRECTIONS,
                severity=Severity.ERROR,
                summary="A named type was renamed without an alias.")
PAIR = TypePair
MESSAGE = 'Type "{old}" was renamed to "{new}" without an alias.'
TITLE = 'Add "{alias}" to the aliases of "{name}"'


def check(pair: TypePair, ctx):
    old, new = pair.old, pair.new
    if not (isinstance(old, Named) and isinstance(new, Named)) or old.kind != new.kind:
        return
    if names_match(new, old):
        return
    breaks = {Direction.BACKWARD} | (set() if names_match(old, new) else {Direction.FORWARD})
    yield SPEC.finding(path=pair.path, line=pair.line, breaks=frozenset(breaks),
                       message=MESSAGE.format(old=old.fullname, new=new.fullname),
                       suggestion=_alias(old, new, ctx))


def _alias(old: Named, new: Named, ctx):
    if old.namespace == new.namespace:
        alias = old.name
    elif old.namespace:
        alias = old.fullname
    else:
        return None  # a short alias would be qualified with the new namespace: no way to say it
    existing = list(new.node.get("aliases", []))
    anchor = "aliases" if "aliases" in new.node else "name"
    return suggest.set_keys(ctx.new, new.node, anchor, {"aliases": [*existing, alias]},
                            TITLE.format(alias=alias, name=new.label))
