"""One step of the seeded pair generators (tests/rules/*/mutations.py): a copy of a schema with
one or two of a format's mutations applied."""
from __future__ import annotations

import copy
import random


def choose(rng: random.Random, mutations: list) -> list:
    return rng.sample(mutations, k=rng.choice([1, 1, 2]))


def mutated(old, rng: random.Random, chosen: list):
    """(new, names of the mutations applied): `old` is left as it is."""
    new = copy.deepcopy(old)
    for mutation in chosen:
        mutation(new, rng)
    return new, tuple(m.__name__ for m in chosen)
