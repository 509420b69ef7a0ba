"""Whether a subschema of the old document and one of the new are the same schema.

Equal JSON, with each `$ref` that both spell alike followed on both sides (the definition it
points at may have changed while the reference did not). Sound, not complete: annotations
count as differences, and a reference outside the file, a dangling one or a comparison over
budget means "not shown the same".
"""
from __future__ import annotations

from ..model import SchemaError
from .refs import External

MAX_NODES = 20_000  # JSON values compared per question: a huge definition stays "not shown"


class _OverBudget(Exception):
    pass


def same(ctx, old: object, new: object) -> bool:
    if ctx.old.draft is not ctx.new.draft:
        return False  # the same text read by two drafts: each reads its own keywords
    key = ("untouched", id(old), id(new))
    if key not in ctx.memo:
        try:
            result = _Comparison(ctx).equal(old, new)
        except (_OverBudget, SchemaError):
            result = False
        ctx.memo[key] = (old, new, result)  # the nodes are kept alive, so their ids stay theirs
    return ctx.memo[key][2]


class _Comparison:
    def __init__(self, ctx):
        self.ctx = ctx
        self.nodes = 0
        self.assumed: set[tuple[int, int]] = set()  # reference targets being compared

    def equal(self, old: object, new: object) -> bool:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _OverBudget
        if isinstance(old, dict) and isinstance(new, dict):
            return old.keys() == new.keys() and all(self.equal(old[k], new[k]) for k in old) \
                and self._targets(old, new)
        if isinstance(old, list) and isinstance(new, list):
            return len(old) == len(new) and all(map(self.equal, old, new))
        return type(old) is type(new) and old == new

    def _targets(self, old: dict, new: dict) -> bool:
        if not isinstance(old.get("$ref"), str):
            return True
        old_target, new_target = self.ctx.old.refs.target(old), self.ctx.new.refs.target(new)
        if isinstance(old_target, External) or isinstance(new_target, External):
            return False  # another file's content is not at hand to compare
        pair = (id(old_target), id(new_target))
        if pair in self.assumed:
            return True  # a recursive definition: equal unless some other part differs
        self.assumed.add(pair)
        return self.equal(old_target, new_target)
