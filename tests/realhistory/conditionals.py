"""Candidates for a finding at a conditional (`…/if`): what the general generator misses.

A conditional's break shows only in a document that takes one branch (its `if` met, or
missed) and holds, deep inside that branch, a value the new branch refuses: a renamed
property, a tuple's `items` made a list's. The generator in witnesses.py puts values at the
finding's own place, the object holding the `if`, which is too shallow. Here each document
first meets or misses the `if` (a value of each name the `if`s of either side mention), then
gets a value at each place where the two sides' branches differ (found by walking both
schemas side by side), and is mended into a valid OLD document. Rule-agnostic like the
generator: the schemas and the finding's path alone; the `jsonschema` library still judges.
"""
from __future__ import annotations

import json
from itertools import zip_longest

from rules.examples.instances import EXTRA, ITEMS
from rules.examples.jsonschema import _location

from .witnesses import (ALTERNATIVE, IN_PLACE, MAX_DEPTH, PLAIN, _at, _distinct, _local, _mentioned,
                        _pattern_steps, _put, _resolve, minimal)

MAX_PLACES = 24  # places where the branches differ, tried per finding
MAX_SWITCHES = 12  # documents meeting or missing an `if`
MAX_DOCUMENTS = 600  # candidates per finding
BRANCHES = ("then", "else")


def conditional_documents(old, new, path: str, mend):
    """Documents for a finding whose path ends at an `if`; nothing for any other path."""
    if not path.endswith("/if"):
        return
    path = _pattern_steps(old, new, path[:-len("/if")])
    place = _location(ALTERNATIVE.sub("", path))
    base = _along(old, path, minimal(old, old))
    switches = [document for document in (_put(base, place, value) for value in _switches(old, new, path, place))
                if document is not None]
    switches = _distinct([each for each in map(mend, switches) if each is not None] or [base])[:MAX_SWITCHES]
    count = 0
    for start in switches:
        yield start
        count += 1
    # Each place's first value, then each place's second, ...: one place cannot use up the budget.
    tries = [[(where, value) for value in _values(old, new, where)] for where in _differing(old, new, path, place)]
    for where, value in (each for row in zip_longest(*tries) for each in row if each is not None):
        for start in switches:
            document = _put(start, where, value)
            if document is None:
                continue
            for each in (document, mend(document)):
                if each is not None:
                    yield each
                    count += 1
            if count >= MAX_DOCUMENTS:
                return


def _along(old, path: str, document):
    """`document` with a small document of each alternative the path names put where it
    names it (`…/oneOf[2].args`: the third task kind, whose `args` hold the conditional)."""
    for where, chosen in _chosen(old, path):
        document = _put(document, where, minimal(old, chosen)) or document
    return document


def _chosen(root, path: str):
    """(data location, alternative) for each alternative the path names, each looked up from
    the one before it: from the root, the alternatives the path strips are ambiguous (a task
    list of task kinds, each with its own lists)."""
    chosen, at = root, ()
    for match in ALTERNATIVE.finditer(path):
        where = _location(ALTERNATIVE.sub("", path[:match.start()]))
        keyword, index = match.group()[1:-1].split("[")
        branches = _alternatives_of(root, _at(root, chosen, where[len(at):]), keyword, int(index))
        if branches is None:
            return
        chosen, at = branches[int(index)], where
        yield where, chosen


def _schema_at(root, path: str, below: tuple = ()):
    """The subschema of `root` at the path's data location (then `below` it), through the
    alternatives the path names."""
    chosen, at = root, ()
    for at, chosen in _chosen(root, path):
        pass
    return _at(root, chosen, _location(ALTERNATIVE.sub("", path))[len(at):] + below)


def _alternatives_of(root, node, keyword: str, index: int, depth: int = 0):
    """The `keyword` list (longer than `index`) of `node` or of an `allOf` member of it: a path
    names an alternative without the `allOf` step it sits under."""
    node = _resolve(root, node)
    if not isinstance(node, dict) or depth > MAX_DEPTH:
        return None
    if isinstance(node.get(keyword), list) and index < len(node[keyword]):
        return node[keyword]
    members = node.get("allOf") if isinstance(node.get("allOf"), list) else []
    return next((found for member in members
                 if (found := _alternatives_of(root, member, keyword, index, depth + 1)) is not None), None)


def _switches(old, new, path: str, place: tuple) -> list:
    """Objects for the place that meet or miss each `if` of either side: a small document of
    the schema holding the `if` (the alternative it sits in) with one name the `if` tests set
    to each value either side mentions."""
    # The values either side's `if` names come first (where the two conditions differ), then
    # the others the name's own schema lists: a long enum cannot push them past the limit.
    tested_first, others = [], []
    for root in (old, new):
        for conditional, alternative in _conditionals(root, _schema_at(root, path), 0):
            test = _resolve(root, conditional["if"])
            if not isinstance(test, dict):
                continue
            holder = minimal(root, alternative)
            tested = test.get("properties") if isinstance(test.get("properties"), dict) else {}
            names = [*tested, *[n for n in test.get("required", []) if isinstance(n, str)]]
            for name in names:
                named: list = []
                _mentioned(tested.get(name, {}), named)
                listed: list = []
                for side in (old, new):
                    declared = _schema_at(side, path, (("prop", name),))
                    if isinstance(declared, dict):
                        _mentioned({k: v for k, v in declared.items() if k in ("enum", "const")}, listed)
                for values, out in ((named, tested_first), (listed, others)):
                    out += [{**holder, name: value} if isinstance(holder, dict) else {name: value}
                            for value in _distinct(values)]
    return _distinct(tested_first + others) or [minimal(old, _schema_at(old, path) or {})]


def _conditionals(root, node, depth: int, holder=None) -> list:
    """(schema holding an `if`, the alternative it belongs to) at this place: the node and its
    in-place alternatives; an `allOf` member belongs to the schema listing it."""
    node = _resolve(root, node)
    if not isinstance(node, dict) or depth > MAX_DEPTH:
        return []
    holder = node if holder is None else holder
    found = [(node, holder)] if "if" in node else []
    for key in IN_PLACE:
        for branch in node.get(key) if isinstance(node.get(key), list) else []:
            found += _conditionals(root, branch, depth + 1, holder if key == "allOf" else None)
    return found


def _differing(old, new, path: str, place: tuple) -> list:
    """Data locations, below `place`, where what the two sides' conditionals' branches say
    differs: the shallowest first (a recursive definition repeats its differences deeper)."""
    found: list = []
    olds, news = ([c for c, _holder in _conditionals(root, _schema_at(root, path), 0)] for root in (old, new))
    for now in news[len(olds):]:  # added: each branch against what OLD says of its names
        for key in BRANCHES:
            branch = _resolve(new, now.get(key))
            said = {name: _schema_at(old, path, (("prop", name),)) for name in _props(branch)} \
                if isinstance(branch, dict) else {}
            _walk(old, new, {"properties": {k: v for k, v in said.items() if v is not None}},
                  {"properties": _props(branch)} if said else None, place, found, set(), 0)
    for was, now in zip(olds, news):
        for key in BRANCHES:
            _walk(old, new, was.get(key), now.get(key), place, found, set(), 0)
        if json.dumps(was.get("if"), sort_keys=True) != json.dumps(now.get("if"), sort_keys=True):
            # Another `if`: data that took one branch may now take the other, whatever it holds.
            found += [place + (("prop", name),) for root, each in ((old, was), (new, now)) for key in BRANCHES
                      if isinstance(branch := _resolve(root, each.get(key)), dict) for name in _props(branch)]
    return sorted(_distinct(found), key=len)[:MAX_PLACES]


def _walk(old, new, was, now, where: tuple, found: list, seen: set, depth: int) -> None:
    was, now = _resolve(old, was), _resolve(new, now)
    if depth > MAX_DEPTH or (id(was), id(now)) in seen or len(found) >= 4 * MAX_PLACES:
        return
    seen.add((id(was), id(now)))
    text = json.dumps(was, sort_keys=True)
    if text == json.dumps(now, sort_keys=True) and '"$ref"' not in text:
        return  # (the same reference may reach definitions that differ)
    if not isinstance(was, dict) or not isinstance(now, dict):
        found.append(where)
        return
    before = len(found)
    olds, news = (_props(each) for each in (was, now))
    for name in olds.keys() | news.keys():
        if name in olds and name in news:
            _walk(old, new, olds[name], news[name], where + (("prop", name),), found, seen, depth + 1)
        else:  # a name one side's branch has (renamed, added, removed): old data may hold it
            found.append(where + (("prop", name),))
    for key, step in (("items", ITEMS), ("additionalProperties", EXTRA)):
        if isinstance(was.get(key), dict) and isinstance(now.get(key), dict):
            _walk(old, new, was[key], now[key], where + (step,), found, seen, depth + 1)
    for key in (*IN_PLACE, *BRANCHES):
        olds_in, news_in = (_listed(each.get(key)) for each in (was, now))
        for one, other in zip(olds_in, news_in):
            _walk(old, new, one, other, where, found, seen, depth + 1)
    if len(found) == before:  # the difference is in this schema's own keywords
        found.append(where)


def _props(node: dict) -> dict:
    return node.get("properties") if isinstance(node.get("properties"), dict) else {}


def _listed(value) -> list:
    return value if isinstance(value, list) else [value] if isinstance(value, dict) else []


def _values(old, new, where: tuple) -> list:
    """What to put at a differing place: the small documents of either side's schema there,
    then what the place mentions, an array of two equal items, and plain values."""
    built = [minimal(root, node) for root in (old, new)
             if isinstance(node := _at(root, root, where), dict)]
    node = _at(old, old, where)
    if isinstance(node, dict) and isinstance(node.get("items"), list):
        # A tuple's positions filled, then one more item: what its `items` as a list refuses.
        prefix = [minimal(old, each) for each in node["items"]]
        built += [[*prefix, extra] for extra in ("x", 0, {})]
    return _distinct([*built, *_local(old, new, where), *PLAIN])
