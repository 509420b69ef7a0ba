"""An alternative split in two by a `not` that another side's alternative puts on a property."""
from __future__ import annotations

from typing import Iterator

from .drafts import ALL_REFERENCES
from .flat import Flat
from .keywords import ANNOTATIONS

MAX_SPLITS = 4  # negated schemas tried per alternative (each split costs two comparisons)


def splits(source: Flat, targets: list[Flat]) -> Iterator[tuple[Flat, Flat]]:
    """(`source` holding the property with a value the negated schema accepts, `source` with
    the property absent or holding any other value) for each property a target declares as
    `{"not": S}` alone: the two halves hold every value `source` holds, whatever S says
    (`"type": {"not": {"enum": ["project"]}}` in one target, `"enum": ["project"]` in another)."""
    tried = 0
    for target in targets:
        for name, schemas in target.props.items():
            for node in schemas:
                negated = _negated(node)
                if negated is None or tried >= MAX_SPLITS:
                    continue
                tried += 1
                inside = Flat(line=source.line, required={name: source.line}, props={name: (negated,)},
                              sources=(id(negated),))
                outside = Flat(line=source.line, props={name: (node,)}, sources=(id(node),))
                yield source.merge(inside).finish(), source.merge(outside).finish()


def _negated(node: object) -> object | None:
    """S of a schema that says `"not": S` and nothing else (annotations aside), when S holds
    no reference (it is read beside the other side's schema, whose references differ)."""
    if not isinstance(node, dict) or "not" not in node or set(node) - ANNOTATIONS != {"not"}:
        return None
    return None if _refers(node["not"]) else node["not"]


def _refers(node: object) -> bool:
    if isinstance(node, dict):
        return any(key in ALL_REFERENCES or _refers(value) for key, value in node.items())
    if isinstance(node, list):
        return any(_refers(value) for value in node)
    return False
