"""What a protobuf reader sees differently from what was written: by field number, or in JSON."""
from __future__ import annotations

from .budget import instance_path
from .protomessages import is_map, repeated


def differences(written, read, steps: list) -> list[str]:
    """Fields, by number, whose value the reader sees differently (or not at all)."""
    out = []
    read_fields = read.DESCRIPTOR.fields_by_number
    for field in written.DESCRIPTOR.fields:
        other = read_fields.get(field.number)
        here = steps + [field.json_name]
        mine = _value(written, field)
        if other is None:
            if _present(written, field):
                out.append(instance_path(here))
            continue
        if (field.enum_type is None) != (other.enum_type is None):  # an enum read as an integer
            mine, theirs = getattr(written, field.name), getattr(read, other.name)
        else:
            theirs = _value(read, other)
        if field.message_type is not None and other.message_type is not None \
                and not repeated(field) and not repeated(other) and not is_map(field):
            out += differences(getattr(written, field.name), getattr(read, other.name), here)
        elif mine != theirs:
            out.append(instance_path(here))
    return out


def _present(message, field) -> bool:
    if repeated(field):
        return len(getattr(message, field.name)) > 0
    if field.has_presence:
        return message.HasField(field.name)
    return getattr(message, field.name) != field.default_value


def _value(message, field):
    """A comparable value: enums as _Symbol, bytes and strings as bytes, messages serialized."""
    value = getattr(message, field.name)
    if is_map(field):
        return sorted((k, _plain(v, field.message_type.fields_by_name["value"])) for k, v in value.items())
    if repeated(field):
        return [_plain(v, field) for v in value]
    return _plain(value, field)


def _plain(value, field):
    if field.enum_type is not None:
        return _Symbol(value, field.enum_type)
    if isinstance(value, str):
        return value.encode("utf-8")
    if hasattr(value, "SerializeToString"):
        return value.SerializeToString(deterministic=True)
    return value


class _Symbol:
    """An enum value as one side knows it. Read differently: another number, or a writer's
    symbol that the reader gives another number (renumbered); a renamed number reads the same."""

    def __init__(self, number: int, enum):
        known = enum.values_by_number.get(number)
        self.number, self.name, self.names = number, known.name if known else None, enum.values_by_name

    def __eq__(self, read) -> bool:
        if not isinstance(read, _Symbol):
            return False
        moved = self.name is not None and self.name != read.name and self.name in read.names
        return self.number == read.number and not moved

    def __lt__(self, other) -> bool:  # map values are sorted with their keys
        return self.number < other.number


def json_differences(written, read, steps: list) -> list[str]:
    """JSON keys whose value reads back differently (64-bit numbers compared as numbers)."""
    if isinstance(written, dict) and isinstance(read, dict):
        out = []
        for key, value in written.items():
            if key not in read:
                out.append(instance_path(steps + [key]))
            else:
                out += json_differences(value, read[key], steps + [key])
        return out
    return [] if _number(written) == _number(read) else [instance_path(steps)]


def _number(value):
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    if isinstance(value, list):
        return [_number(v) for v in value]
    return value
