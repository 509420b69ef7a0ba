"""Small JSON instances of a JSON Schema, with choice points a search can vary one at a time.

Not a complete generator: it proposes values (declared properties only, sample scalars and the
bounds, enum values and constants found in either version) and the real validator decides.
"""
from __future__ import annotations


import json
import re
from dataclasses import dataclass

from ..jsonschema import content, regex_automaton, regex_cover
from ..jsonschema.values import canon
from ..jsonschema.refs import External
from .budget import Allowance, TooBig
from .schemaview import alternatives, item_schemas, kind_of, kinds, open_to

TRIES = 8  # options tried at one node before its first valid one is settled
MAX_LENGTH = 256  # longest string or array proposed
SCALARS = (None, True, False, 1, 0, -1, 1.5, "x", "", "abc", "ABC", "0", "a1", "a-b", "2020-01-01",
           "2020-01-01T00:00:00Z", "12:00:00", "x@example.com", "https://example.com/x",
           "00000000-0000-4000-8000-000000000000", "127.0.0.1", "example.com")
BOUND_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
              "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties")
ITEMS, EXTRA = ("items",), ("extra",)  # location steps: an array's items, an undeclared property
UNDECLARED = "undeclared"  # the property a strict-policy writer may add to an open model
MAX_BORROWED = 4  # names declared elsewhere that a strict-policy writer may add to an open model
MAX_RIVALS = 4  # other patterns a pattern's string is set against (a string one accepts, one not)


@dataclass
class Point:
    """A node where the instance could take another option (the first valid one is the default)."""

    where: tuple
    count: int
    chosen: int
    toward: tuple = ()  # option indexes that contain the location's next property (or a value
    # only one version lists), best first


class Pool:
    """Values worth trying anywhere, gathered from both versions: bounds, enums, consts, defaults."""

    def __init__(self, *documents):
        numbers, values, listed = set(), [], [set() for _ in documents]
        for document, allowed in zip(documents, listed):
            for node in _nodes(document):
                for key in BOUND_KEYS:
                    if isinstance(node.get(key), (int, float)) and not isinstance(node.get(key), bool):
                        numbers.add(node[key])
                for key in ("enum", "const", "default", "examples"):
                    if key in node:
                        found = node[key] if key in ("enum", "examples") and isinstance(node[key], list) else [node[key]]
                        values.extend(found)
                        if key in ("enum", "const"):
                            allowed.update(map(canon, found))
        # Values one version lists and the other does not: an enum's removed value is tried
        # first at its point, however far down a long enum it is.
        self.one_sided = set.union(*listed) - set.intersection(*listed) if listed else set()
        for node in (n for d in documents for n in _nodes(d)):
            for key in ("items", "prefixItems"):  # positional items: one more than they list
                if isinstance(node.get(key), list):
                    numbers.update({len(node[key]), len(node[key]) + 1})
        self.numbers = sorted(numbers)
        # Declared names: a strict writer may give one to an object that does not declare it
        # (a sibling oneOf alternative's property, holding what only the new version accepts).
        self.patterns = sorted({node["pattern"] for d in documents for node in _nodes(d)
                                if isinstance(node.get("pattern"), str)})
        self.names = sorted({name for node in (n for d in documents for n in _nodes(d))
                             if isinstance(node.get("properties"), dict) for name in node["properties"]})
        # Property-name patterns of both versions: a name one matches and another also matches
        # (or rejects) shows a pattern added over, or narrowed from, old names.
        self.name_patterns = sorted({pattern for node in (n for d in documents for n in _nodes(d))
                                     if isinstance(node.get("patternProperties"), dict)
                                     for pattern in node["patternProperties"]})
        edges = {n + d for n in self.numbers for d in (-1, -0.5, 0, 0.5, 1)} | {n * 2 for n in self.numbers}
        self.scalars = _unique(list(SCALARS) + values + sorted(edges))
        lengths = {int(n) + d for n in self.numbers for d in (-1, 0, 1) if 0 <= int(n) + d <= MAX_LENGTH}
        self.lengths = sorted(lengths | {0, 1, 2})
        self.scalars += ["a" * n for n in self.lengths if n > 3]


class Instance:
    """Builds one instance; `overrides` picks option i at a location instead of the default."""

    def __init__(self, view, valid, pool: Pool, *, location: tuple, overrides: dict, strict: bool):
        self.view, self.valid, self.pool = view, valid, pool
        self.location, self.overrides, self.strict = location, overrides, strict
        self.points: list[Point] = []
        # Every value built counts, tried or kept: nested arrays of minItems 256 would otherwise
        # build 256 ** depth values. Raises TooBig past the limit.
        self.allowance = Allowance()

    def value(self, node, where: tuple = (), depth: int = 0):
        self.allowance.spend(1)
        options = self._options(node, where, depth)
        if not options:
            return None
        forced = self.overrides.get(where)
        order = [forced] if forced is not None and forced < len(options) else range(min(TRIES, len(options)))
        kept = len(self.points)
        for index in order:
            del self.points[kept:]
            built = self._build(options[index], depth)
            if forced is not None or self.valid(node, built):
                toward = tuple(i for i, o in enumerate(options) if getattr(o, "toward", False))
                self.points.insert(kept, Point(where, len(options), index, toward))
                return built
        del self.points[kept:]
        # None of the first few is valid here: the later options stay open to the search.
        self.points.insert(kept, Point(where, len(options), 0, ()))
        return self._build(options[0], depth)

    def _build(self, option, depth: int):
        """The option's value. A constant costs its JSON size: a schema's 1 MB enum value under
        `minItems: 256` would otherwise cost one character per copy."""
        built = option(depth)
        if getattr(option, "const", False):
            self.allowance.spend(len(json.dumps(built, default=str)))
        return built

    def _options(self, node, where: tuple, depth: int) -> list:
        schema = self.view(node)
        if schema is False or isinstance(schema, External) or depth > 24:
            return []
        if not isinstance(schema, dict):
            return [_const(v) for v in self.pool.scalars]
        if "const" in schema:
            return [_const(schema["const"])]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            one_sided = self.pool.one_sided  # empty unless an enum changed: no canon() then
            return [_const(v, toward=bool(one_sided) and canon(v) in one_sided) for v in schema["enum"]]
        allowed = kinds(schema)
        out = []
        for alternative in alternatives(schema):  # what a combinator allows comes first
            out += [o for o in self._options(alternative, where, depth + 1) if o not in out]
        if "object" in allowed:
            out += self._objects(schema, where)
        if "array" in allowed:
            out += self._arrays(schema, where)
        if isinstance(schema.get("pattern"), str):
            matching = _name_matching(schema["pattern"], self.pool)
            out += [_const(matching)] if matching is not None else []
            # one string per alternative of the pattern: a removed alternative shows its break
            out += [_const(text) for text in self._samples(schema["pattern"]) if text != matching]
            out += [_const(text) for text in _witnesses(schema["pattern"], self.pool.patterns)
                    if len(text) <= self.allowance.left]
        out += [_const(v) for v in self.pool.scalars if kind_of(v) in allowed]
        return out

    def _samples(self, pattern: str) -> list[str]:
        """The pattern's samples, each within what this record may still cost (a repeat count
        times a length is known before the string is built): TooBig when none fits."""
        try:
            drawn = regex_cover.samples(pattern, max_chars=self.allowance.left)
        except regex_cover.TooLong:
            raise TooBig from None
        return drawn  # the one a record keeps is charged as it is built (_build)

    def _objects(self, schema: dict, where: tuple) -> list:
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        required = [r for r in schema.get("required", []) if isinstance(r, str)] \
            if isinstance(schema.get("required"), list) else []
        following = self.location[len(where)] if leads_to(where, self.location) \
            and len(self.location) > len(where) else None
        base = list(dict.fromkeys(required))
        wanted = following[1] if following and following[0] == "prop" else None
        toward = wanted if wanted in props else None
        sets = [base + ([toward] if toward and toward not in base else []), base]
        optional = [p for p in props if p not in base]
        sets += [base + [p] for p in sorted(optional, key=lambda p: p != toward)]
        sets.append(base + optional)
        extra = open_to(schema, self.strict)
        if extra is not None:  # a map's entry, or (strict) anything, named as the finding says
            if self.strict and extra is True:
                borrowed = [n for n in self.pool.names if n not in props and n not in base]
                sets += [base + [(EXTRA, name, extra)] for name in borrowed[:MAX_BORROWED]]
            first = (EXTRA, wanted if wanted and wanted not in props else UNDECLARED, extra)
            sets.append(base + [first])
            sets.append(base + [first, (EXTRA, UNDECLARED + "2", extra)])  # for maxProperties
            sets += [base + [(EXTRA, name, extra)] for name in self._entry_names(schema) if name not in props]
        patterns = schema.get("patternProperties") if isinstance(schema.get("patternProperties"), dict) else {}
        for pattern, subschema in patterns.items():
            sets += [base + [(EXTRA, name, subschema)] for name in _names_for(pattern, self.pool) if name not in props]
        out = []
        for names in _unique(sets):
            build = _Object(self, schema, names, where)
            # Toward the location: its next property, or (`.*`) an undeclared one.
            build.toward = (toward is not None and toward in names) or (
                following == EXTRA and any(isinstance(name, tuple) for name in names))
            out.append(build)
        return out

    def _entry_names(self, schema: dict) -> list[str]:
        """Names for a map's entry that its `propertyNames` pattern accepts and another pattern
        of either version rejects: a pattern changed in place shows its break with one."""
        names = self.view(schema.get("propertyNames", True))
        pattern = names.get("pattern") if isinstance(names, dict) else None
        return _witnesses(pattern, self.pool.patterns) if isinstance(pattern, str) else []

    def _arrays(self, schema: dict, where: tuple) -> list:
        low = schema.get("minItems", 0) if isinstance(schema.get("minItems"), int) else 0
        high = schema.get("maxItems") if isinstance(schema.get("maxItems"), int) else MAX_LENGTH
        lengths = [n for n in [max(low, 1), *self.pool.lengths] if low <= n <= high]
        return [_Array(self, schema, n, where) for n in _unique(lengths)]


class _Object:
    """Declared properties by name; (EXTRA, name, schema) for one the schema admits otherwise."""

    def __init__(self, owner: Instance, schema: dict, names: list, where: tuple):
        self.owner, self.schema, self.names, self.where = owner, schema, names, where
        self.toward = False

    def __call__(self, depth: int):
        props = self.schema.get("properties") if isinstance(self.schema.get("properties"), dict) else {}
        out = {}
        for name in self.names:
            if isinstance(name, tuple):
                _, key, subschema = name
                out[key] = self.owner.value(subschema, self.where + (("prop", key),), depth + 1)
            else:
                out[name] = self.owner.value(props.get(name, True), self.where + (("prop", name),), depth + 1)
        return out


class _Array:
    def __init__(self, owner: Instance, schema: dict, length: int, where: tuple):
        self.owner, self.schema, self.length, self.where = owner, schema, length, where

    def __call__(self, depth: int):
        prefix, rest = item_schemas(self.schema)
        return [self.owner.value(prefix[i] if i < len(prefix) else rest,
                                 self.where + ((("index", i) if i < len(prefix) else ITEMS),), depth + 1)
                for i in range(self.length)]


def _name_matching(pattern: str, pool: Pool) -> str | None:
    """A property name the ECMA-262 pattern matches: its literal start plus a letter, or a sample."""
    import regress
    try:
        regex = regress.Regex(pattern)
    except regress.RegressError:
        return None
    literal = re.match(r"\^?([A-Za-z0-9_-]*)", pattern).group(1)
    for name in [literal + "a", literal, *(v for v in pool.scalars if isinstance(v, str))]:
        if regex.find(name) is not None:
            return name
    return None


def _names_for(pattern: str, pool: Pool) -> list[str]:
    """Property names the pattern matches: a plain one, then (each a candidate) one it shares
    with another pattern of either version, one another rejects, and names declared elsewhere."""
    first = _name_matching(pattern, pool)
    if first is None:
        return []  # not a pattern the engine reads
    rivals = [p for p in pool.name_patterns if p != pattern][:MAX_RIVALS]
    shared = [regex_automaton.common(frozenset({pattern, rival})) for rival in rivals]
    declared = [name for name in pool.names if content.find(pattern, name)][:MAX_BORROWED]
    found = [first, *shared, *_witnesses(pattern, pool.name_patterns), *declared]
    return _unique([name for name in found if name is not None])


def _witnesses(pattern: str, patterns: list) -> list[str]:
    """Strings `pattern` accepts that another pattern of either version rejects (a pattern
    changed in place shows its break with one)."""
    rivals = [p for p in patterns if p != pattern][:MAX_RIVALS]
    found = (regex_automaton.escape(frozenset([pattern]), frozenset([rival])).witness for rival in rivals)
    return [text for text in found if text is not None]


def _const(value, *, toward: bool = False):
    def build(_depth):
        return value
    build.toward = toward
    build.const = True
    return build


def leads_to(where: tuple, location: tuple) -> bool:
    """Whether `where` is `location` or on the way to it: an undeclared property (EXTRA, a
    path's `.*`) is reached by whatever name the instance gives it."""
    return len(where) <= len(location) and all(
        step == wanted or (EXTRA in (step, wanted) and "prop" in (step[0], wanted[0]))
        for step, wanted in zip(where, location))


def _nodes(document):
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))


def _unique(items: list) -> list:
    out, seen = [], set()
    for item in items:
        key = repr((type(item).__name__, item))
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


__all__ = ["Instance", "Pool", "Point", "ITEMS", "EXTRA", "leads_to"]
