"""References outside the repository: absolute-URI `$ref`s that no file of either version's
schema set declares (a public schema by URL, as SchemaStore's schemas use all the time).

Nothing is ever fetched, so such a target is opaque: equal only to the identical reference
(pairs.flat_pairs compares the rest of the schema there; external_ref_changed flags any other
change). A URL that the base's set declares and the head's does not is no such reference: its
file was deleted or moved out of the set, and the head fails as for any unresolved reference.
"""
from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING
from urllib.parse import urldefrag, urljoin

from ..model import Side, Unresolved
from .refs import FILE_BASE, Refs

if TYPE_CHECKING:
    from .parse import Parsed

MOVED = "{problem} (the base's {file} declared it: was it deleted or moved?)"
NOTE = ("{file}: $ref {refs} point{s} outside the repository (no schema file declares {them}); "
        "{they} {was} not read, so only an identical reference counts as unchanged.")


def opaque(old: Parsed, new: Parsed) -> frozenset[str]:
    """The references (as written) that neither version's set can satisfy. Raises Unresolved
    (side NEW) for a head reference whose target the base's set declared."""
    for ref, error in new.refs.elsewhere.items():
        file = old.refs.declarer(_target(ref))
        if file is not None:
            moved = Unresolved(error.file, error.line, MOVED.format(problem=error.problem, file=file))
            moved.side = Side.NEW
            raise moved
    return frozenset(new.refs.elsewhere) | frozenset(
        ref for ref in old.refs.elsewhere if new.refs.declarer(_target(ref)) is None)


def notes(refs: Refs) -> tuple[str, ...]:
    """One note per file holding references that point outside the repository."""
    by_file: dict[str, list[str]] = defaultdict(list)
    for ref, error in refs.elsewhere.items():
        by_file[error.file].append(f'"{ref}"')
    return tuple(NOTE.format(file=file, refs=", ".join(refs), **(_ONE if len(refs) == 1 else _MANY))
                 for file, refs in by_file.items())


_ONE = {"s": "s", "them": "it", "they": "it", "was": "was"}
_MANY = {"s": "", "them": "them", "they": "they", "was": "were"}


def _target(ref: str) -> str:
    """The document an absolute reference names, spelled as Refs looks it up."""
    return urldefrag(urljoin(FILE_BASE, ref))[0]
