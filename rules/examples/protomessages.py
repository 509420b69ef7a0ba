"""Messages of a protobuf descriptor for the example search: a field set to telling values."""
from __future__ import annotations

from .budget import Allowance

# Values that expose a change: an ordinary one, then the extremes a narrower type cannot hold.
SCALARS = {
    "int32": (1, -1, 2**31 - 1), "sint32": (1, -1), "sfixed32": (1, -1),
    "int64": (1, -1, 2**63 - 1), "sint64": (1, -1), "sfixed64": (1, -1),
    "uint32": (1, 2**32 - 1), "fixed32": (1, 2**32 - 1),
    "uint64": (1, 2**64 - 1), "fixed64": (1, 2**64 - 1),
    "float": (1.5,), "double": (1.5, 1e300), "bool": (True,),
    "string": ("x",), "bytes": (b"x", b"\xff"),
}
DEEP = 4  # nested messages filled below this depth stay empty (recursive types end)


def candidates(message, field, enum_value, partners=()):
    """(message of the writer's type, numbers of the fields set for the finding): the field set
    to each sample; then beside each partner (a field it shares a oneof with in either version);
    then no field; and, for a finding on no field of the writer's, every field set. Nothing else
    is set but required fields, so a reader's complaint is about the finding's field.

    Each is built within an Allowance (required message fields nest into N ** DEEP messages):
    TooBig ends the candidates."""
    from google.protobuf import message_factory
    cls = message_factory.GetMessageClass(message)
    if field is not None:
        for sample in samples(field, enum_value):
            allowance = Allowance()
            built = _minimal(cls(), allowance)
            _set(built, field, sample, allowance)
            yield built, {field.number}
        for partner in partners:
            allowance = Allowance()
            built = _minimal(cls(), allowance)
            _set(built, partner, samples(partner, None)[0], allowance)
            _set(built, field, samples(field, enum_value)[0], allowance)
            yield built, {field.number, partner.number}
    yield _minimal(cls(), Allowance()), None
    if field is not None:  # every other field set could only show another field's break
        return
    allowance = Allowance()
    full = _minimal(cls(), allowance)
    for each in message.fields:
        if each.containing_oneof is None or each is field:
            _set(full, each, samples(each, None)[0], allowance)
    for each in message.fields:  # the other members of a oneof go last: the last one set wins
        if each.containing_oneof is not None and each is not field:
            _set(full, each, samples(each, None)[0], allowance)
    yield full, None


def samples(field, enum_value) -> list:
    if is_map(field):  # a map's samples are its values'
        value_field = field.message_type.fields_by_name["value"]
        return [None] if value_field.message_type is not None else samples(value_field, None)
    if field.enum_type is not None:
        values = list(field.enum_type.values)
        if enum_value is not None:
            return [enum_value.number]
        return [v.number for v in values[1:] or values]
    if field.message_type is not None:
        return [None]  # a message value: filled by _set
    return list(SCALARS[_kind(field)])


def _kind(field) -> str:
    from google.protobuf.descriptor import FieldDescriptor as F
    names = {F.TYPE_INT32: "int32", F.TYPE_SINT32: "sint32", F.TYPE_SFIXED32: "sfixed32",
             F.TYPE_INT64: "int64", F.TYPE_SINT64: "sint64", F.TYPE_SFIXED64: "sfixed64",
             F.TYPE_UINT32: "uint32", F.TYPE_FIXED32: "fixed32", F.TYPE_UINT64: "uint64",
             F.TYPE_FIXED64: "fixed64", F.TYPE_FLOAT: "float", F.TYPE_DOUBLE: "double",
             F.TYPE_BOOL: "bool", F.TYPE_STRING: "string", F.TYPE_BYTES: "bytes"}
    return names[field.type]


def _set(message, field, sample, allowance: Allowance, depth: int = 0) -> None:
    """Give the field a non-default value (two elements when repeated, one entry for a map)."""
    allowance.spend(1)
    if is_map(field):
        key_field, value_field = field.message_type.fields_by_name["key"], field.message_type.fields_by_name["value"]
        key = samples(key_field, None)[0]
        container = getattr(message, field.name)
        if value_field.message_type is not None:
            _fill(container[key], allowance, depth + 1)
        else:
            container[key] = samples(value_field, None)[0] if sample is None else sample
        return
    if field.message_type is not None:
        if repeated(field):
            for _ in range(2):
                _fill(getattr(message, field.name).add(), allowance, depth + 1)
        else:
            _fill(getattr(message, field.name), allowance, depth + 1)
        return
    if repeated(field):
        getattr(message, field.name).extend([sample, sample])
    else:
        setattr(message, field.name, sample)


def _fill(message, allowance: Allowance, depth: int) -> None:
    """A nested message: present, with its required fields and its first scalar set."""
    message.SetInParent()
    if depth > DEEP:
        return
    _minimal(message, allowance, depth)
    first = next((f for f in message.DESCRIPTOR.fields if f.message_type is None), None)
    if first is not None and not repeated(first):
        _set(message, first, samples(first, None)[0], allowance, depth)


def minimal(message):
    """The message with only its required fields set (what any record of it must hold)."""
    return _minimal(message, Allowance())


def _minimal(message, allowance: Allowance, depth: int = 0):
    """The message with every required field set (proto2), so the writer can serialize it."""
    for field in message.DESCRIPTOR.fields:
        if _required(field):
            _set(message, field, samples(field, None)[0], allowance, depth)
    return message


def _required(field) -> bool:
    return field.is_required


def repeated(field) -> bool:
    return field.is_repeated


def is_map(field) -> bool:
    return field.message_type is not None and field.message_type.GetOptions().map_entry
