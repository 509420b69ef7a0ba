"""Logical type annotations as the specification reads them: an invalid one is ignored.

"If a logical type is invalid, for example a decimal with scale greater than its precision,
then implementations should ignore the logical type and use the underlying Avro type."
"""
from __future__ import annotations

import math

LOGICAL_KEYS = ("logicalType", "precision", "scale")


def _count(value) -> int | None:
    # JSON true/false are not counts, and neither are "2" or 2.5.
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def valid_decimal(obj: dict, kind: str) -> bool:
    """Whether a decimal annotation on an object of this kind is one the specification allows."""
    precision, scale = _count(obj.get("precision")), _count(obj.get("scale", 0))
    if kind not in ("bytes", "fixed") or precision is None or precision < 1:
        return False
    if scale is None or scale < 0 or scale > precision:
        return False
    if kind == "fixed":  # the unscaled value must fit in `size` bytes: none fit in zero
        size = _count(obj.get("size"))
        return size is not None and size > 0 and precision <= math.floor(math.log10(2 ** (8 * size - 1) - 1))
    return True


def annotation(obj: dict, kind: str) -> tuple:
    """The logical type keys that take effect: none for an invalid decimal."""
    if obj.get("logicalType") == "decimal" and not valid_decimal(obj, kind):
        return ()
    return tuple((k, obj[k]) for k in LOGICAL_KEYS if k in obj)
