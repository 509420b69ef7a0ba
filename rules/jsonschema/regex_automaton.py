"""Whether every string some ECMA-262 `pattern`s all accept is accepted by others, by automata.

JSON Schema searches a pattern anywhere in a string, so a pattern's language is Σ* R Σ*, with
`^` and `$` as assertions at the ends of the input (patterns have no flags). Modelled: characters
and classes, `.`, groups, alternation, repeats, `^`, `$`, and lookaheads right after a leading
`^` (`^(?!.*(local|meta)).*$`), each of which is one more language to intersect or subtract.
Anything else (back-references, lookbehinds, `\\b`, a lookahead elsewhere) is undecided.

The subset construction runs on the fly over the product of all the patterns' automata, breadth
first, within MAX_SUBSETS, MAX_STATES and MAX_MOVES: it ends with a proof (no string escapes), a string the first side
accepts and the second rejects (checked by the real engine before it is believed), or undecided.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from . import content, regex_cover

MAX_NFA_STATES = 4_000  # per pattern, with bounded repeats spelled out
MAX_SUBSETS = 1_000  # deterministic states per pattern
MAX_STATES = 3_000  # product states explored per question
MAX_MOVES = 60_000  # product transitions followed per question (about 0.1 s)
BEGIN, END = "AT_BEGINNING", "AT_END"
READABLE = "a0A_-. bzZ9"  # a witness uses these where the class allows, in this order
SURROGATES = (0xD800, 0xDFFF)  # not text on their own: never part of a witness


class _Undecided(Exception):
    pass


@dataclass(frozen=True)
class Verdict:
    contained: bool  # proven: no string escapes
    witness: str | None = None  # accepted by the first side, rejected by the second


UNDECIDED = Verdict(False)
# A pattern no string matches: `escape(patterns, NOTHING)` looks for a string they all match.
NOTHING = frozenset({"[^\\s\\S]"})


def escape(accepting: frozenset, rejecting: frozenset) -> Verdict:
    """Is there a string every pattern of `accepting` finds a match in and some pattern of
    `rejecting` does not? (The patterns of one side all hold: JSON Schema's allOf.)"""
    if rejecting <= accepting:
        return Verdict(True)  # every pattern that must reject already had to match
    try:
        return _escape(tuple(sorted(accepting)), tuple(sorted(rejecting)))
    except (_Undecided, RecursionError):
        return UNDECIDED


def common(patterns: frozenset) -> str | None:
    """A shortest string every pattern finds a match in (checked by the engine), or None when
    none exists or the search is undecided."""
    return escape(patterns, NOTHING).witness


@lru_cache(maxsize=4096)
def _escape(accepting: tuple, rejecting: tuple) -> Verdict:
    shapes = {pattern: _components(pattern) for pattern in accepting + rejecting}
    atoms = _atoms([item for parts in shapes.values() for _sign, seq in parts for item in _sets(seq)])
    first = [(_Automaton(seq, atoms), sign) for p in accepting for sign, seq in shapes[p]]
    second = [[(_Automaton(seq, atoms), sign) for sign, seq in shapes[p]] for p in rejecting]
    found = _search(first, second, atoms)
    if found is None:
        return Verdict(True)
    text = "".join(found)
    if all(content.find(p, text) for p in accepting) and not all(content.find(p, text) for p in rejecting):
        return Verdict(False, text)
    return UNDECIDED  # the model and the engine disagree on this string: believe neither


def _components(pattern: str) -> list[tuple[bool, tuple]]:
    """(must hold, sequence): the pattern, and its leading lookaheads as languages of their own."""
    seq = regex_cover.shape(pattern)
    if seq is None:
        raise _Undecided
    if not seq or seq[0] != ("at", BEGIN):
        return [(True, seq)]
    parts, rest = [], list(seq[1:])
    while rest and rest[0][0] == "look":
        _, positive, body = rest.pop(0)
        parts.append((positive, (("at", BEGIN), *body)))
    return parts + [(True, (("at", BEGIN), *rest))]


def _sets(seq: tuple):
    for item in seq:
        if item[0] == "set":
            yield item[1]
        elif item[0] == "rep":
            yield from _sets(item[3])
        elif item[0] == "alt":
            for branch in item[1]:
                yield from _sets(branch)
        elif item[0] == "look":
            yield from _sets(item[2])


def _atoms(classes: list) -> list[tuple[int, int]]:
    """The alphabet cut into intervals no class splits, readable ones first, surrogates out."""
    cuts = {0, regex_cover.TOP + 1}
    for ranges in classes:
        for lo, hi in ranges:
            cuts.update((lo, hi + 1))
    edges = sorted(cuts)
    atoms = [(lo, hi - 1) for lo, hi in zip(edges, edges[1:])
             if not (SURROGATES[0] <= lo and hi - 1 <= SURROGATES[1])]
    return sorted(atoms, key=lambda atom: _rank(atom))


def _rank(atom: tuple[int, int]) -> int:
    return next((i for i, ch in enumerate(READABLE) if atom[0] <= ord(ch) <= atom[1]), len(READABLE))


def _char(atom: tuple[int, int]) -> str:
    readable = [ch for ch in READABLE if atom[0] <= ord(ch) <= atom[1]]
    if readable:
        return readable[0]
    code = atom[0] if not SURROGATES[0] <= atom[0] <= SURROGATES[1] else SURROGATES[1] + 1
    return chr(code)


class _Automaton:
    """A search for one sequence as an NFA, determinised lazily: subset ids and their moves."""

    def __init__(self, seq: tuple, atoms: list):
        self.atoms = atoms
        self._by_start = sorted(range(len(atoms)), key=lambda i: atoms[i][0])
        self._starts = [atoms[i][0] for i in self._by_start]
        self.eps: list[list[int]] = []
        self.moves: list[list[tuple]] = []  # (atom indexes, target)
        self.anchor: list[list[tuple[str, int]]] = []
        start, anywhere = self._state(), (("rep", 0, regex_cover.INF, (("set", regex_cover.ALL),)),)
        self.final = self._build(anywhere + seq + anywhere, start)
        self.live = self._live()
        self._ids: dict = {}
        self.subsets: list[frozenset] = []
        self.accepting: list[bool] = []
        self._next: list = []
        self.start = self._intern(self._closure({start}, at_start=True), at_start=True)
        self.dead = self._intern(frozenset(), at_start=False)

    def _covered(self, ranges: tuple) -> frozenset:
        """The atoms inside the ranges (no atom straddles a range's end)."""
        found = set()
        for lo, hi in ranges:
            first, last = bisect_left(self._starts, lo), bisect_right(self._starts, hi)
            found.update(self._by_start[first:last])
        return frozenset(found)

    def _state(self) -> int:
        if len(self.eps) >= MAX_NFA_STATES:
            raise _Undecided
        self.eps.append([])
        self.moves.append([])
        self.anchor.append([])
        return len(self.eps) - 1

    def _build(self, seq: tuple, at: int) -> int:
        for item in seq:
            at = self._item(item, at)
        return at

    def _item(self, item: tuple, at: int) -> int:
        kind = item[0]
        out = self._state()
        if kind == "set":
            self.moves[at].append((self._covered(item[1]), out))
        elif kind == "alt":
            for branch in item[1]:
                self.eps[self._build(branch, at)].append(out)
        elif kind == "rep":
            _, low, high, body = item
            for _copy in range(low):
                at = self._build(body, at)
            if high == regex_cover.INF:
                loop = self._state()
                self.eps[at].append(loop)
                self.eps[self._build(body, loop)].append(loop)
                self.eps[loop].append(out)
            else:
                for _copy in range(high - low):
                    self.eps[at].append(out)
                    at = self._build(body, at)
                self.eps[at].append(out)
            return out
        elif kind == "at" and item[1] in (BEGIN, END):
            self.anchor[at].append((item[1], out))
        else:
            raise _Undecided  # \b, \B, or a lookahead not at the start
        return out

    def _live(self) -> set[int]:
        """States from which the final one can still be reached past the first character
        (`^` holds only at the start, whose closure already went through it)."""
        back: dict[int, list[int]] = {}
        for state in range(len(self.eps)):
            targets = self.eps[state] + [t for _w, t in self.moves[state]]
            targets += [t for kind, t in self.anchor[state] if kind == END]
            for target in targets:
                back.setdefault(target, []).append(state)
        live, stack = {self.final}, [self.final]
        while stack:
            for source in back.get(stack.pop(), ()):
                if source not in live:
                    live.add(source)
                    stack.append(source)
        return live

    def _closure(self, states, *, at_start: bool, at_end: bool = False) -> frozenset:
        seen, stack = set(states), list(states)
        while stack:
            state = stack.pop()
            nexts = list(self.eps[state])
            nexts += [t for kind, t in self.anchor[state]
                      if (kind == BEGIN and at_start) or (kind == END and at_end)]
            for target in nexts:
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        return frozenset(seen)

    def _intern(self, subset: frozenset, *, at_start: bool) -> int:
        if not at_start and self.live.isdisjoint(subset):
            subset = frozenset()  # can never match again: the same as having no state at all
        key = (subset, at_start)
        if key not in self._ids:
            if len(self.subsets) >= MAX_SUBSETS:
                raise _Undecided
            self._ids[key] = len(self.subsets)
            self.subsets.append(subset)
            ends = self._closure(subset, at_start=at_start, at_end=True)
            self.accepting.append(self.final in ends)
            self._next.append(None)
        return self._ids[key]

    def step(self, state: int, atom: int) -> int:
        if self._next[state] is None:
            targets: list[set] = [set() for _ in self.atoms]
            for nfa_state in self.subsets[state]:
                for wanted, target in self.moves[nfa_state]:
                    for index in wanted:
                        targets[index].add(target)
            # Most characters lead to the same few subsets: each is closed and interned once.
            interned: dict[frozenset, int] = {}
            for index, target in enumerate(targets):
                key = frozenset(target)
                if key not in interned:
                    interned[key] = self._intern(self._closure(key, at_start=False), at_start=False)
                targets[index] = interned[key]
            self._next[state] = targets
        return self._next[state][atom]


def _search(first: list, second: list[list], atoms: list) -> list[str] | None:
    """Characters of a shortest string all of `first` accept and some group of `second`
    rejects; None when none exists (proven); _Undecided over budget."""
    machines = first + [pair for group in second for pair in group]
    start = tuple(m.start for m, _sign in machines)
    parent = {start: None}
    queue = deque([start])
    moves = 0
    while queue:
        state = queue.popleft()
        if _escapes(state, first, second):
            return _path(parent, state, atoms)
        moves += len(atoms)
        if moves > MAX_MOVES:
            raise _Undecided
        for atom in range(len(atoms)):
            after = tuple(m.step(s, atom) for (m, _sign), s in zip(machines, state))
            if after in parent or _hopeless(after, first):
                continue
            if len(parent) >= MAX_STATES:
                raise _Undecided
            parent[after] = (state, atom)
            queue.append(after)
    return None


def _holds(machine, sign: bool, state: int) -> bool:
    return machine.accepting[state] == sign


def _escapes(state: tuple, first: list, second: list[list]) -> bool:
    if not all(_holds(m, sign, s) for (m, sign), s in zip(first, state)):
        return False
    at = len(first)
    for group in second:
        if not all(_holds(m, sign, s) for (m, sign), s in zip(group, state[at:])):
            return True
        at += len(group)
    return False


def _hopeless(state: tuple, first: list) -> bool:
    """A pattern that must hold can no longer match (its automaton is dead)."""
    return any(sign and s == m.dead for (m, sign), s in zip(first, state))


def _path(parent: dict, state: tuple, atoms: list) -> list[str]:
    out = []
    while parent[state] is not None:
        state, atom = parent[state]
        out.append(_char(atoms[atom]))
    return out[::-1]
