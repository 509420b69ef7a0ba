"""Whether one ECMA-262 `pattern` matches every string another does, for the common shapes.

Sound but incomplete: True only when proven (branches added, a character class widened,
anchors dropped, a repeat widened); False means "not proven", never "proven not". The work is
bounded by MAX_STEPS, so a pathological pattern costs a fixed amount and stays undecided.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import islice

import re
import re._constants as C
import re._parser as sre

MAX_STEPS = 5_000  # alignment steps per question
MAX_PATTERN = 1_000  # characters: longer patterns are not analysed
MAX_NESTING = 16  # groups and repeats inside each other: deeper patterns are not analysed
MAX_UNROLL = 3  # a repeat of at most this many copies may be spelled out
TOP = 0x10FFFF
INF = C.MAXREPEAT
ALL = ((0, TOP),)
# ECMA-262 (no flags): `.` excludes line terminators, \d and \w are ASCII, \s is this list.
LINE_TERMINATORS = ((10, 10), (13, 13), (0x2028, 0x2029))
DIGIT = ((48, 57),)
WORD = ((48, 57), (65, 90), (95, 95), (97, 122))
SPACE = ((9, 13), (32, 32), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A), (0x2028, 0x2029),
         (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF))
KNOWN_ASSERTIONS = (C.AT_BEGINNING, C.AT_END, C.AT_BOUNDARY, C.AT_NON_BOUNDARY)


MAX_SAMPLES = 16  # strings drawn from a pattern to look for one the other rejects
PREFERRED = "a0A_-. "
MAX_CLASS_SAMPLES = 3  # characters tried for one character class
# Characters of one sample: `(a{50000}){50000}` is 30 characters of pattern and 2.5 GB of
# string, so a sample's length is checked before it is built (length × repeat count is known).
MAX_SAMPLE_CHARS = 20_000
SURROGATES = (0xD800, 0xDFFF)  # characters a sample uses when its class allows them


class _Undecided(Exception):
    """A construct this module does not model (or the step budget ran out)."""


class TooLong(Exception):
    """Every sample of the pattern would pass the length asked for: none was built."""


def covers(wide: str, narrow: str) -> bool:
    """Whether every string `narrow` finds a match in, `wide` finds one in too (proven)."""
    if wide == narrow:
        return True
    try:
        return _covers(wide, narrow)
    except _Undecided:
        return False


def shape(pattern: str) -> tuple | None:
    """The pattern as a sequence of ("set", ranges), ("rep", low, high, seq), ("alt", seqs),
    ("at", assertion) and ("look", positive, seq) items; None if beyond this module."""
    try:
        return _normal(pattern)
    except _Undecided:
        return None


def samples(pattern: str, max_chars: int = MAX_SAMPLE_CHARS) -> list[str]:
    """A few short strings shaped by the pattern (one per alternative), unchecked; [] if the
    pattern is beyond this module. Callers check them with the real engine. Samples longer
    than max_chars are left out unbuilt; TooLong when that leaves none."""
    return list(_samples_of(pattern, max_chars))


@lru_cache(maxsize=1024)
def _samples_of(pattern: str, max_chars: int) -> tuple[str, ...]:
    try:
        return tuple(_samples(_normal(pattern), max_chars))
    except _Undecided:
        return ()


def _samples(seq: tuple, max_chars: int) -> list[str]:
    """A few short strings built from the sequence: each alternative, each repeat at its least.
    A string's length is known before it is built, so one over max_chars never is."""
    out = [""]
    for item in seq:
        if item[0] == "set":
            pieces = [(char, 1) for char in _chars(item[1])]
        elif item[0] == "rep":  # an optional repeat is left out when no copy of it fits
            body = (_fitting(item[3], max_chars) or [""]) if item[1] == 0 else _samples(item[3], max_chars)
            pieces = [(part, max(item[1], 1)) for part in body]
        elif item[0] == "alt":  # the first MAX_SAMPLES are all the product below can keep
            pieces = list(islice(((part, 1) for branch in item[1]
                                  for part in _fitting(branch, max_chars)), MAX_SAMPLES))
        else:
            continue
        out = list(islice((text + part * count for text in out for part, count in pieces
                           if len(text) + len(part) * count <= max_chars), MAX_SAMPLES))
        if not out:
            raise TooLong
    return out


def _fitting(branch: tuple, max_chars: int) -> list[str]:
    """An alternative's samples, none when it has no short one (another alternative may)."""
    try:
        return _samples(branch, max_chars)
    except TooLong:
        return []


def _chars(ranges: tuple) -> list[str]:
    """A preferred character of the class, then each range's ends (a removed member shows)."""
    preferred = [c for c in PREFERRED if any(lo <= ord(c) <= hi for lo, hi in ranges)][:1]
    ends = [chr(code) for lo, hi in ranges[:MAX_CLASS_SAMPLES] for code in (lo, hi)
            if not SURROGATES[0] <= code <= SURROGATES[1]]  # not text on their own
    return list(dict.fromkeys(preferred + ends))[:MAX_CLASS_SAMPLES]


@lru_cache(maxsize=512)
def _covers(wide: str, narrow: str) -> bool:
    # A pattern matches anywhere in the string: a pattern is Σ* body Σ*, anchors as assertions.
    anywhere = ("rep", 0, INF, (("set", ALL),))
    big = (anywhere, *_normal(wide), anywhere)
    small = (anywhere, *_normal(narrow), anywhere)
    return _Aligner().sub(small, 0, big, 0)


@lru_cache(maxsize=512)
def _normal(pattern: str) -> tuple:
    if len(pattern) > MAX_PATTERN:
        raise _Undecided
    try:
        parsed = sre.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        raise _Undecided from None
    if parsed.state.flags & ~re.UNICODE:
        raise _Undecided  # inline flags (ECMA-262 has none in the pattern)
    return _seq(parsed)


def _seq(items, depth: int = 0) -> tuple:
    if depth > MAX_NESTING:
        raise _Undecided
    out = []
    for op, arg in items:
        if op is C.SUBPATTERN:
            if arg[1] or arg[2]:
                raise _Undecided  # scoped flags
            out.extend(_seq(arg[3], depth + 1))  # a group only groups: concatenation is associative
        else:
            out.append(_item(op, arg, depth + 1))
    return tuple(out)


def _item(op, arg, depth: int) -> tuple:
    if op is C.LITERAL:
        return ("set", ((arg, arg),))
    if op is C.NOT_LITERAL:
        return ("set", _complement(((arg, arg),)))
    if op is C.ANY:
        return ("set", _complement(LINE_TERMINATORS))
    if op is C.IN:
        return ("set", _charset(arg))
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        return ("rep", arg[0], arg[1], _seq(arg[2], depth))
    if op is C.BRANCH:
        return ("alt", tuple(_seq(branch, depth) for branch in arg[1]))
    if op is C.AT and arg in KNOWN_ASSERTIONS:
        return ("at", str(arg))
    if op in (C.ASSERT, C.ASSERT_NOT) and arg[0] == 1:
        # A lookahead: only regex_automaton models it; the aligner never proves through it.
        return ("look", op is C.ASSERT, _seq(arg[1], depth))
    raise _Undecided  # back-references, lookbehinds, \A \Z and the like


def _charset(items) -> tuple:
    ranges, negate = [], False
    for op, arg in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            ranges.append((arg, arg))
        elif op is C.RANGE:
            ranges.append(arg)
        elif op is C.CATEGORY:
            ranges.extend(_category(arg))
        else:
            raise _Undecided
    merged = _merge(ranges)
    return _complement(merged) if negate else merged


def _category(code) -> tuple:
    plain = {C.CATEGORY_DIGIT: DIGIT, C.CATEGORY_WORD: WORD, C.CATEGORY_SPACE: SPACE}
    negated = {C.CATEGORY_NOT_DIGIT: DIGIT, C.CATEGORY_NOT_WORD: WORD, C.CATEGORY_NOT_SPACE: SPACE}
    if code in plain:
        return plain[code]
    if code in negated:
        return _complement(negated[code])
    raise _Undecided


def _merge(ranges) -> tuple:
    out = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return tuple(out)


def _complement(ranges: tuple) -> tuple:
    out, start = [], 0
    for lo, hi in _merge(ranges):
        if lo > start:
            out.append((start, lo - 1))
        start = hi + 1
    if start <= TOP:
        out.append((start, TOP))
    return tuple(out)


def _within(small: tuple, big: tuple) -> bool:
    return all(any(blo <= lo and hi <= bhi for blo, bhi in big) for lo, hi in small)


def _nullable(seq: tuple) -> bool:
    """Whether the sequence certainly accepts the empty string (assertions: not proven)."""
    return all((kind[0] == "rep" and (kind[1] == 0 or _nullable(kind[3])))
               or (kind[0] == "alt" and any(_nullable(b) for b in kind[1])) for kind in seq)


class _Aligner:
    """Proves small[i:] ⊆ big[j:] by aligning items left to right."""

    def __init__(self):
        self.steps = 0
        self.memo: dict = {}

    def sub(self, small: tuple, i: int, big: tuple, j: int) -> bool:
        key = (small[i:], big[j:])
        if key not in self.memo:
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise _Undecided
            self.memo[key] = False  # a revisit while proving is not a proof
            self.memo[key] = self._sub(small[i:], big[j:])
        return self.memo[key]

    def _sub(self, small: tuple, big: tuple) -> bool:
        if not small:
            return _nullable(big)
        a = small[0]
        if a[0] == "alt":  # every branch must fit
            return all(self.sub(branch + small[1:], 0, big, 0) for branch in a[1])
        if a[0] in ("at", "look") and self.sub(small, 1, big, 0):
            return True  # an assertion only narrows `small`
        if a[0] == "rep" and a[2] != INF and a[2] <= MAX_UNROLL and a[3]:
            unrolled = ("alt", tuple(a[3] * n for n in range(a[1], a[2] + 1)))
            if self.sub((unrolled, *small[1:]), 0, big, 0):
                return True
        if not big:
            return False
        b = big[0]
        if b[0] == "alt":
            return any(self.sub(small, 0, branch + big[1:], 0) for branch in b[1])
        if a == b and self.sub(small, 1, big, 1):
            return True
        if a[0] == "set" and b[0] == "set":
            return _within(a[1], b[1]) and self.sub(small, 1, big, 1)
        if b[0] == "rep":
            return self._into_repeat(small, big)
        return False

    def _into_repeat(self, small: tuple, big: tuple) -> bool:
        a, (_, lo, hi, body) = small[0], big[0]
        if lo == 0 and self.sub(small, 0, big, 1):
            return True  # the repeat matches nothing here
        if a[0] == "rep" and self.sub(a[3], 0, body, 0):
            # each copy of a's body is one copy of b's body
            if hi == INF and a[1] >= lo:
                return self.sub(small, 1, big, 1) or self.sub(small, 1, (("rep", 0, INF, body), *big[1:]), 0)
            if hi == INF:
                return self.sub(small, 1, (("rep", lo - a[1], INF, body), *big[1:]), 0)
            if a[2] != INF and lo <= a[1] and a[2] <= hi:
                return self.sub(small, 1, big, 1)
            return False
        if hi == 0:
            return False
        rest = ("rep", max(0, lo - 1), hi if hi == INF else hi - 1, body)
        for end in range(1, min(len(small), len(body) + 2) + 1):  # one copy of b's body
            if self.sub(small[:end], 0, body, 0) and self.sub(small[end:], 0, (rest, *big[1:]), 0):
                return True
        return False
