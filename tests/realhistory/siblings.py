"""Candidates for a finding inside an anyOf/oneOf alternative whose siblings changed as well.

NEW refuses a document only when every alternative of the list refuses it: where a change
tightened each of them (`uniqueItems` added to `files` in one, to `exclude` in the next), the
generator's document for the finding's alternative is still taken by a sibling. Here each such
document (valid under OLD, refused by its own alternative in NEW) gets, for each NEW sibling
that still takes it, a value at one of that sibling's properties which the sibling refuses and
OLD accepts. Rule-agnostic like the generator: the schemas and the finding's path alone; the
`jsonschema` library judges each alternative (NEW with the list cut to it) and the result.
"""
from __future__ import annotations

import copy
from itertools import islice

from rules.examples.jsonschema import _location

from .witnesses import (ALTERNATIVE, MAX_DEPTH, PLAIN, _at, _distinct, _flatten, _local, _pattern_steps, _put,
                        _resolve, _valid, _validator, generated)

MAX_SIBLINGS = 12  # alternatives in a list, at most, for it to be searched (each validated alone)
MAX_NEAR = 3  # documents of the finding's alternative carried to its siblings
MAX_SCANNED = 120  # generated documents looked at to find those
MAX_VALUES = 16  # values tried at each property of a sibling


def sibling_documents(old, new, path: str, confirmer):
    """Documents for a finding whose path passes an anyOf/oneOf alternative; none otherwise."""
    steps = _pattern_steps(old, new, path)
    for match in ALTERNATIVE.finditer(steps):
        keyword, index = match.group()[1:-1].split("[")
        if keyword == "allOf":
            continue
        place = _location(ALTERNATIVE.sub("", steps[:match.start()]))
        for branches in _lists(new, _at(new, new, place), keyword, 0):
            if max(int(index), 1) < len(branches) <= MAX_SIBLINGS:
                yield from _across(old, new, path, confirmer, place, branches, int(index),
                                   _Alone(new, branches, confirmer.new_files))


def _lists(root, node, keyword: str, depth: int) -> list:
    """The `keyword` lists that apply at this place: the node's own and its allOf members'."""
    node = _resolve(root, node)
    if not isinstance(node, dict) or depth > MAX_DEPTH:
        return []
    found = [node[keyword]] if isinstance(node.get(keyword), list) else []
    for member in node.get("allOf") if isinstance(node.get("allOf"), list) else []:
        found += _lists(root, member, keyword, depth + 1)
    return found


class _Alone:
    """Validators of NEW with the list `branches` holding one alternative alone, by its index
    (each built when first asked: a copy of the whole schema)."""

    def __init__(self, new, branches: list, files: dict):
        self.new, self.branches, self.files, self.built = new, branches, files, {}

    def __getitem__(self, index: int):
        if index not in self.built:
            copies: dict = {}
            twin = copy.deepcopy(self.new, copies)
            cut = copies[id(self.branches)]
            cut[:] = [cut[index]]
            self.built[index] = _validator(twin, files=self.files)
        return self.built[index]


def _across(old, new, path: str, confirmer, place: tuple, branches: list, index: int, alone: _Alone):
    near = 0
    for document in islice(generated(old, new, path, confirmer.mend), MAX_SCANNED):
        if near >= MAX_NEAR:
            return
        if not confirmer.old_accepts(document) or _valid(confirmer.new, document) is not True \
                or _valid(alone[index], document) is not False:
            continue  # confirmed already, or not refused by the finding's own alternative
        near += 1
        for sibling, branch in enumerate(branches):
            if sibling != index and _valid(alone[sibling], document) is True:
                document = _refused(old, new, confirmer, document, place, branch, (alone[sibling], alone[index]))
                if document is None:
                    break
        else:
            yield document


def _refused(old, new, confirmer, document, place: tuple, branch, by: tuple):
    """`document` with a value at one of the sibling's properties that every validator of
    `by` (the sibling, the finding's alternative) refuses and OLD accepts, or None."""
    branch = _resolve(new, branch)
    declared = _flatten(new, branch, 0).get("properties") if isinstance(branch, dict) else None
    for name in declared if isinstance(declared, dict) else {}:
        where = place + (("prop", name),)
        for value in _distinct([*_local(old, new, where), *PLAIN])[:MAX_VALUES]:
            changed = _put(document, where, value)
            for each in (changed, confirmer.mend(changed) if changed is not None else None):
                if each is not None and confirmer.old_accepts(each) \
                        and all(_valid(validator, each) is False for validator in by):
                    return each
    return None
