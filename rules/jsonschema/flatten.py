"""Schemas (tuples of raw nodes) -> their alternatives as Flats: $ref followed, allOf merged."""
from __future__ import annotations

import dataclasses

from ..limits import MAX_JSONSCHEMA_ALTERNATIVES
from ..model import SchemaError
from . import content, values
from .drafts import Draft
from .flat import (CONTAINS_COUNTS, LOWER_BOUNDS, UPPER_BOUNDS, Flat, Unevaluated, anything, bound_key,
                   join_schemas, nothing)
from .keywords import ANNOTATIONS
from .parse import Parsed
from .refs import External

TOO_MANY = "anyOf/oneOf/allOf combine into more than {limit} alternatives"
# What a subschema applying in place evaluates, as unevaluatedProperties sees it (`not` evaluates
# nothing: its annotations are dropped).
EVALUATES_ANY = frozenset({"patternProperties", "additionalProperties", "unevaluatedProperties"})
IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
IN_PLACE_SINGLE = ("if", "then", "else")


class TooManyAlternatives(SchemaError):
    """Over MAX_JSONSCHEMA_ALTERNATIVES: a caller may compare the parts apart instead."""


class Flattener:
    """Alternatives of the schemas of one document, memoised (walks revisit the same nodes)."""

    def __init__(self, doc: Parsed):
        self.doc = doc
        self._memo: dict[tuple, list[Flat]] = {}
        self._active: set[int] = set()
        self._evaluated: dict[tuple, tuple] = {}  # _may_evaluate's answers

    def alternatives(self, schemas: tuple, line: int) -> list[Flat]:
        key = (tuple(map(id, schemas)), line)
        if key not in self._memo:
            result = self._one(schemas[0], line) if schemas else [anything(line)]
            for raw in schemas[1:]:
                result = self._product(result, self._one(raw, line), line)
            self._memo[key] = result
        return self._memo[key]

    def _product(self, left: list[Flat], right: list[Flat], line: int) -> list[Flat]:
        if len(left) * len(right) > MAX_JSONSCHEMA_ALTERNATIVES:
            raise TooManyAlternatives(self.doc.path, line, TOO_MANY.format(limit=MAX_JSONSCHEMA_ALTERNATIVES))
        return [a.merge(b) for a in left for b in right]

    def _one(self, raw: object, line: int) -> list[Flat]:
        node = self.doc.refs.resolve(raw)
        line = getattr(raw, "line", line)
        if isinstance(node, External):
            return [Flat(line=line, externals=frozenset({node.ref}))]
        if node is True or node is False:
            return [anything(line) if node else nothing(line)]
        if id(node) in self._active:
            return [anything(line)]  # a schema that contains itself: the revisit adds nothing new
        self._active.add(id(node))
        try:
            return self._combine(node, line)
        finally:
            self._active.discard(id(node))

    def _combine(self, node: dict, line: int) -> list[Flat]:
        stated = own(node, self.doc.draft, getattr(node, "line", line))
        result = [stated]
        if not self.doc.refs.is_plain_ref(node):  # each reference applies beside the siblings
            for keyword in self.doc.refs.keywords_in(node):
                target = self.doc.refs.target(node, keyword)
                result = self._product(result, self._one(target, line), line)
        for sub in node.get("allOf", ()):
            result = self._product(result, self._one(sub, line), line)
        if self._always_twice(node.get("oneOf", ())):
            result = self._product(result, [nothing(line)], line)
        for keyword in ("anyOf", "oneOf"):
            if keyword in node:
                options = [flat.labelled(keyword, node[keyword], index)
                           for index, sub in enumerate(node[keyword]) for flat in self._one(sub, line)]
                result = self._product(result, options, line)
        if "unevaluatedProperties" in node and self.doc.draft.reads("unevaluatedProperties"):
            result = [self._unevaluated(flat, node["unevaluatedProperties"]) for flat in result]
        asks = self._triggered(stated.dep_schemas, stated.line) if stated.dep_schemas else {}
        if not asks:
            return result
        return [dataclasses.replace(flat, triggered=join_schemas(flat.triggered, asks)) for flat in result]

    def _triggered(self, dependent: dict, line: int) -> dict:
        """Trigger -> what its own dependent schema (of `dependent`, an object's) asks of it
        through its content model, where that has one alternative (one of several: not sure,
        unless each refuses the trigger: then no object holds it, as where the dependent schema
        is `false` or `{"not": {}}`)."""
        asks = {}
        for trigger, schemas in dependent.items():
            try:
                alternatives = self.alternatives(schemas, line)
            except TooManyAlternatives:
                continue
            if all(_refuses(each, trigger) for each in alternatives):
                asks[trigger] = (False,)
            elif len(alternatives) == 1 and trigger not in alternatives[0].props:
                closes = content.closing(alternatives[0], trigger)
                if closes:
                    asks[trigger] = closes
        return asks

    def _unevaluated(self, flat: Flat, schema) -> Flat:
        """`flat`, an alternative of an object with `unevaluatedProperties`, holding the keyword
        with what the object evaluates before it."""
        closure = Unevaluated(names=frozenset(flat.props), patterns=tuple(flat.pattern_props),
                              schemas=(schema,), evaluates_all=bool(flat.closures),
                              may_evaluate=self._may_evaluate(flat.evaluators()),
                              inner=flat.unevaluated)
        return dataclasses.replace(flat, unevaluated=flat.unevaluated + (closure,))

    def _may_evaluate(self, raws: list) -> frozenset | None:
        """The property names `raws` may evaluate where they hold, or None: any name (a pattern,
        an additionalProperties or unevaluatedProperties, a reference outside the file). Read
        from the schema objects applying in place, each once: no alternatives are formed, so
        neither their count nor their product limits it."""
        key = tuple(map(id, raws))
        if key not in self._evaluated:
            self._evaluated[key] = (raws, self._read_evaluated(raws))  # raws kept: their ids stay theirs
        return self._evaluated[key][1]

    def _read_evaluated(self, raws: list) -> frozenset | None:
        names: set = set()
        seen: set = set()
        pending = list(raws)
        while pending:
            node = self.doc.refs.resolve(pending.pop())
            if isinstance(node, External):
                return None
            if not isinstance(node, dict) or id(node) in seen:
                continue  # true, false, or met before: nothing more to evaluate
            seen.add(id(node))
            read = {key: value for key, value in node.items() if self.doc.draft.reads(key)}
            if not EVALUATES_ANY.isdisjoint(read):
                return None
            names.update(read.get("properties", ()))
            pending.extend(self.doc.refs.target(node, keyword) for keyword in self.doc.refs.keywords_in(node))
            pending.extend(sub for keyword in IN_PLACE_LISTS for sub in read.get(keyword, ()))
            pending.extend(read[keyword] for keyword in IN_PLACE_SINGLE if keyword in read)
            pending.extend(read.get("dependentSchemas", {}).values())
        return frozenset(names)

    def _always_twice(self, options) -> bool:
        """Whether two options accept every value: then each value matches both, and `oneOf`
        (exactly one) none (draft-04 `{"const": "V1"}` options: the draft ignores `const`)."""
        draft = self.doc.draft
        always = 0
        for raw in options:
            option = self.doc.refs.resolve(raw)
            if option is True or (isinstance(option, dict) and not self.doc.refs.keywords_in(option) and all(
                    key in ANNOTATIONS or not draft.reads(key) for key in option)):
                always += 1
        return always >= 2


def own(node: dict, draft: Draft, line: int) -> Flat:
    """The facts a schema object states itself (not through allOf/anyOf/oneOf), read as its
    draft's validators read them: a keyword the draft lacks constrains nothing."""
    read = {key: value for key, value in node.items() if draft.reads(key)}
    flat = Flat(line=line, lines=dict(node.key_lines), holders={key: node for key in node}, sources=(id(node),))
    kind = read.get("type")
    if kind is not None:
        flat.types = frozenset([kind] if isinstance(kind, str) else kind)
    if "enum" in read:
        flat.enum = {values.canon(v): v for v in read["enum"]}
    if "const" in read:
        const = {values.canon(read["const"]): read["const"]}
        flat.enum = const if flat.enum is None else {k: v for k, v in const.items() if k in flat.enum}
    flat.counts = {k: read[k] for k in LOWER_BOUNDS + UPPER_BOUNDS if k in read and k not in CONTAINS_COUNTS}
    if "contains" in read:  # the counts are read beside `contains` only; at least one must match
        flat.counts.update({k: read[k] for k in CONTAINS_COUNTS if k in read})
        if "minContains" not in flat.counts:
            flat.counts["minContains"] = 1
            flat.lines.setdefault("minContains", node.key_line("contains"))
    flat.lower, flat.upper = _numeric_bounds(read, draft)
    flat.multiples = (read["multipleOf"],) if "multipleOf" in read else ()
    flat.patterns = frozenset([read["pattern"]]) if "pattern" in read else frozenset()
    flat.formats = frozenset([read["format"]]) if "format" in read else frozenset()
    flat.unique = read.get("uniqueItems") is True
    required = read.get("required")
    if isinstance(required, list):  # draft-03 style booleans are rejected by the meta-schema
        flat.required = dict.fromkeys(required, node.key_line("required"))
    props = read.get("properties", {})
    flat.props = {name: (schema,) for name, schema in props.items()}
    flat.prop_lines = props.first_key_lines() if props else {}
    flat.pattern_props = {k: (v,) for k, v in read.get("patternProperties", {}).items()}
    closed = "additionalProperties" if "additionalProperties" in read else "unevaluatedProperties"
    flat.additional = (read[closed],) if closed in read else ()
    if "additionalProperties" in read:
        flat.closures = ((frozenset(props), tuple(flat.pattern_props), flat.additional),)
    _items(flat, read, node, draft)
    _dependencies(flat, read)
    flat.nots = (read["not"],) if "not" in read else ()
    flat.contains = (read["contains"],) if "contains" in read else None
    flat.property_names = (read["propertyNames"],) if "propertyNames" in read else ()
    # `then`/`else` without `if` are ignored by validators (and so here)
    flat.conditions = ((read["if"], read.get("then"), read.get("else")),) if "if" in read else ()
    flat.deprecated, flat.has_default = read.get("deprecated") is True, "default" in read
    return flat.finish()


def _numeric_bounds(node: dict, draft: Draft) -> tuple:
    lower = upper = None
    for keyword, exclusive_keyword, is_lower in (("minimum", "exclusiveMinimum", True),
                                                 ("maximum", "exclusiveMaximum", False)):
        found = []
        if keyword in node:
            exclusive = draft is Draft.DRAFT4 and node.get(exclusive_keyword) is True
            found.append((node[keyword], exclusive, exclusive_keyword if exclusive else keyword))
        if draft is not Draft.DRAFT4 and isinstance(node.get(exclusive_keyword), (int, float)) \
                and not isinstance(node.get(exclusive_keyword), bool):
            found.append((node[exclusive_keyword], True, exclusive_keyword))
        pick = max if is_lower else min  # the tighter of "minimum" and "exclusiveMinimum"
        best = pick(found, key=lambda b: bound_key(b, is_lower), default=None)
        lower, upper = (best, upper) if is_lower else (lower, best)
    return lower, upper


def _items(flat: Flat, read: dict, node: dict, draft: Draft) -> None:
    positional = read.get(draft.tuple_keyword)
    if isinstance(positional, list):
        flat.prefix = [(schema,) for schema in positional]
        rest_keyword = "items" if draft is Draft.DRAFT2020 else "additionalItems"
    else:
        rest_keyword = "items"
    if rest_keyword not in read and "unevaluatedItems" in read:
        rest_keyword = "unevaluatedItems"
    flat.rest = (read[rest_keyword],) if rest_keyword in read else ()
    if rest_keyword in read:
        flat.lines.setdefault("items", node.key_line(rest_keyword))


def _refuses(flat: Flat, name: str) -> bool:
    """Whether no object holding `name` is valid under `flat`: nothing is (`false`, no type
    left, a `not` of a schema every value meets or of `{"required": [name]}`), or `name` meets a
    `false` there."""
    if flat.empty or any(content.is_open((schema,)) or _requires_only(schema, name) for schema in flat.nots):
        return True
    return content.is_closed(flat.props.get(name, ()) + content.pattern_match(flat, name)) or \
        (name not in flat.props and content.closes_out(flat, name))


def _requires_only(schema, name: str) -> bool:
    return isinstance(schema, dict) and schema.keys() == {"required"} and schema["required"] == [name]


def _dependencies(flat: Flat, node: dict) -> None:
    for name, value in node.get("dependencies", {}).items():
        if isinstance(value, list):
            flat.dep_required[name] = tuple(value)
        else:
            flat.dep_schemas[name] = (value,)
    for name, value in node.get("dependentRequired", {}).items():
        flat.dep_required[name] = tuple(dict.fromkeys(flat.dep_required.get(name, ()) + tuple(value)))
    for name, value in node.get("dependentSchemas", {}).items():
        flat.dep_schemas[name] = flat.dep_schemas.get(name, ()) + (value,)
