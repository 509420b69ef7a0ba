"""What a protobuf reader sees differently from what was written: by field number, or in JSON."""
from __future__ import annotations

import json

from .budget import instance_path
from .protomessages import is_map, repeated

WIRE_TYPES = {0: "varint", 1: "64-bit", 2: "length-delimited", 3: "group", 4: "group end", 5: "32-bit"}


def differences(written, read, steps: list, numbers=None) -> list[str]:
    """Fields, by number, that were written and that the reader sees differently (or, moved to
    another number, not at all). `numbers`: only these top-level fields (the finding's own)."""
    out = []
    read_fields = read.DESCRIPTOR.fields_by_number
    for field in written.DESCRIPTOR.fields:
        if numbers is not None and field.number not in numbers:
            continue
        other = read_fields.get(field.number)
        if not _present(written, field) and not _default_changed(field, other):
            continue  # not on the wire: reading the type's zero value is no misreading
        here = steps + [field.json_name]
        mine = _value(written, field)
        if other is None:
            # Unknown to the reader: kept aside, as a deletion means. A misreading only when
            # the reader expects the field under another number (renumbered).
            if field.name in read.DESCRIPTOR.fields_by_name:
                out.append(instance_path(here))
            continue
        if (field.enum_type is None) != (other.enum_type is None):  # an enum read as an integer
            mine, theirs = getattr(written, field.name), getattr(read, other.name)
        else:
            theirs = _value(read, other)
        if field.message_type is not None and other.message_type is not None \
                and not repeated(field) and not repeated(other) and not is_map(field):
            out += differences(getattr(written, field.name), getattr(read, other.name), here)
        elif not _same(mine, theirs, repeated(field), repeated(other)):
            out.append(instance_path(here))
    return out


def _as_json(field, value):
    """A scalar as canonical JSON writes it: 64-bit integers as strings."""
    from google.protobuf.descriptor import FieldDescriptor as F
    return str(value) if field.cpp_type in (F.CPPTYPE_INT64, F.CPPTYPE_UINT64) else value


def _default_changed(field, other) -> bool:
    """An absent field whose default differs: each side reads its own default (declared, or
    an enum's first value)."""
    if other is None or repeated(field) or repeated(other):
        return False
    if field.enum_type is not None and other.enum_type is not None:
        return _Symbol(field.default_value, field.enum_type) != _Symbol(other.default_value, other.enum_type)
    return (field.has_default_value or other.has_default_value) and field.default_value != other.default_value


def _same(mine, theirs, many: bool, reader_many: bool) -> bool:
    """One value read into a repeated field (or back) is the same value, not a change."""
    if many and not reader_many:
        return mine == [theirs]
    if reader_many and not many:
        return [mine] == theirs
    return mine == theirs


def reader_view(read, numbers=None) -> str:
    """What the reader decoded, on one line: the fields it knows (canonical JSON) and the ones
    it kept aside as unknown, by number and wire type."""
    from google.protobuf import json_format, unknown_fields
    known = json_format.MessageToDict(read)
    if numbers is not None:
        mine = [f for f in read.DESCRIPTOR.fields if f.number in numbers]
        known = {k: v for k, v in known.items() if k in {f.json_name for f in mine}}
        for field in mine:  # an absent scalar reads as the reader's default: say which
            if field.json_name not in known and field.message_type is None and not repeated(field) \
                    and field.enum_type is None and not isinstance(field.default_value, bytes):
                known[field.json_name] = _as_json(field, field.default_value)
    text = "the reader reads " + json.dumps(known, ensure_ascii=False)
    unknown = [u for u in unknown_fields.UnknownFieldSet(read)
               if numbers is None or u.field_number in numbers]
    if unknown:
        text += "; unknown to it: " + ", ".join(
            f"field {u.field_number} ({WIRE_TYPES.get(u.wire_type, u.wire_type)})" for u in unknown)
    return text


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
