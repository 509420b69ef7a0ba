"""A document mended, error by error, until a validator accepts it (or the rounds run out).

The witness generator's minimal documents ignore most constraints (patterns, bounds, the
alternative that matches); a real schema then refuses them for reasons that have nothing to
do with the finding. Each round takes the validator's most relevant error and rewrites the value it
points at the way that error asks (a sample of the pattern, the first enum value, the missing
required names, ...). The library stays the only judge: a mended document is still a candidate.
"""
from __future__ import annotations

import copy
import re
import signal

from jsonschema.exceptions import best_match

from rules.jsonschema import regex_cover

ROUNDS = 40  # errors mended per document
MEND_SECONDS = 3  # CPU for mending one document, all rounds
UNEXPECTED = re.compile(r"'((?:[^'\\]|\\.)*)'")


class Slow(BaseException):
    """A bounded call spent its CPU (not an Exception: no broad handler swallows it)."""


def _too_slow(_signum, _frame):
    raise Slow


def bounded(call, seconds: float):
    """`call()`, or Slow raised once it has spent `seconds` of CPU: the `jsonschema` library
    does not memoise, and a closed schema's `unevaluatedProperties` over deep `allOf`/`$ref`
    chains can take minutes for one document. Not nested (one profiling timer)."""
    previous = signal.signal(signal.SIGPROF, _too_slow)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return call()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def mended(validator, document, build, rounds: int = ROUNDS):
    """`document` rewritten until `validator` accepts it, or None (also past MEND_SECONDS).
    `build(schema)` makes a small document for a subschema (the generator's `minimal`)."""
    try:
        return bounded(lambda: _mended(validator, document, build, rounds), MEND_SECONDS)
    except Slow:
        return None


def _mended(validator, document, build, rounds: int):
    out = copy.deepcopy(document)
    attempts: dict = {}
    for _ in range(rounds):
        try:
            errors = list(validator.iter_errors(out))
            # A value that fails its schema leaves its name "unevaluated" above it: mend the
            # value first. The most relevant error: in an anyOf/oneOf, the nearest alternative.
            error = best_match([e for e in errors if e.validator != "unevaluatedProperties"] or errors)
        except Exception:  # noqa: BLE001 - the library cannot evaluate the schema
            return None
        if error is None:
            return out
        where = tuple(error.absolute_path)
        key = (where, error.validator, repr(error.schema)[:200])
        attempts[key] = attempts.get(key, -1) + 1
        # The same error again: the first fix did not help, try another shape.
        value = _other(error, build, attempts[key]) if attempts[key] else _fixed(error, build)
        if value is _GIVE_UP:
            return None
        out = _set(out, where, value)
    return None


_GIVE_UP = object()


def _fixed(error, build):
    kind, want, instance, schema = error.validator, error.validator_value, error.instance, error.schema
    if kind == "required" and isinstance(instance, dict):
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        missing = [n for n in want if isinstance(n, str) and n not in instance]
        return {**instance, **{n: build(properties.get(n, {})) for n in missing}}
    if kind in ("dependentRequired", "dependencies") and isinstance(instance, dict):
        names = [n for needs in (want or {}).values() if isinstance(needs, list) for n in needs]
        return {**instance, **{n: build({}) for n in names if isinstance(n, str) and n not in instance}}
    if kind == "pattern" and isinstance(want, str):
        for sample in regex_cover.samples(want):
            if re.search(want, sample):
                return sample
        return _GIVE_UP
    if kind == "enum" and isinstance(want, list) and want:
        return want[0]
    if kind == "const":
        return want
    if kind in ("minLength", "maxLength") and isinstance(instance, str) and isinstance(want, int):
        return (instance or "x").ljust(want, "x")[:want] if kind == "maxLength" else instance.ljust(want, "x")
    if kind in ("minItems", "maxItems") and isinstance(instance, list) and isinstance(want, int):
        if kind == "maxItems":
            return instance[:want]
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        return instance + _fresh(instance, build(items), want - len(instance))
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") \
            and isinstance(want, (int, float)) and not isinstance(want, bool):
        step = {"exclusiveMinimum": 1, "exclusiveMaximum": -1}.get(kind, 0)
        return want + step
    if kind in ("additionalProperties", "unevaluatedProperties") and isinstance(instance, dict):
        extra = set(UNEXPECTED.findall(error.message)) & set(instance)
        return {k: v for k, v in instance.items() if k not in extra} if extra else _GIVE_UP
    if kind == "minProperties" and isinstance(instance, dict) and isinstance(want, int):
        return {**instance, **dict(_entries(schema, instance, want - len(instance), build))}
    if kind == "propertyNames" and isinstance(instance, dict):
        return {}
    if kind == "uniqueItems" and isinstance(instance, list):
        kept = [v for i, v in enumerate(instance) if v not in instance[:i]]
        return kept + _fresh(kept, kept[0] if kept else build({}), len(instance) - len(kept))
    if kind in ("oneOf", "anyOf") and isinstance(want, list) and want:
        return build({k: v for k, v in schema.items() if k not in ("oneOf", "anyOf")} | {kind: want[:1]})
    return build(schema)


def _entries(schema: dict, present: dict, count: int, build) -> list:
    """`count` (name, value) pairs an object lacks: its declared names, then names its
    patternProperties patterns match (a sample each), then "x1", "x2", ..."""
    declared = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    patterns = schema.get("patternProperties") if isinstance(schema.get("patternProperties"), dict) else {}
    extra = schema.get("additionalProperties")
    options = [(name, sub) for name, sub in declared.items()]
    options += [(sample, sub) for pattern, sub in patterns.items() for sample in regex_cover.samples(pattern)[:1]
                if re.search(pattern, sample)]
    options += [(f"x{n}", extra if isinstance(extra, dict) else {}) for n in range(1, count + 1)]
    out = []
    for name, sub in options:
        if len(out) < count and name not in present and name not in dict(out):
            out.append((name, build(sub if isinstance(sub, dict) else {})))
    return out


def _fresh(present: list, like, count: int) -> list:
    """`count` values not among `present`: `like` first, then strings or numbers beside it
    (an array's `minItems` with `uniqueItems`; the validator mends what they break)."""
    out, number = [], 0
    while len(out) < count and number < count + len(present) + 2:
        value = like if number == 0 else (f"x{number}" if not isinstance(like, (int, float)) else number)
        number += 1
        if value not in present and value not in out:
            out.append(value)
    return out


def _other(error, build, attempt: int):
    """The `attempt`th retry at a place earlier fixes did not mend: the next alternative of
    an anyOf/oneOf, else a small document for the whole node, once."""
    kind, want, schema = error.validator, error.validator_value, error.schema
    if kind in ("oneOf", "anyOf") and isinstance(want, list) and attempt < len(want):
        rest = {k: v for k, v in schema.items() if k not in ("oneOf", "anyOf")}
        return build({**rest, kind: [want[attempt]]})
    return build(schema) if attempt == 1 else _GIVE_UP


def _set(document, where: tuple, value):
    if not where:
        return value
    parent = document
    for step in where[:-1]:
        parent = parent[step]
    parent[where[-1]] = value
    return document
