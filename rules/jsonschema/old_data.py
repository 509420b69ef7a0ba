"""What a document valid under the old schema can hold, given the alternative it matched.

An old document that matched an alternative of a `oneOf` matched none of that list's other
alternatives (else it was invalid). Under the lenient policy it also holds only the names that
its alternative declares (producers never write undeclared properties).
"""
from __future__ import annotations

import dataclasses
import json

from .. import jsontext
from ..model import Direction, SchemaError
from . import content, instances, regex_automaton, untouched, values
from .flat import Flat
from .keywords import ANNOTATIONS

HOLDING = "(a property held)"  # the file name of the schema `held_elsewhere` makes
# Keywords that say nothing about a value that is not an object.
OBJECT_ONLY = frozenset({"required", "properties", "additionalProperties", "patternProperties",
                         "dependencies", "dependentRequired", "dependentSchemas", "minProperties",
                         "maxProperties", "propertyNames", "unevaluatedProperties"})
OBJECT = frozenset({"object"})
# Keywords that every empty object meets (with `required` and `minProperties` empty).
EMPTY_OBJECT_KEYWORDS = frozenset({"type", "properties", "additionalProperties", "patternProperties",
                                   "propertyNames", "maxProperties", "dependencies", "dependentRequired",
                                   "dependentSchemas", "unevaluatedProperties", "required", "minProperties"})


def excluded(flat: Flat):
    """The raw alternatives old data matching `flat` failed: the other members of each oneOf."""
    for keyword, options, index in flat.choices:
        if keyword == "oneOf":
            yield from (option for other, option in enumerate(options) if other != index)


def cannot_match(ctx, old: Flat, new: Flat) -> bool:
    """Whether old data that matched `old` surely fails the new alternative `new`."""
    failed = list(excluded(old))
    taken = [options[index] for _keyword, options, index in new.choices]
    if any(untouched.same(ctx, gone, kept) for gone in failed for kept in taken):
        return True  # `new` still demands an alternative that such data failed
    for (old_keyword, old_options, matched), (_keyword, new_options, index) in zip(old.choices, new.choices):
        if old_keyword == "oneOf" and index != matched and index < len(old_options) \
                and Direction.FORWARD not in ctx.breaks((old_options[index],), (new_options[index],)):
            return True  # ... or one that accepts nothing more than an alternative it failed
    if as_matched(ctx, old) is not old and not content.may_overlap(as_matched(ctx, old), new):
        return True
    if ctx.lenient_assumes(any(not declares(old, name) for name in new.required)):
        return True  # `new` demands a name such data never holds
    if ctx.lenient_assumes(_holds_only_refused(ctx, old, new)):
        return True
    if _literals_refused(ctx, old, new):
        return True  # every value `new` allows is one such data cannot hold
    return any(_discriminated(old, new, name) or _discriminated(new, old, name)
               or _different_literals(ctx, old, new, name)
               for name in old.required.keys() | new.required.keys())


def _holds_only_refused(ctx, old: Flat, new: Flat) -> bool:
    """Such data is an object holding at least one property, every name it may hold is one
    `new` closes out: it requires one, or the empty object matched a sibling it failed."""
    held = names(old)
    if not held or not old.types <= OBJECT or not all(content.cannot_hold(new, n) for n in held):
        return False
    return bool(old.required) or any(_accepts_empty_object(ctx, gone) for gone in excluded(old))


def _literals_refused(ctx, old: Flat, new: Flat) -> bool:
    """`new` allows only strings and numbers (an enum) that `old` surely rejects: its every
    keyword is checked exactly for such values (`"enum": ["assembly"]` against `"pattern":
    "^c_"`)."""
    if new.enum is None or old.nots or old.externals or old.conditions or old.formats:
        return False
    listed = list(new.enum.values())
    return all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in listed) and not any(
        instances.accepts(old, v, format_assertion=ctx.options.format_assertion) for v in listed)


def _accepts_empty_object(ctx, raw: object) -> bool:
    """Whether the raw alternative surely accepts `{}` (only object keywords `{}` meets)."""
    try:
        node = ctx.old.refs.resolve(raw)
    except SchemaError:
        return False
    if node is True or node == {}:
        return True
    if not isinstance(node, dict) or node.get("required") or node.get("minProperties"):
        return False
    kind = node.get("type", "object")
    return (kind == "object" or (isinstance(kind, list) and "object" in kind)) \
        and node.keys() <= EMPTY_OBJECT_KEYWORDS | ANNOTATIONS


def as_matched(ctx, flat: Flat) -> Flat:
    """`flat` as old data that matched it alone can be: an object when a sibling of its oneOf
    says only object keywords (every other value matches that sibling too, and fails)."""
    if flat.types <= OBJECT or not any(_objects_only(ctx, gone) for gone in excluded(flat)):
        return flat
    key = ("as_matched", flat.identity)
    if key not in ctx.memo:
        ctx.memo[key] = (flat, dataclasses.replace(flat, types=values.meet(flat.types, OBJECT)).finish())
    return ctx.memo[key][1]


def _objects_only(ctx, raw: object) -> bool:
    try:
        node = ctx.old.refs.resolve(raw)
    except SchemaError:
        return False
    return isinstance(node, dict) and node.keys() <= OBJECT_ONLY | ANNOTATIONS


def declares(flat: Flat, name: str) -> bool:
    """Whether a producer writing `flat` may write the property `name` (lenient policy)."""
    if name in flat.props or name in flat.required:
        return True
    schemas, declared = content.fallback(flat, name)
    return declared and not content.is_closed(schemas)


def never_matches(ctx, old: Flat, flat: Flat) -> bool:
    """Whether no old data that matched `old` matches `flat` (lenient policy): `flat` requires
    a name `old` never holds (not declared, not even where a condition applies), and old data
    is an object or `flat` accepts objects alone."""
    objects = old.types <= OBJECT or flat.types <= OBJECT
    return objects and any(not declares(old, name) and name not in conditional_names(ctx, old)
                           for name in flat.required)


def conditional_names(ctx, flat: Flat) -> dict[str, list[tuple]]:
    """Name -> its schemas in each branch declaring it, for each name declared or required by a
    subschema that applies to the object only when a condition holds (`then`, `else`,
    dependentSchemas, draft-07 `dependencies`, dependentRequired): a lenient producer writes it
    where that applies."""
    key = ("conditional_names", flat.identity)
    if key not in ctx.memo:
        found: dict[str, list[tuple]] = {}
        branches = [branch for _if, *rest in flat.conditions for branch in rest if branch is not None]
        branches += [schema for schemas in flat.dep_schemas.values() for schema in schemas]
        for raw in branches:
            for branch in ctx.old_flats.alternatives((raw,), flat.line):
                for name in branch.props.keys() | branch.required.keys():
                    found.setdefault(name, []).append(branch.props.get(name, ()))
        for name in (name for names in flat.dep_required.values() for name in names):
            found.setdefault(name, []).append(())
        ctx.memo[key] = (flat, found)
    return ctx.memo[key][1]


def names(flat: Flat) -> set[str] | None:
    """The property names a producer writing `flat` may write (lenient policy), or None when
    patternProperties or an additionalProperties schema let it write names without end."""
    if flat.pattern_props or content.is_schema(flat.additional):
        return None
    return set(flat.props) | set(flat.required)


def _discriminated(a: Flat, b: Flat, name: str) -> bool:
    """A present `name` holds one of `a`'s literals and none of them is allowed by `b`
    (`"enum": ["delayed"]` against `"not": {"enum": ["delayed"]}`)."""
    allowed = content.literals(a.props.get(name, ()))
    if allowed is None:
        return False
    refused = set()
    for schema in b.props.get(name, ()):
        if isinstance(schema, dict) and isinstance(schema.get("not"), dict):
            refused |= content.literals((schema["not"],)) or set()
    return allowed <= refused


def _different_literals(ctx, old: Flat, new: Flat, name: str) -> bool:
    """`name` is required on one side and each side allows it only values the other does
    not (`"version": {"$ref": ".../v2"}` holding `"const": "2.0.0"` against `"2.1.0"`, or
    strings of `"pattern": "^2.0.0$"` against `"^2.1.0$"`)."""
    schemas = [tuple(_resolved(side, s) for s in flat.props.get(name, ()))
               for side, flat in ((ctx.old, old), (ctx.new, new))]
    allowed = [content.literals(each) for each in schemas]
    if None not in allowed:
        return not allowed[0] & allowed[1]
    patterns = [[s["pattern"] for s in each if isinstance(s, dict) and isinstance(s.get("pattern"), str)]
                for each in schemas]
    strings = any(isinstance(s, dict) and s.get("type") == "string" for each in schemas for s in each)
    return strings and all(len(each) == 1 for each in patterns) and regex_automaton.escape(
        frozenset({patterns[0][0], patterns[1][0]}), regex_automaton.NOTHING).contained


def _resolved(side, raw: object) -> object:
    try:
        return side.refs.resolve(raw)
    except SchemaError:
        return None


def rejected_elsewhere(ctx, old: Flat, siblings: tuple, name: str) -> bool:
    """Whether every old document that matched `old` without `name` also matched a sibling of
    the same oneOf, so no valid old document lacked `name` there."""
    lacking = dataclasses.replace(old, props={**old.props, name: (False,)},
                                  sources=old.sources + (("without", name),))
    within = ctx.within_old()
    return any(_exclusive(old, other) and Direction.BACKWARD not in within.trial(lacking, other)
               for other in siblings if other is not old)


def held_elsewhere(ctx, old: Flat, siblings: tuple, names: tuple) -> bool:
    """Whether every old document that matched `old` and holds the property reached by `names`
    (from `old` down) also matched a sibling of the same oneOf: no valid one held it there."""
    inner = None
    for name in reversed(names[1:]):
        inner = {"required": [name], "properties": {name: inner}} if inner else {"required": [name]}
    first, below = names[0], (jsontext.loads(json.dumps(inner), HOLDING),) if inner else ()
    holding = dataclasses.replace(old, required={**old.required, first: old.line},
                                  props={**old.props, first: old.props.get(first, ()) + below},
                                  sources=old.sources + (("holding", names),))
    within = ctx.within_old()
    return any(_exclusive(old, other) and Direction.BACKWARD not in within.trial(holding, other)
               for other in siblings if other is not old)


def _exclusive(a: Flat, b: Flat) -> bool:
    """Whether `a` and `b` took different members of one oneOf list (no data matches both)."""
    return any(ka == kb == "oneOf" and la is lb and ia != ib
               for ka, la, ia in a.choices for kb, lb, ib in b.choices)

