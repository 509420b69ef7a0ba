"""A bounded walk over every object of a parsed JSON document, each with its enclosing context."""
from __future__ import annotations

from typing import Callable, Iterator, TypeVar

Context = TypeVar("Context")
# Objects visited at most: a hostile document's size cannot stall the review.
MAX_NODES = 200_000


def objects(document: object, context: Context,
            inner: Callable[[dict, Context], Context]) -> Iterator[tuple[dict, Context]]:
    """(object, its context) for each object, lists looked through; `inner` gives the context
    of an object's children."""
    stack: list[tuple[object, Context]] = [(document, context)]
    budget = MAX_NODES
    while stack and budget:
        budget -= 1
        value, context = stack.pop()
        if isinstance(value, list):
            stack.extend((item, context) for item in value)
        if not isinstance(value, dict):
            continue
        yield value, context
        below = inner(value, context)
        stack.extend((child, below) for child in value.values())
