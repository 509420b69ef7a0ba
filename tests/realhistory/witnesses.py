"""Instances that confirm (or fail to confirm) our JSON Schema error findings, by the `jsonschema`
library alone.

A finding is confirmed when some candidate document is valid under OLD, invalid under NEW and,
under the lenient policy, holds only property names that the old schema declares where the
document uses them: OLD is closed for that check by adding `unevaluatedProperties: false` to
every schema in a value position (the root, `properties`, `items`, ...) whose in-place
subschemas (`allOf`/`anyOf`/`oneOf`/`if`/`then`/`else`, local `$ref`) declare `properties`, and
validated with draft 2019-09, the first draft where `unevaluatedProperties` sees the names the
matched branch evaluated (a name listed in `required` counts as declared). Candidates: the engine's own example (rules.examples) and a small
generator that knows nothing of the finding's rule: a minimal OLD document, then that document
with each value drawn from both schemas (and plain values) put at the finding's location, or
the location's property removed. Patterns are matched by Python's `re` (the library's default),
formats are not asserted, and no reference is retrieved.
"""
from __future__ import annotations

import copy
import json
import re

from urllib.parse import urljoin

import jsonschema
import referencing
import referencing.jsonschema

from rules.examples.instances import EXTRA, ITEMS
from rules.examples.jsonschema import _location

from .repair import Slow, bounded, mended

MAX_CANDIDATES = 400  # generated documents tried per finding
VALIDATION_SECONDS = 2  # CPU for one document's validation by one schema
MAX_GONE_VALUES = 12  # values tried for each property NEW no longer declares
MAX_MENDED = 12  # starts mended into valid OLD documents per finding
MAX_MENDED_CANDIDATES = 80  # documents with a value at the finding's place, mended
FIRST_STARTS = 3  # starts every value is tried in before the others
MAX_DISCRIMINATORS = 30  # values tried for a required name of the place
MAX_DEPTH = 12  # nesting followed by the minimal-document builder
MAX_IN_PLACE = 64  # schemas gathered for one value through its alternatives
PLAIN = ("x", "", 0, 1, -1, 1.5, True, False, None, [], {}, ["x"], ["x", "x"], [1], {"x": "x"},
         {"": "x"}, "x" * 300)
# Names tried for a map's entry: a `propertyNames` pattern often wants dots or digits.
EXTRA_NAMES = ("x-extra", "a.b", "a", "0")
# The alternatives a finding's path passes through: the data's place without them.
ALTERNATIVE = re.compile(r"/(?:oneOf|anyOf|allOf)\[\d+\]")
VALUE_POSITIONS = ("properties", "patternProperties", "dependentSchemas")
DEFINITIONS = ("definitions", "$defs")  # a definition may be an allOf branch: not closed itself
IN_PLACE = ("allOf", "anyOf", "oneOf")
IN_PLACE_ONE = ("if", "then", "else")
VALUE_ONE = ("additionalProperties", "items", "additionalItems", "contains", "unevaluatedItems")


def _validator(schema, cls=None, files=None):
    cls = cls or jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
    # Only the given files: a `$ref` to any other document is unresolvable, never fetched.
    return cls(schema, registry=registry(schema, files or {}))


def registry(schema, files: dict) -> referencing.Registry:
    """The sibling files (name -> schema) that the `$ref`s of `schema` and of those files
    name by their last segment, each under the URI it is named by (as written, and resolved
    against the schema's `$id`), as the engine finds them in a checkout."""
    base = schema.get("$id") or schema.get("id") or "" if isinstance(schema, dict) else ""
    named = [each["$ref"] for each in _objects([schema, *files.values()]) if isinstance(each.get("$ref"), str)]
    resources = []
    for ref in named:
        uri = ref.split("#", 1)[0]
        contents = files.get(uri.rsplit("/", 1)[-1]) if uri else None
        if contents is None:
            continue
        dialect = contents.get("$schema") if isinstance(contents, dict) else None
        spec = referencing.jsonschema.specification_with(
            dialect or "", default=referencing.jsonschema.DRAFT7)
        resource = spec.create_resource(contents)
        resources += [(each, resource) for each in {uri, urljoin(base, uri)} if isinstance(base, str)]
    return referencing.Registry().with_resources(resources)


def _objects(node):
    """Every JSON object inside `node`, itself included."""
    if isinstance(node, dict):
        yield node
        for child in node.values():
            yield from _objects(child)
    elif isinstance(node, list):
        for child in node:
            yield from _objects(child)


def _valid(validator, instance) -> bool | None:
    """None when the library cannot evaluate the schema (an odd keyword, an unresolved $ref),
    or not within VALIDATION_SECONDS of CPU (repair.bounded)."""
    try:
        return bounded(lambda: validator.is_valid(instance), VALIDATION_SECONDS)
    except Slow:
        return None
    except Exception:  # noqa: BLE001 - the library's own failure: nothing confirmed either way
        return None


def _resolve(root, node, seen=()):
    """A local `#/...` reference followed (once per chain); anything else as it is."""
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) \
            and node["$ref"].startswith("#") and node["$ref"] not in seen:
        seen = (*seen, node["$ref"])
        target = root
        for step in node["$ref"][1:].split("/")[1:]:
            step = step.replace("~1", "/").replace("~0", "~")
            if isinstance(target, list) and step.isdigit() and int(step) < len(target):
                target = target[int(step)]
            elif isinstance(target, dict) and step in target:
                target = target[step]
            else:
                return node
        node = target
    return node


def _declares_properties(root, node, seen: set) -> bool:
    node = _resolve(root, node)
    if not isinstance(node, dict) or id(node) in seen:
        return False
    seen.add(id(node))
    if "properties" in node:
        return True
    branches = [b for k in IN_PLACE for b in node.get(k, []) if isinstance(node.get(k), list)]
    branches += [node[k] for k in IN_PLACE_ONE if k in node]
    return any(_declares_properties(root, b, seen) for b in branches)


def closed(schema):
    """OLD with undeclared property names refused where the schema declares some (see above)."""
    out = copy.deepcopy(schema)
    if isinstance(out, dict) and out.get("$schema", "").find("draft-04") >= 0:
        _draft4_bounds(out)
    if _ref_overrides(schema):
        _ref_alone(out)

    def close(node, value_position: bool):
        if isinstance(node, list):
            for child in node:
                close(child, value_position)
            return
        if not isinstance(node, dict):
            return
        for key, child in list(node.items()):
            if key in VALUE_POSITIONS and isinstance(child, dict):
                for each in child.values():
                    close(each, True)
            elif key in DEFINITIONS and isinstance(child, dict):
                for each in child.values():
                    close(each, False)
            elif key in VALUE_ONE or key == "prefixItems":
                close(child, True)
            elif key in IN_PLACE or key in IN_PLACE_ONE or key == "not":
                close(child, False)
        required = node.get("required") if isinstance(node.get("required"), list) else []
        if required and isinstance(node.setdefault("properties", {}), dict):
            for name in required:  # a required name is declared too, by any schema
                if isinstance(name, str):
                    node["properties"].setdefault(name, {})
        if value_position and "unevaluatedProperties" not in node \
                and _declares_properties(out, node, set()):
            node["unevaluatedProperties"] = False

    close(out, True)
    if isinstance(out, dict):
        out["$schema"] = "https://json-schema.org/draft/2019-09/schema"
    return out


# Before 2019-09 a `$ref` stands alone: the keywords beside it are ignored (these are kept,
# they hold or name what references reach).
REF_NEIGHBOURS = ("$ref", "definitions", "$defs", "$schema", "$id", "id")


def _ref_overrides(schema) -> bool:
    """Whether the schema's draft ignores the keywords beside a `$ref` (draft-07 and earlier,
    the validator's default)."""
    validator = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
    return validator in (jsonschema.Draft3Validator, jsonschema.Draft4Validator,
                         jsonschema.Draft6Validator, jsonschema.Draft7Validator)


def _ref_alone(node) -> None:
    """Every schema holding a `$ref` stripped of the keywords its draft ignores beside it."""
    for each in _objects(node):  # each is stripped before its children are visited
        if isinstance(each.get("$ref"), str):
            for key in [k for k in each if k not in REF_NEIGHBOURS]:
                del each[key]


def _draft4_bounds(node) -> None:
    """draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum` in 2019-09's numeric form."""
    if isinstance(node, list):
        for child in node:
            _draft4_bounds(child)
        return
    if not isinstance(node, dict):
        return
    for exclusive, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(node.get(exclusive), bool):
            if node.pop(exclusive) and bound in node:
                node[exclusive] = node.pop(bound)
    for child in node.values():
        _draft4_bounds(child)


class Confirmer:
    """Whether a document shows a backward break between two schemas, by the library alone."""

    def __init__(self, old, new, *, lenient: bool, old_files=None, new_files=None):
        """`old_files`/`new_files`: the files beside each side (name -> schema) its `$ref`s
        may name."""
        self.old, self.new = _validator(old, files=old_files), _validator(new, files=new_files)
        self.new_files = new_files or {}
        self.closed = _validator(closed(old), jsonschema.Draft201909Validator,
                                 files=old_files) if lenient else None
        self._old_root = old

    def mend(self, document):
        """`document` rewritten until OLD (closed, under lenient) accepts it, or None."""
        def build(schema):
            return minimal(self._old_root, schema)
        for validator in filter(None, (self.closed, self.old)):
            document = mended(validator, document, build) if document is not None else None
        return document

    def old_accepts(self, instance) -> bool:
        """Whether OLD (and OLD closed, under lenient) accepts the document."""
        return _valid(self.old, instance) is True and (self.closed is None or _valid(self.closed, instance) is True)

    def confirms(self, instance) -> bool:
        return self.old_accepts(instance) and _valid(self.new, instance) is False


def _mentioned(schema, out: list) -> None:
    if isinstance(schema, dict):
        for key in ("enum", "examples"):
            if isinstance(schema.get(key), list):
                out.extend(schema[key])
        for key in ("const", "default"):
            if key in schema:
                out.append(schema[key])
        for child in schema.values():
            _mentioned(child, out)
    elif isinstance(schema, list):
        for child in schema:
            _mentioned(child, out)


def pool(old, new) -> list:
    """Distinct values both schemas mention, then plain ones."""
    found: list = []
    _mentioned([old, new], found)
    return _distinct([*found, *PLAIN])


def _distinct(values: list) -> list:
    seen, out = set(), []
    for value in values:
        key = json.dumps(value, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out


def _local(old, new, location: tuple) -> list:
    """Values for the place itself, tried before the whole pool: what either side's schema
    there mentions, and an array of two equal items (`uniqueItems`) of OLD's item schema."""
    found: list = []
    for root in (old, new):
        node = _at(root, root, location)
        if isinstance(node, dict):
            _mentioned({k: v for k, v in node.items() if k not in DEFINITIONS}, found)
    node = _at(old, old, location)
    if isinstance(node, dict) and isinstance(node.get("items"), dict):
        item = minimal(old, node["items"])
        found.append([item, item])
    return _discriminators(old, new, location) + found  # few: first


def _discriminators(old, new, location: tuple) -> list:
    """Objects for the place holding a required name with a value either side mentions for
    it: a discriminator ("type": "project.v1") that only one side's alternatives take."""
    node = _at(old, old, location)
    if not isinstance(node, dict) or not isinstance(node.get("required"), list):
        return []
    found: list = []
    for name in [n for n in node["required"][:3] if isinstance(n, str)]:
        named: list = []
        for root in (old, new):
            _named_values(root, _at(root, root, location), name, named, 0)
        found[:0] = [{name: v} for v in _distinct(named)[:MAX_DISCRIMINATORS]]
    return found


def _named_values(root, node, name: str, out: list, depth: int) -> None:
    """The values `node` and its in-place alternatives mention for the property `name`."""
    node = _resolve(root, node)
    if not isinstance(node, dict) or depth > MAX_DEPTH:
        return
    properties = node.get("properties") if isinstance(node.get("properties"), dict) else {}
    if name in properties:
        _mentioned(properties[name], out)
    for key in IN_PLACE:
        for branch in node.get(key) if isinstance(node.get(key), list) else []:
            _named_values(root, branch, name, out, depth + 1)
    if "not" in node:
        _named_values(root, node["not"], name, out, depth + 1)


def _flatten(root, node: dict, depth: int) -> dict:
    """`node` with its `allOf` and the first alternative of its `anyOf`/`oneOf` merged in."""
    merged = dict(node)
    for key in ("allOf", "anyOf", "oneOf"):
        branches = node.get(key) if isinstance(node.get(key), list) else []
        for branch in branches if key == "allOf" else branches[:1]:
            branch = _resolve(root, branch)
            if not isinstance(branch, dict) or depth > MAX_DEPTH:
                continue
            branch = _flatten(root, branch, depth + 1)
            properties = branch.get("properties") if isinstance(branch.get("properties"), dict) else {}
            merged["properties"] = {**(merged.get("properties") or {}), **properties}
            merged["required"] = [*merged.get("required", []), *branch.get("required", [])]
            for keyword in ("type", "const", "enum"):
                if keyword in branch and keyword not in node:
                    merged[keyword] = branch[keyword]
    return merged


def minimal(root, node, depth: int = 0):
    """A small document for `node`: its const or first enum value, required properties filled,
    the first alternative of an `anyOf`/`oneOf` merged in. Not necessarily valid."""
    node = _resolve(root, node)
    if not isinstance(node, dict) or depth > MAX_DEPTH:
        return {} if node is not False else None
    if "const" in node:
        return node["const"]
    if isinstance(node.get("enum"), list) and node["enum"]:
        return node["enum"][0]
    merged = _flatten(root, node, depth)
    if "const" in merged or "enum" in merged:
        return minimal(root, {k: merged[k] for k in ("const", "enum") if k in merged}, depth)
    kind = merged.get("type")
    kind = kind[0] if isinstance(kind, list) and kind else kind
    if kind is None:
        kind = "object" if "properties" in merged or "required" in merged else "string"
    if kind == "object":
        properties = merged.get("properties") if isinstance(merged.get("properties"), dict) else {}
        return {name: minimal(root, properties.get(name, {}), depth + 1)
                for name in merged.get("required", []) if isinstance(name, str)}
    if kind == "array":
        count = merged.get("minItems", 0) if isinstance(merged.get("minItems"), int) else 0
        items = merged.get("items", {})
        return [minimal(root, items if isinstance(items, dict) else {}, depth + 1)] * min(count, 3)
    if kind in ("integer", "number"):
        low = merged.get("minimum", merged.get("exclusiveMinimum"))
        return low if isinstance(low, (int, float)) and not isinstance(low, bool) else 0
    return {"boolean": False, "null": None}.get(kind, "x" * min(merged.get("minLength", 1)
                                                               if isinstance(merged.get("minLength"), int) else 1, 64))


def _put(document, location: tuple, value, extra: str = EXTRA_NAMES[0]):
    """A copy of `document` with `value` at `location` (parents created; `extra` names a
    property of a map); None if it cannot be."""
    out = copy.deepcopy(document)
    if not location:
        return value
    parent = out
    for step, following in zip(location, location[1:] + (None,)):
        if step == ITEMS or (isinstance(step, tuple) and step[0] == "index"):
            if not isinstance(parent, list):
                return None
            index = step[1] if step != ITEMS else 0
            while len(parent) <= index:
                parent.append({} if following not in (ITEMS, None) else None)
            key = index
        elif isinstance(parent, dict):
            key = extra if step == EXTRA else step[1]
        else:
            return None
        if following is None:
            if value is _REMOVE:
                if isinstance(parent, dict):
                    parent.pop(key, None)
                return out
            parent[key] = value
            return out
        if not isinstance(parent[key] if isinstance(parent, list) else parent.get(key), (dict, list)):
            parent[key] = [] if following == ITEMS or following[0] == "index" else {}
        parent = parent[key]
    return out


_REMOVE = object()


def _at(root, node, location: tuple):
    """The subschema of OLD that describes the value at `location` (None when unsure)."""
    for step in location:
        node = _resolve(root, node)
        if not isinstance(node, dict):
            return None
        places = _in_place(root, node)
        if step == ITEMS or step[0] == "index":
            found = [p["items"] for p in places if isinstance(p.get("items"), dict)]
        elif step == EXTRA:
            found = [p["additionalProperties"] for p in places
                     if isinstance(p.get("additionalProperties"), dict)]
            found += [v for p in places for v in (p.get("patternProperties") or {}).values()]
        else:
            found = [p["properties"][step[1]] for p in places
                     if isinstance(p.get("properties"), dict) and step[1] in p["properties"]]
        if not found:
            return None
        node = found[0]
    return _resolve(root, node)


def _in_place(root, node) -> list:
    """The schemas that describe the same value as `node`: itself, its alternatives and
    `then`/`else`, and theirs in turn (an `anyOf` inside an `allOf` member), nearest first."""
    places, seen = [node], {id(node)}
    for place in places:  # grows as it goes: breadth first
        if len(places) > MAX_IN_PLACE:
            break
        branches = [b for k in IN_PLACE if isinstance(place.get(k), list) for b in place[k]]
        for branch in (_resolve(root, b) for b in branches + [place[k] for k in IN_PLACE_ONE[1:] if k in place]):
            if isinstance(branch, dict) and id(branch) not in seen:
                seen.add(id(branch))
                places.append(branch)
    return places


def _branch_documents(root, base, location: tuple, extra: str):
    """`base` with a minimal document of the located subschema, then of each of its
    alternatives, put there."""
    node = _at(root, root, location)
    if not isinstance(node, dict):
        return
    rest = {k: v for k, v in node.items() if k not in ("oneOf", "anyOf")}
    branches = [b for key in ("oneOf", "anyOf") if isinstance(node.get(key), list) for b in node[key]]
    for branch in [None, *branches]:
        document = _put(base, location, minimal(root, node if branch is None else
                                                {**rest, "oneOf": [branch]}), extra)
        if document is not None:
            yield document


def _inside(path: str) -> tuple:
    """The steps after an alternative in a path (`/oneOf[1].type` -> ("prop", "type"))."""
    keyword = path[path.find("/"):] if "/" in path else ""
    for marker in ("/oneOf[", "/anyOf["):
        if keyword.startswith(marker) and "]" in keyword:
            return _location("$" + keyword[keyword.index("]") + 1:])
    return ()


def _pattern_steps(old, new, path: str) -> str:
    """`…/patternProperties/<regex>…` written as a map's entry (`….*…`), for the regexes
    either schema declares: the entry then gets a name from EXTRA_NAMES."""
    keys = {key for each in _objects([old, new]) if isinstance(each.get("patternProperties"), dict)
            for key in each["patternProperties"]}
    for key in sorted(keys, key=len, reverse=True):
        path = path.replace(f"/patternProperties/{key}", ".*")
    return path


def _gone(old, new, location: tuple) -> list:
    """(location, OLD's schema) of each property that OLD declares beside the location's
    last property and NEW does not."""
    if not location or location[-1] in (ITEMS, EXTRA) or location[-1][0] != "prop":
        return []
    was, now = _at(old, old, location[:-1]), _at(new, new, location[:-1])
    if not isinstance(was, dict) or not isinstance(now, dict):
        return []
    before = was.get("properties") if isinstance(was.get("properties"), dict) else {}
    after = now.get("properties") if isinstance(now.get("properties"), dict) else {}
    return [(location[:-1] + (("prop", name),), schema)
            for name, schema in before.items() if name not in after]


def _variants(root, schema) -> list:
    """Small documents of `schema`: its minimal one, one of each of its alternatives, and, for
    an array, one holding an item of each alternative its items take (a removed list of
    patterns whose items were strings or objects: the new name's schema takes only strings)."""
    node = _resolve(root, schema)
    out = [minimal(root, schema)]
    if not isinstance(node, dict):
        return out
    out += [minimal(root, branch) for key in ("oneOf", "anyOf") if isinstance(node.get(key), list)
            for branch in node[key]]
    items = _resolve(root, node.get("items"))
    if isinstance(items, dict):
        out += [[minimal(root, branch)] for key in ("oneOf", "anyOf") if isinstance(items.get(key), list)
                for branch in items[key]]
    return _distinct(out)


def generated(old, new, path: str, mend=None):
    """Candidates from the finding's path alone: at most MAX_CANDIDATES documents. With
    `mend` (Confirmer.mend), each start is also tried mended into a valid OLD document, and
    the values are put into the mended starts first."""
    base = minimal(old, old)
    path = _pattern_steps(old, new, path)
    location = _location(path)
    # The finding's own place, through the alternatives its path names.
    deeper = max(location + _inside(path), _location(ALTERNATIVE.sub("", path)), key=len)
    # The place's own values, then plain ones (a type probe), then all the schemas mention.
    values = [_REMOVE, *_distinct([*_local(old, new, deeper), *PLAIN, *pool(old, new)])]
    starts = [(base, EXTRA_NAMES[0])]
    starts += [(minimal(old, {**old, "oneOf": [branch]}), EXTRA_NAMES[0]) for key in ("oneOf", "anyOf")
               for branch in (old.get(key) or [])[1:] if isinstance(old, dict)]
    # The deepest place OLD describes (a property the change added has no old schema).
    where = next((location[:n] for n in range(len(location), 0, -1)
                  if isinstance(_at(old, old, location[:n]), dict)), ())
    for extra in EXTRA_NAMES if EXTRA in where else EXTRA_NAMES[:1]:
        starts += [(start, extra) for start in _branch_documents(old, base, where, extra)]
    yield from (start for start, _extra in starts)  # few, and each a likely witness alone
    if mend is not None:
        fixed = [(mend(start), extra) for start, extra in starts[:MAX_MENDED]]
        fixed = [(start, extra) for start, extra in fixed if start is not None]
        yield from (start for start, _extra in fixed)
        starts = fixed + starts
    count = len(starts)
    for start, extra in starts[:MAX_MENDED]:  # a renamed property: old data holds the old name
        for place, schema in _gone(old, new, location):
            for value in [*_variants(old, schema), *values[1:MAX_GONE_VALUES]]:
                document = _put(start, place, value, extra)
                if document is not None:
                    yield document
                    count += 1
    # Each object holding the place, as a discriminator makes it: old data of another
    # alternative there (an extension's "type" that a new alternative now claims) holds none
    # of the place, and the values put at the place itself never make such an object.
    for prefix in range(len(deeper) - 1, 0, -1):
        for value in _discriminators(old, new, deeper[:prefix]):
            for start, extra in starts[:FIRST_STARTS]:
                document = _put(start, deeper[:prefix], value, extra)
                if document is not None:
                    yield document
                    count += 1
    mended_left = MAX_MENDED_CANDIDATES if mend is not None else 0
    # Each value in the first few starts, then in the others; the deepest place first.
    passes = [(prefix, group) for prefix in range(len(deeper), -1, -1)
              for group in (starts[:FIRST_STARTS], starts[FIRST_STARTS:]) if group]
    for prefix, group in passes:
        for value in values:
            for start, extra in group:
                document = _put(start, deeper[:prefix], value, extra) if prefix else (
                    None if value is _REMOVE else value)
                if document is None:
                    continue
                yield document
                count += 1
                if mended_left and prefix == len(deeper) and value is not _REMOVE:
                    # The value at the place, with what OLD then refuses around it mended
                    # (["x", "x"] where an enum wants ["es5", "es5"]).
                    mended_left -= 1
                    again = mend(document)
                    if again is not None and again != document:
                        yield again
                if count >= MAX_CANDIDATES:
                    return
