"""JSON text to Python values whose objects know the lines they and their keys start on."""
from __future__ import annotations

import json
import re
from itertools import accumulate, compress, repeat
from operator import add

from .limits import MAX_JSON_DEPTH
from .model import SchemaError

# Text without brackets, skipping strings (possessive: no backtracking on any input).
_FLAT = r'[^"{}\[\]]*+(?:"[^"\\]*+(?:\\.[^"\\]*+)*+"[^"{}\[\]]*+)*+'
# Runs to the next bracket outside a string; an object or array with no brackets inside is
# taken whole. The kind is the group number: this scan is most of a big file's cost.
_BRACKET = re.compile(_FLAT + r'(?:(\{' + _FLAT + r'\})|(\{)|(\[' + _FLAT + r'\])|(\[)|[}\]])',
                      re.DOTALL)
_FLAT_OBJECT, _OPEN_OBJECT, _FLAT_ARRAY, _OPEN_ARRAY = 1, 2, 3, 4
# A JSON string, optionally a key (followed by a colon), an object or array with no brackets
# inside (taken whole: an object's keys are read past its nested values), or a bracket.
_TOKEN = re.compile(r'"((?:[^"\\]++|\\.)*+)"(\s*+:)?|\{' + _FLAT + r'\}|\[' + _FLAT + r'\]|[{}\[\]]',
                    re.DOTALL)
_LINE_BLOCK = 4096  # characters per block of the line index
_ANY_BRACKET = re.compile(r"[{}\[\]]")
_COLON = re.compile(r"\s*:")
_JSON_WHITESPACE = " \t\n\r"  # the only whitespace JSON allows after its value


class Line(int):
    """A line number in another file than the one under review (a schema it references):
    findings made from it name that file."""

    file: str

    def __new__(cls, value: int, file: str):
        line = super().__new__(cls, value)
        line.file = file
        return line


class _Document:
    """The text behind the objects; line numbers are worked out only when somebody asks."""

    __slots__ = ("text", "_blocks", "file")

    def __init__(self, text: str, file: str | None = None):
        self.text, self._blocks, self.file = text, None, file

    def line(self, offset: int) -> int:
        # Newlines are counted per block once, then within one block per question: cheaper than
        # indexing every line of a big file when only a few hundred lines are ever asked for.
        text = self.text
        if self._blocks is None:
            self._blocks = list(accumulate(text.count("\n", start, start + _LINE_BLOCK)
                                           for start in range(0, len(text), _LINE_BLOCK)))
        block = offset // _LINE_BLOCK
        before = self._blocks[block - 1] if block else 0
        line = before + text.count("\n", block * _LINE_BLOCK, offset) + 1
        return line if self.file is None else Line(line, self.file)

    def lines(self, offsets: list[int]) -> list[int]:
        """line() of each offset, given in ascending order: each counted on from the last."""
        text, found, line, at = self.text, [], 0, 0
        for offset in offsets:
            line = int(self.line(offset)) if not found else line + text.count("\n", at, offset)
            at = offset
            found.append(line if self.file is None else Line(line, self.file))
        return found

    def key_offsets(self, start: int, end: int, ends: dict[int, int]):
        """(key, offset) of the keys directly inside the object spanning start..end; `ends`:
        where nested objects whose start is known end (the scan reads on past them)."""
        text, depth, at = self.text, 0, start + 1
        while (token := _TOKEN.search(text, at, end)) is not None:
            at, char = token.end(), text[token.start()]
            if char in "{[" and at - token.start() > 1:
                continue  # a nested value without brackets inside: no key of this object
            if char == "{" and token.start() in ends:  # nor in a nested object: read on past it
                at = ends[token.start()] + 1
            elif char in "{[":
                depth += 1
            elif char in "}]":
                depth -= 1
            elif depth == 0 and token.group(2):
                raw = token.group(1)
                yield (json.loads(f'"{raw}"') if "\\" in raw else raw), token.start()


class LineDict(dict):
    """A JSON object with its 1-based first and last line, and the line of each key."""

    __slots__ = ("_doc", "_start", "_end", "_keys")

    @property
    def line(self) -> int:
        return self._doc.line(self._start)

    @property
    def end_line(self) -> int:
        return self._doc.line(self._end)

    @property
    def source(self) -> str:
        """The object's own text, braces included."""
        return self._doc.text[self._start:self._end + 1]

    def key_line(self, key: str) -> int:
        # Fast path: the first '"key"' followed by a colon, with no bracket before it, is this
        # object's own key (a string value is never followed by a colon).
        if key not in self:
            return self.line
        keys = getattr(self, "_keys", None)
        if keys is None:
            text, start = self._doc.text, self._start
            needle = f'"{key}"'
            at = text.find(needle, start + 1, self._end)
            # An escape before it may be the key written otherwise (`"c\\u0041"` is "cA", a
            # repeated key's first) or end inside another key (`"x\\"b"`): the scan decides.
            if at > 0 and _COLON.match(text, at + len(needle)) and text.find("\\", start + 1, at) < 0 \
                    and not _ANY_BRACKET.search(text, start + 1, at):
                return self._doc.line(at)
            # Slow path: scan this object's own keys once and remember them (objects with nested
            # values before the key, like "properties", are asked about many keys: once scanned,
            # each answer is a lookup, not a search through the values before it).
            return self.first_key_lines().get(key, self.line)
        offset = keys.get(key)
        return self.line if offset is None else self._doc.line(offset)

    @property
    def key_lines(self) -> dict[str, int]:
        """The line of each key (a repeated key: of its last), in one scan."""
        found = list(self._key_offsets())
        return dict(zip((name for name, _ in found), self._doc.lines([at for _, at in found])))

    def first_key_lines(self) -> dict[str, int]:
        """key_line() of every key (a repeated key: of its first), in one scan."""
        keys = getattr(self, "_keys", None)
        if keys is None:
            keys = self._keys = {}
            for name, offset in self._key_offsets():
                keys.setdefault(name, offset)
        return dict(zip(keys, self._doc.lines(list(keys.values()))))

    def _key_offsets(self):
        # The spans of the objects among its values and directly in its arrays are known: no
        # index of the whole document's spans is kept (its memory counts against the budget).
        doc, ends = self._doc, {}
        for value in self.values():
            for item in value if isinstance(value, list) else (value,):
                if isinstance(item, LineDict) and getattr(item, "_doc", None) is doc:
                    ends[item._start] = item._end
        return doc.key_offsets(self._start, self._end, ends)


def _spans(text: str, file: str, document: _Document, objects: int) -> list[tuple[int, int]]:
    """(start, end) offsets of every object, in the order the objects close; SchemaError when
    the text nests deeper than MAX_JSON_DEPTH. `objects`: how many objects the text holds."""
    spans = _brace_spans(text, objects)
    return _scanned_spans(text, file, document) if spans is None else spans


def _brace_spans(text: str, objects: int) -> list[tuple[int, int]] | None:
    """The spans read from where the braces are, or None when that cannot be trusted (a brace
    or an escaped quote in a string) or the nesting may be too deep (the scan then decides).

    A character scan of the text is most of a big file's parse, so the text is cut at every
    "}" instead: each piece holds the "{" its "}" closes, as its last "{", unless it holds none
    (the "}" closes an object with others inside it, opened in an earlier piece). Only those
    pieces and the ones opening more than one object are visited one by one."""
    pieces = text.split("}")
    opens = list(map(str.count, pieces, repeat("{")))
    if len(pieces) - 1 != objects or sum(opens) != objects:
        return None  # a brace in a string
    lengths = list(map(len, pieces))
    at = [0, *accumulate(map((1).__add__, lengths))]  # where each piece starts
    ends = list(map(add, at, lengths))[:-1]
    spans = list(zip(map(add, at, map(str.rfind, pieces, repeat("{"))), ends))
    stack: list[int] = []
    deepest = 1
    for index in compress(range(objects), map((1).__ne__, opens)):
        piece, start = pieces[index], at[index]
        if not opens[index]:
            spans[index] = (stack.pop(), ends[index])
            continue
        offset = -1
        for _ in range(opens[index] - 1):  # the objects this piece opens and does not close
            offset = piece.find("{", offset + 1)
            stack.append(start + offset)
        deepest = max(deepest, len(stack) + 1)
    depth = _array_depth(text)
    if depth is None or deepest + depth > MAX_JSON_DEPTH:
        return None
    return spans


def _array_depth(text: str) -> int | None:
    """How deep arrays nest in the text, or None when a string may hide a quote (`\\"`)."""
    if "\\" in text and '\\"' in text:
        return None
    quotes = depth = deepest = last = 0
    find = text.find
    opening, closing = find("["), find("]")
    while opening >= 0:  # str.find, not a regular expression: it skips the text far faster
        at = opening if closing < 0 or opening < closing else closing
        quotes += text.count('"', last, at)
        last = at
        inside = quotes % 2  # no quote is escaped: after an odd count, the bracket is in a string
        if at == opening:
            opening = find("[", at + 1)
            depth += not inside
            deepest = max(deepest, depth)
        else:
            closing = find("]", at + 1)
            depth -= not inside
    return deepest


def _scanned_spans(text: str, file: str, document: _Document) -> list[tuple[int, int]]:
    """(start, end) offsets of every object, in the order the objects close."""
    stack: list[int] = []  # where each open object starts; -1 for an open array
    closed: list[tuple[int, int]] = []
    push, pop, close = stack.append, stack.pop, closed.append
    # The scan ends at the last bracket: past it (trailing whitespace) every match attempt would
    # fail only at the end of the text and the next one start a character later, rescanning the
    # rest each time, quadratic in the padding. Before it, every match ends on a bracket, so the
    # next starts where that one ended and each character is read a bounded number of times.
    end = len(text.rstrip(_JSON_WHITESPACE))
    for token in _BRACKET.finditer(text, 0, end):
        kind = token.lastindex
        if kind is None:  # a closing bracket
            start = pop()
            if start >= 0:
                close((start, token.end() - 1))
            continue
        if len(stack) >= MAX_JSON_DEPTH:
            at = token.start(kind)
            raise SchemaError(file, document.line(at), f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
        if kind == _FLAT_OBJECT:
            close((token.start(kind), token.end() - 1))
        elif kind == _OPEN_OBJECT:
            push(token.start(kind))
        elif kind == _OPEN_ARRAY:
            push(-1)
    return closed


class _NotJson(Exception):
    pass


def _not_json(name: str):
    """Python's decoder takes NaN, Infinity and -Infinity; JSON has none of them, and a bound of
    NaN compares false with everything (every change to or from it would read as loosened)."""
    raise _NotJson(name)


def loads(text: str, file: str, *, located: bool = False) -> object:
    """Parse JSON text; objects come back as LineDict. Raises SchemaError on bad input.
    `located`: the text is another file than the one under review, its lines are Lines."""
    made: list[LineDict] = []

    def make_object(pairs: list) -> LineDict:
        obj = LineDict(pairs)
        made.append(obj)  # the decoder builds objects in the order they close
        return obj

    try:
        value = json.loads(text, object_pairs_hook=make_object, parse_constant=_not_json)
    except _NotJson as error:
        raise SchemaError(file, None, f"invalid JSON: {error} is not a JSON value (JSON has no NaN or Infinity)") from None
    except json.JSONDecodeError as error:
        raise SchemaError(file, error.lineno, f"invalid JSON: {error.msg} (column {error.colno})") from None
    except RecursionError:
        # The decoder got that deep on valid text, so the scan meets the depth limit before any
        # malformed part and raises with the line.
        _scanned_spans(text, file, _Document(text))
        raise SchemaError(file, None, f"JSON nested deeper than {MAX_JSON_DEPTH} levels") from None
    if not isinstance(value, (dict, list)):
        # A bare string, number or literal nests nothing; the scan would restart inside a string
        # like "a}" and take its bracket for a real one.
        return value
    # Only valid JSON is scanned, so every string is terminated and the scan is linear.
    document = _Document(text, file if located else None)
    for obj, (start, end) in zip(made, _spans(text, file, document, len(made))):
        obj._doc, obj._start, obj._end = document, start, end
    return value
