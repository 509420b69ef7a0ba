"""One comparison's state: both documents, the options, memoised trial comparisons, the runner."""
from __future__ import annotations

import dataclasses
from typing import Iterable, Iterator

from ..model import Direction, Finding, Options, Policy, SchemaError
from . import content, pairs, paths
from .flatten import Flattener
from .parse import Parsed

TOO_COMPLEX = "schema is nested too deeply to compare"
FLIP = {Direction.BACKWARD: Direction.FORWARD, Direction.FORWARD: Direction.BACKWARD}


class Context:
    def __init__(self, old: Parsed, new: Parsed, options: Options, rules: Iterable,
                 outside: frozenset[str] = frozenset()):
        self.old, self.new, self.options = old, new, options
        self.outside = outside  # references to documents outside the repository (outside.opaque)
        self.old_flats, self.new_flats = Flattener(old), Flattener(new)
        self._by_pair: dict[type, list] = {}
        for module in rules:
            self._by_pair.setdefault(module.PAIR, []).append(module)
        self._spec_breaks = {module.SPEC.id: module.SPEC.breaks for module in rules}
        self._trials: dict[tuple, list[Finding]] = {}
        self._comparing: set[tuple] = set()  # alternative pairs being compared, by what they say
        self._rules = tuple(rules)
        self._within_old: Context | None = None
        self._strict_twin: Context | None = None
        self.memo: dict = {}  # answers helpers worked out once per comparison
        self.cuts = 0  # walks stopped at a pair already being compared (recursion)
        self._lenient_decided = False  # the lenient policy's assumption decided a case here

    def lenient_assumes(self, holds: bool) -> bool:
        """Whether the lenient policy's assumption (producers write no name the schema leaves
        undeclared) settles a case: `holds` under lenient, never under strict. Recorded when it
        does, so the policy is named only where it made a difference."""
        if holds and not self.strict:
            self._lenient_decided = True
            return True
        return False

    @property
    def lenient_decided(self) -> bool:
        """Whether the lenient assumption settled a case of this comparison (or of the old
        document's comparison with itself, which decides what old data may hold)."""
        return self._lenient_decided or (self._within_old is not None
                                         and self._within_old.lenient_decided)

    @property
    def strict(self) -> bool:
        return self.options.policy is Policy.STRICT

    def findings(self) -> Iterator[Finding]:
        root = paths.root(self.new.root)
        lines = (getattr(self.old.root, "line", 1), getattr(self.new.root, "line", 1))
        try:
            yield from self.run((self.old.root,), (self.new.root,), root, lines, set())
        except RecursionError:
            raise SchemaError(self.new.path, None, TOO_COMPLEX) from None

    def run(self, old: tuple, new: tuple, path: str, lines: tuple, seen: set, depth: int = 0):
        return self._check(pairs.walk(self, old, new, path, lines, seen, depth))

    def run_flat(self, old, new, path: str, seen: set, depth: int, siblings: tuple = ()):
        return self._check(pairs.flat_pairs(self, old, new, path, seen, depth, siblings=siblings))

    def run_alternatives(self, olds: list, news: list, path: str, seen: set, depth: int):
        return self._check(pairs.alternatives(self, olds, news, path, seen, depth))

    def check(self, items) -> Iterator[Finding]:
        """The findings of walked pairs (and of findings already made, as they are)."""
        return self._check(items)

    def _check(self, items) -> Iterator[Finding]:
        for item in items:
            if isinstance(item, Finding):
                yield item
                continue
            for module in self._by_pair.get(type(item), ()):
                yield from module.check(item, self)

    def within_old(self) -> "Context":
        """The old document compared with itself: which old alternative contains another."""
        if self._within_old is None:
            self._within_old = Context(self.old, self.old, self.options, self._rules)
        return self._within_old

    def strict_twin(self) -> "Context":
        """This comparison under the strict policy (itself when it already is)."""
        if self.strict:
            return self
        if self._strict_twin is None:
            options = dataclasses.replace(self.options, policy=Policy.STRICT)
            self._strict_twin = Context(self.old, self.new, options, self._rules, self.outside)
        return self._strict_twin

    def breaks_of(self, finding: Finding) -> frozenset[Direction]:
        return self._spec_breaks[finding.rule] if finding.breaks is None else finding.breaks

    def flipped(self, found: Iterable[Finding]) -> Iterator[Finding]:
        for finding in found:
            flip = frozenset(FLIP[d] for d in self.breaks_of(finding))
            yield dataclasses.replace(finding, breaks=flip)

    def both_ways(self, found: Iterable[Finding]) -> Iterator[Finding]:
        """Findings where any change breaks: in its own direction and the reverse one."""
        for finding in found:
            breaks = self.breaks_of(finding)
            yield dataclasses.replace(finding, breaks=breaks | frozenset(FLIP[d] for d in breaks))

    def trial_findings(self, old, new) -> list[Finding]:
        """Findings for two alternatives on their own (memoised; a revisit counts as equal)."""
        # By what the two say: the same definition reached along two paths is compared once.
        key = (old.identity, new.identity)
        if key not in self._trials:
            # Recursive definitions rebuild the same alternative (another line, another Flat):
            # a pair already being compared is assumed compatible (coinduction), as revisits are.
            facts = (_facts(old), _facts(new))
            if facts in self._comparing:
                return []
            # The pair is kept alive with its result, so its ids cannot be reused by others.
            self._trials[key] = (old, new, [])  # while computing: a revisit counts as equal
            self._comparing.add(facts)
            try:
                self._trials[key] = (old, new, list(self.run_flat(old, new, "", pairs.Seen(), 0)))
            finally:
                self._comparing.discard(facts)
        return self._trials[key][2]

    def trial(self, old, new) -> frozenset[Direction]:
        """Directions in which two alternatives (Flats) are incompatible."""
        return frozenset(d for f in self.trial_findings(old, new) for d in self.breaks_of(f))

    def breaks(self, old: tuple, new: tuple, lines: tuple = (1, 1)) -> frozenset[Direction]:
        """Directions in which two schemas (tuples of raw nodes) are incompatible."""
        # `false` accepts nothing: no data was written under it (nothing to read), and every
        # value written under the other side is rejected by it (unless that side is `false` too).
        old_none, new_none = content.is_closed(old), content.is_closed(new)
        if old_none or new_none:
            return frozenset() if old_none and new_none else frozenset(
                {Direction.FORWARD} if old_none else {Direction.BACKWARD})
        return frozenset(d for f in self.schema_findings(old, new, lines) for d in self.breaks_of(f))

    def schema_findings(self, old: tuple, new: tuple, lines: tuple = (1, 1)) -> list[Finding]:
        """Findings for two schemas (tuples of raw nodes) on their own (memoised)."""
        key = (tuple(map(id, old)), tuple(map(id, new)), "schemas")
        if key not in self._trials:
            self._trials[key] = (old, new, [])
            self._trials[key] = (old, new, list(self.run(old, new, "", lines, set())))
        return self._trials[key][2]


def _facts(flat) -> tuple:
    """What identifies an alternative whatever line it was reached from: its schema objects."""
    return (flat.label, flat.types, tuple(sorted((k, id(h)) for k, h in flat.holders.items())),
            flat.externals, None if flat.enum is None else frozenset(flat.enum))
