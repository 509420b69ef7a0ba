"""JSON Schema examples: an instance the writer's schema accepts and the reader's rejects, checked
with `jsonschema` for each version's draft and ECMA-262 patterns (regress), as the parser uses."""
from __future__ import annotations

import json
import re

from ..jsonschema import drafts
from ..jsonschema.refs import External
from ..model import Example, Outcome, Policy, Side
from .budget import Budget, TooBig, instance_path, quoted_names, short, too_big
from .instances import EXTRA, ITEMS, Instance, Pool, leads_to

AT = "{message} (at {where})"
# The instance fails at the finding's element, and the whole reader for another change as well.
ALSO = "{error} (the {reader} schema also rejects it for another change: {other})"
# Keywords whose next path segment is a property name the instance should hold.
NAMES_A_PROPERTY = ("dependentRequired", "dependentSchemas", "dependencies")
STEP = re.compile(r'\.(?P<name>[A-Za-z_][A-Za-z0-9_]*)|\[(?P<quoted>"(?:[^"\\]|\\.)*")\]'
                  r'|\[(?P<index>\d*)\]|\.(?P<star>\*)')


class Finder:
    """Validators for both versions (built once) and a pool of values from both documents."""

    def __init__(self, old, new, options):
        self.parsed = {Side.OLD: old, Side.NEW: new}
        assert_formats = getattr(options, "format_assertion", False)
        self.validators = {side: _validator(p, formats=assert_formats) for side, p in self.parsed.items()}
        self.pool = Pool(old.root, new.root)
        self.strict = options.policy is Policy.STRICT

    def find(self, finding, *, writer: Side, budget: Budget) -> Example | None:
        reader = Side.NEW if writer is Side.OLD else Side.OLD
        location = _location(finding.path)
        names = quoted_names(finding.message)
        parsed, check = self.parsed[writer], self.validators[writer]

        def valid(node, value) -> bool:
            return _valid(check, node, value)

        if not budget.spend():
            return None
        first = Instance(_viewer(parsed), valid, self.pool, location=location, overrides={},
                         strict=self.strict)
        try:
            first.value(parsed.root)
        except TooBig:  # even the default instance is over the limit: no example is shown
            budget.oversized = True
            return None
        known = {point.where for point in first.points}
        opened = []  # (overrides, the choice points they brought in), for the second round
        self._also = None  # an instance failing at the element and elsewhere too, kept in reserve
        self._after_also = 0
        for overrides in _candidates(first.points, location):
            example, points = self._try(writer, reader, location, overrides, budget, names)
            if example is not None or points is None:
                return example or self._also
            opened.append((overrides, [p for p in points if p.where not in known]))
        # Second round: each option at a point an override brought in (a property added by
        # one choice, holding a value other than its first), the points nearest the element
        # first, whichever override brought them.
        brought = sorted(((overrides, point) for overrides, points in opened for point in points),
                         key=lambda pair: _near(pair[1], location))
        for overrides, point in brought:
            for more in _candidates([point], location):
                if more:
                    example, left = self._try(writer, reader, location, {**overrides, **more}, budget, names)
                    if example is not None or left is None:
                        return example or self._also
        return self._also

    def _try(self, writer: Side, reader: Side, location: tuple, overrides: dict, budget: Budget,
             names: tuple = ()):
        """(the example, None) when the candidate shows the break; (None, None) when the budget
        is spent; (None, its choice points) otherwise."""
        if self._also is not None:  # a few more tries for an instance failing there alone
            self._after_also += 1
            if self._after_also > CLEAN_TRIES:
                return self._also, None
        if not budget.spend():
            return None, None
        parsed, check = self.parsed[writer], self.validators[writer]
        instance = Instance(_viewer(parsed), lambda node, value: _valid(check, node, value), self.pool,
                            location=location, overrides=overrides, strict=self.strict)
        try:
            built = instance.value(parsed.root)
        except TooBig:
            budget.oversized = True
            return None, []
        if not _valid(check, parsed.root, built):
            return None, []
        error, other = _errors(self.validators[reader], built, location, names)
        if error is None:  # the reader accepts it, or rejects it for another change only
            return None, instance.points
        example = Example(writer, built, Outcome.ERROR, reader_error=error)
        if too_big(example):
            budget.oversized = True
            return None, None
        if other is not None:  # shown only if no instance fails at the element alone
            if self._also is None:
                self._also = Example(writer, built, Outcome.ERROR, reader_error=short(ALSO.format(
                    error=error, reader=reader.value, other=other)))
            return None, instance.points
        return example, None


def _candidates(points, location: tuple):
    """The default instance, then each other option at each point, those near the element first."""
    yield {}
    for point in sorted(points, key=lambda point: _near(point, location)):
        order = list(point.toward) + [i for i in range(point.count) if i not in point.toward]
        for index in order:
            if index != point.chosen:
                yield {point.where: index}


def _near(point, location: tuple) -> int:
    """0 at the element itself, 1 on the way to it, 2 inside it, 3 elsewhere."""
    where = point.where
    if leads_to(where, location):
        return 0 if len(where) == len(location) else 1
    return 2 if leads_to(location, where) else 3


def _location(path: str) -> tuple:
    """A finding's path as instance steps, up to the first keyword (`/maxLength`, `/oneOf[1]`)."""
    start = next((i for i, ch in enumerate(path) if ch in ".[/"), len(path))
    steps, at = [], start
    while at < len(path) and path[at] != "/":
        match = STEP.match(path, at)
        if match is None:
            break
        if match["name"] or match["quoted"]:
            steps.append(("prop", match["name"] or json.loads(match["quoted"])))
        elif match["star"]:
            steps.append(EXTRA)
        elif match["index"]:
            steps.append(("index", int(match["index"])))
        else:
            steps.append(ITEMS)
        at = match.end()
    keyword = path[at:].split("/")
    if len(keyword) > 2 and keyword[1] in NAMES_A_PROPERTY:  # `/dependentRequired/card`
        steps.append(("prop", keyword[2]))
    return tuple(steps)


def _viewer(parsed):
    """Follow plain `$ref`s to what they stand for (External when it is another document),
    without the keywords the document's draft does not read (they constrain nothing)."""
    reads = parsed.draft.reads

    def view(node):
        try:
            schema = parsed.refs.resolve(node)
        except Exception:  # noqa: BLE001 - a reference problem: nothing to generate from
            return External("")
        if isinstance(schema, dict) and not all(map(reads, schema)):
            return {key: value for key, value in schema.items() if reads(key)}
        return schema
    return view


def _validator(parsed, *, formats: bool):
    """The draft's validator over the whole document, with ECMA-262 `pattern` matching, and
    asserting `format` when the options say validators do (else it is an annotation)."""
    import jsonschema
    cls = drafts.validator_class(parsed.draft)
    ecma = jsonschema.validators.extend(cls, {"pattern": _pattern, "patternProperties": _pattern_properties})
    # The parser's registry: its files by path and `$id`, and no retrieval (the validator's
    # default would fetch an http(s) `$ref` over the network).
    return ecma(parsed.root, format_checker=cls.FORMAT_CHECKER if formats else None,
                _resolver=parsed.refs.resolver())


def _valid(validator, node, value) -> bool:
    try:  # the validator keeps the parser's registry (no retrieval) for the subschema too
        return validator.evolve(schema=node).is_valid(value)
    except Exception:  # noqa: BLE001 - an unresolvable reference or an odd keyword value
        return False


def _errors(validator, instance, location: tuple, names: tuple) -> tuple[str | None, str | None]:
    """The reader's error at the finding's element (None: it rejects nothing there), and its
    first error elsewhere (None: none), each as one line. `names`: the last segments of the
    paths the finding's message quotes (a rename's old name)."""
    from jsonschema.exceptions import best_match
    try:
        errors = list(validator.iter_errors(instance))
    except Exception:  # noqa: BLE001 - the reader cannot even be evaluated: not an example
        return None, None
    mine = [e for e in errors if _about(e, location, names)]
    others = [e for e in errors if not _about(e, location, names)]
    return _line(best_match(mine)), _line(best_match(others))


def _line(error) -> str | None:
    if error is None:
        return None
    return short(AT.format(message=error.message, where=instance_path(error.absolute_path)))


CLEAN_TRIES = 2  # candidates tried, once one fails at the element and elsewhere, for a cleaner one

# Keywords an object fails on for one of its properties: the error sits at the object.
ABOUT_A_PROPERTY = ("required", "dependentRequired", "dependencies", "dependentSchemas",
                    "additionalProperties", "unevaluatedProperties", "propertyNames")
# Keywords an object or array fails on as a whole: a property's or an item's presence.
ABOUT_THE_COUNT = {"prop": ("maxProperties", "minProperties"),
                   "index": ("items", "additionalItems", "unevaluatedItems", "maxItems", "minItems"),
                   "items": ("items", "additionalItems", "unevaluatedItems", "maxItems", "minItems",
                             "contains", "minContains", "maxContains", "uniqueItems")}
COMBINATORS = ("anyOf", "oneOf", "allOf", "not", "if", "then", "else", "$ref", "$dynamicRef")


def _about(error, location: tuple, names: tuple = ()) -> bool:
    """Whether a reader's error is the finding's: at its element or inside it, on the element's
    own property or item at its parent, or a combinator above it whose failing branch is."""
    path = tuple(error.absolute_path)
    if _within(path, location):
        return True
    if len(path) == len(location) - 1 and _within(path, location[:-1]) and _at_parent(error, location[-1], names):
        return True
    if len(path) < len(location) and _within(path, location[:len(path)]) and error.validator in COMBINATORS:
        return not error.context or any(_about(e, location, names) for e in error.context)
    return False


def _at_parent(error, step: tuple, names: tuple) -> bool:
    """An error at the object or array holding the element that is about the element: it names
    the property (a rename's finding names the old one too), or counts properties or items."""
    if error.validator in ABOUT_THE_COUNT.get(step[0], ()):
        return True
    if step[0] != "prop":
        return False
    about = {step[1], *names}
    return any(name in error.absolute_schema_path for name in about) or \
        error.validator in ABOUT_A_PROPERTY and any(repr(name) in error.message for name in about)


def _within(path: tuple, location: tuple) -> bool:
    """Whether the instance path lies at the location or below it."""
    if len(path) < len(location):
        return False
    for step, (kind, *name) in zip(path, location):
        if kind == "prop" and step != name[0] or kind == "index" and step != name[0] \
                or kind == "items" and not isinstance(step, int) or kind == "extra" and not isinstance(step, str):
            return False
    return True


def _regex(pattern: str):
    import regress
    return regress.Regex(pattern)


def _pattern(validator, pattern, instance, schema):
    from jsonschema.exceptions import ValidationError
    if validator.is_type(instance, "string") and _regex(pattern).find(instance) is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator, patterns, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if _regex(pattern).find(key) is not None:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


__all__ = ["Finder"]
