"""Protobuf examples for PROTO_FIELD_UTF8_VALIDATION_CHANGED: a record whose string holds a byte
that is not UTF-8, which a writer that does not verify reads and a verifying reader refuses.

Python cannot set such a string (its text must be valid), so the record's bytes are written by
hand: the message's other content serialized, then the field's record appended (the last
record of a field is the one read). JSON cannot hold the byte either: the payload shows it as
U+FFFD, the replacement character a lenient decoder puts in its place.
"""
from __future__ import annotations

import base64

from ..model import Example, Outcome
from ..protobuf.descriptors import packed
from .budget import short
from .protomessages import is_map, minimal, samples

RULE = "PROTO_FIELD_UTF8_VALIDATION_CHANGED"
NOT_UTF8 = b"\xff"  # never part of valid UTF-8
SHOWN = "\ufffd"
LENGTH_DELIMITED = 2  # the wire type of strings and of map entries
STRING = 9  # FieldDescriptor.TYPE_STRING
MAP_KEY_UNSHOWN = ("Python's protobuf runtime parses a map key that is not UTF-8 where the schema "
                   "does not verify it, but raises when the key is read, so no example here can "
                   "hold one; a verifying reader refuses such a record as it refuses a field's")


def example(message, field, reader_message, writer, budget) -> Example | None:
    """A binary record of `message` with the field's text not UTF-8 that the writer's class
    reads and the reader's refuses, or None."""
    from google.protobuf import json_format, message_factory
    writer_class = message_factory.GetMessageClass(message)
    reader_class = message_factory.GetMessageClass(reader_message)
    for shown, data in _records(writer_class, field):
        if not budget.spend():
            return None
        try:
            writer_class.FromString(data)
        except Exception:  # noqa: BLE001 - DecodeError: this writer verifies (the other direction)
            continue
        try:
            reader_class.FromString(data)
        except Exception as error:  # noqa: BLE001 - DecodeError: the break shown
            return Example(writer, json_format.MessageToDict(shown), Outcome.ERROR,
                           reader_error=short(error), encoding="binary",
                           binary=base64.b64encode(data).decode("ascii"))
    return None


def map_key_only(field) -> bool:
    """A map whose value is not text: only its key could carry the bytes (MAP_KEY_UNSHOWN)."""
    return is_map(field) and field.message_type.fields_by_name["value"].type != STRING


def _records(cls, field):
    """(the message as the payload shows it, its bytes) for each place the field holds text."""
    base = minimal(cls())
    if not is_map(field):
        if field.type != STRING:
            return
        shown = cls()
        shown.CopyFrom(base)
        if field.is_repeated:
            getattr(shown, field.name).append(SHOWN)
        else:
            setattr(shown, field.name, SHOWN)
        yield shown, base.SerializeToString() + _record(field.number, NOT_UTF8)
        return
    value = field.message_type.fields_by_name["value"]
    if value.type != STRING:
        return
    from google.protobuf import message_factory
    key = samples(field.message_type.fields_by_name["key"], None)[0]
    entry = message_factory.GetMessageClass(field.message_type)(key=key).SerializeToString()
    shown = cls()
    shown.CopyFrom(base)
    getattr(shown, field.name)[key] = SHOWN
    yield shown, base.SerializeToString() + _record(field.number, entry + _record(2, NOT_UTF8))


def _record(number: int, data: bytes) -> bytes:
    """A length-delimited record: tag, length, bytes."""
    return packed((number << 3 | LENGTH_DELIMITED, len(data))) + data
