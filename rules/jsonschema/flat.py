"""Flat: one alternative of a schema with allOf merged in, as plain comparable facts."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import NamedTuple

from . import values

Schemas = tuple  # subschemas that must all hold (raw JSON nodes); () means "anything"
LOWER_BOUNDS = ("minLength", "minItems", "minProperties", "minContains")
UPPER_BOUNDS = ("maxLength", "maxItems", "maxProperties", "maxContains")
CONTAINS_COUNTS = ("minContains", "maxContains")  # how many items match `contains`


class Unevaluated(NamedTuple):
    """An `unevaluatedProperties` and what its own object evaluates before it, in place: a
    sibling's declarations (beside the allOf or `$ref` that reached it) are not among them."""

    names: frozenset  # declared in `properties` there, allOf and `$ref` merged in
    patterns: tuple  # patternProperties there
    schemas: tuple  # (the keyword's value,)
    evaluates_all: bool  # an additionalProperties there takes every other name first
    # the names an `if`, `then`, `else`, another anyOf/oneOf option or a dependent schema there
    # may evaluate, where it holds; None: any name
    may_evaluate: frozenset | None
    inner: tuple  # the Unevaluated of objects below it, met before it


@dataclass
class Flat:
    """What one alternative accepts. Subschemas stay raw (tuples of nodes) until compared."""

    line: int
    label: str = ""  # which anyOf/oneOf alternative this is, as a path suffix
    types: frozenset[str] = values.ALL_TYPES
    enum: dict | None = None  # canonical form -> value
    counts: dict = field(default_factory=dict)  # minLength.. maxContains -> int
    lower: tuple | None = None  # (value, exclusive, keyword)
    upper: tuple | None = None
    multiples: tuple = ()
    patterns: frozenset = frozenset()
    formats: frozenset = frozenset()
    unique: bool = False
    required: dict = field(default_factory=dict)  # name -> line (ordered)
    props: dict = field(default_factory=dict)  # name -> Schemas
    prop_lines: dict = field(default_factory=dict)
    pattern_props: dict = field(default_factory=dict)  # regex -> Schemas
    additional: Schemas = ()
    # Per schema object with `additionalProperties`: (its own property names, its own patterns,
    # the schemas). It applies to every name those two miss, even one declared beside it by
    # allOf/$ref: validators read `properties`/`patternProperties` of its own object only.
    closures: tuple = ()
    unevaluated: tuple = ()  # an Unevaluated per schema object with `unevaluatedProperties`
    prefix: list = field(default_factory=list)  # positional item Schemas
    rest: Schemas = ()
    dep_required: dict = field(default_factory=dict)  # name -> tuple of names
    dep_schemas: dict = field(default_factory=dict)  # name -> Schemas
    # name -> what its own dependent schema's content model asks of it wherever it is present
    # (an additionalProperties or unevaluatedProperties there does not see the object's
    # `properties`: `{"properties": {"cvv": ...}, "additionalProperties": false}` refuses it)
    triggered: dict = field(default_factory=dict)
    nots: Schemas = ()
    contains: Schemas | None = None
    property_names: Schemas = ()
    conditions: tuple = ()  # (if, then, else) raw nodes of each conditional, None where absent
    externals: frozenset = frozenset()
    deprecated: bool = False
    has_default: bool = False
    lines: dict = field(default_factory=dict)  # keyword -> line
    holders: dict = field(default_factory=dict)  # keyword -> the JSON object that holds it
    # Each anyOf/oneOf alternative taken: (keyword, its list of alternatives, index), as in label
    choices: tuple = ()
    sources: tuple = ()  # ids of the schema objects merged into this alternative, in order

    @property
    def identity(self) -> tuple:
        """What the alternative says, wherever it was reached from (its line aside)."""
        return (self.sources, self.label, self.types, self.externals)

    def has(self, kind: str) -> bool:
        """Whether values of this kind ("number" means number or integer) can be valid."""
        if kind == "number":
            return "number" in self.types or "integer" in self.types
        return kind in self.types

    @property
    def empty(self) -> bool:
        return not self.types

    def key_line(self, keyword: str) -> int:
        return self.lines.get(keyword, self.line)

    def item(self, index: int) -> Schemas:
        return self.prefix[index] if index < len(self.prefix) else self.rest

    def evaluators(self) -> list:
        """The subschemas beside this alternative's own keywords that evaluate properties only
        where they hold: each `if`, `then` and `else`, the other anyOf/oneOf options, each
        dependent schema (`unevaluatedProperties` sees what they evaluated)."""
        raws = [branch for condition in self.conditions for branch in condition if branch is not None]
        raws += [option for _keyword, options, index in self.choices
                 for at, option in enumerate(options) if at != index]
        return raws + [schema for schemas in self.dep_schemas.values() for schema in schemas]

    def labelled(self, keyword: str, options: list, index: int) -> "Flat":
        """This alternative as option `index` of an anyOf/oneOf list."""
        return dataclasses.replace(self, label=f"{self.label}/{keyword}[{index}]",
                                   choices=self.choices + ((keyword, options, index),))

    def merge(self, other: "Flat") -> "Flat":
        """Both must hold (allOf)."""
        out = dataclasses.replace(self, label=self.label + other.label, choices=self.choices + other.choices,
                                  sources=self.sources + other.sources)
        out.types = values.meet(self.types, other.types)
        if other.enum is not None:
            out.enum = other.enum if self.enum is None else {
                k: v for k, v in self.enum.items() if k in other.enum}
        out.counts = dict(self.counts)
        for key, value in other.counts.items():
            mine = out.counts.get(key)
            tighter = max if key in LOWER_BOUNDS else min
            out.counts[key] = value if mine is None else tighter(mine, value)
        out.lower = _tightest(self.lower, other.lower, lower=True)
        out.upper = _tightest(self.upper, other.upper, lower=False)
        out.multiples = self.multiples + other.multiples
        out.patterns, out.formats = self.patterns | other.patterns, self.formats | other.formats
        out.unique = self.unique or other.unique
        out.required = {**self.required, **{k: v for k, v in other.required.items() if k not in self.required}}
        out.props = join_schemas(self.props, other.props)
        out.prop_lines = {**other.prop_lines, **self.prop_lines}
        out.pattern_props = join_schemas(self.pattern_props, other.pattern_props)
        out.additional = self.additional + other.additional
        out.closures = self.closures + other.closures
        # once each: a schema reached twice (allOf of two that share a base) holds one keyword
        mine = {id(closure) for closure in self.unevaluated}
        out.unevaluated = self.unevaluated + tuple(c for c in other.unevaluated if id(c) not in mine)
        size = max(len(self.prefix), len(other.prefix))
        out.prefix = [self.item(i) + other.item(i) for i in range(size)]
        out.rest = self.rest + other.rest
        out.dep_required = {k: tuple(dict.fromkeys(self.dep_required.get(k, ()) + other.dep_required.get(k, ())))
                            for k in {**self.dep_required, **other.dep_required}}
        out.dep_schemas = join_schemas(self.dep_schemas, other.dep_schemas)
        out.triggered = join_schemas(self.triggered, other.triggered)
        out.nots = self.nots + other.nots
        out.contains = other.contains if self.contains is None else (
            self.contains if other.contains is None else self.contains + other.contains)
        out.property_names = self.property_names + other.property_names
        out.conditions = self.conditions + other.conditions
        out.externals = self.externals | other.externals
        out.deprecated, out.has_default = self.deprecated or other.deprecated, self.has_default or other.has_default
        out.lines = {**other.lines, **self.lines}
        out.holders = {**other.holders, **self.holders}
        return out.finish()

    def finish(self) -> "Flat":
        """Make the facts consistent: an enum limits the types and the types limit the enum."""
        if self.enum is not None:
            self.enum = {k: v for k, v in self.enum.items()
                         if values.covers(self.types, values.type_of(v))}
            self.types = values.normal(values.meet(
                self.types, frozenset(values.type_of(v) for v in self.enum.values())))
        self.types = values.normal(self.types)
        return self


def _tightest(a: tuple | None, b: tuple | None, *, lower: bool) -> tuple | None:
    if a is None or b is None:
        return a or b
    return max(a, b, key=lambda x: bound_key(x, lower)) if lower else min(a, b, key=lambda x: bound_key(x, lower))


def bound_key(bound: tuple, lower: bool) -> tuple:
    """Orders bounds so that a greater key is a tighter lower bound / a looser upper bound."""
    value, exclusive, _keyword = bound
    return (value, (1 if exclusive else 0) if lower else (-1 if exclusive else 0))


def join_schemas(a: dict, b: dict) -> dict:
    """Each key's schemas from both (all must hold)."""
    out = dict(a)
    for key, schemas in b.items():
        out[key] = out.get(key, ()) + schemas
    return out


def anything(line: int) -> Flat:
    return Flat(line=line)


def nothing(line: int) -> Flat:
    return Flat(line=line, types=frozenset())
