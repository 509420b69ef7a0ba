"""The spec's schema-resolution matches: promotions, named-type names, union branch pairing."""
from __future__ import annotations

from .schema import Named, Type

# writer type -> reader types that read it (Avro spec, "Schema Resolution")
PROMOTIONS = {
    "int": frozenset({"long", "float", "double"}),
    "long": frozenset({"float", "double"}),
    "float": frozenset({"double"}),
    "string": frozenset({"bytes"}),
    "bytes": frozenset({"string"}),
}


def promotes(writer: Type, reader: Type) -> bool:
    return reader.kind in PROMOTIONS.get(writer.kind, ())


def names_match(reader: Named, writer: Named) -> bool:
    """Same unqualified name, or the writer's full name among the reader's aliases."""
    return reader.name == writer.name or writer.fullname in reader.aliases


def matches(reader: Type, writer: Type) -> bool:
    """The spec's shallow "match" a reader union uses to pick the branch for a writer value."""
    if reader.kind != writer.kind:
        return promotes(writer, reader)
    if isinstance(reader, Named):
        return names_match(reader, writer)
    return True


def related(old: Type, new: Type) -> bool:
    """Same kind and, for named types, linked by name or by an alias in either direction."""
    if old.kind != new.kind:
        return False
    if isinstance(old, Named):
        return names_match(new, old) or names_match(old, new)
    return True


def pair_branches(old: tuple[Type, ...], new: tuple[Type, ...]):
    """Pair union branches: same type, then a promotion, then a lone renamed named type.

    Returns (matched pairs, old branches left over, new branches left over).
    """
    left_old, left_new, matched = list(old), list(new), []
    for fits in (related, _promoted, _renamed_alone(left_old, left_new)):
        for o in list(left_old):
            n = next((n for n in left_new if fits(o, n)), None)
            if n is not None:
                matched.append((o, n))
                left_old.remove(o)
                left_new.remove(n)
    return matched, left_old, left_new


def _promoted(old: Type, new: Type) -> bool:
    return promotes(old, new) or promotes(new, old)


def _renamed_alone(left_old: list, left_new: list):
    """A named branch whose kind is unique among the leftovers on both sides is a rename."""
    def fits(o: Type, n: Type) -> bool:
        return (isinstance(o, Named) and o.kind == n.kind
                and sum(b.kind == o.kind for b in left_old) == 1
                and sum(b.kind == n.kind for b in left_new) == 1)
    return fits
