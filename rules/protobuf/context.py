"""What every protobuf rule may read besides its pair: both schemas and the chosen categories."""
from __future__ import annotations

from dataclasses import dataclass

from .schema import Schema

WIRE_JSON = "WIRE_JSON"


@dataclass(frozen=True)
class Context:
    old: Schema
    new: Schema
    # buf's WIRE_JSON category: also protect the JSON mapping (names, JSON types, reservations)
    json: bool
