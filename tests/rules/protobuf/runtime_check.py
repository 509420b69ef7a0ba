"""An independent check of protobuf examples: the example's own bytes (or JSON) decoded with
descriptors these tests build from protoc's output, by the protobuf runtime alone.

Nothing here imports rules.examples: the payload is parsed with the writer's message class (so
it is a message the writer can write), the base64 bytes must be that very message, and the
reader's class must then fail on them, or read the example's `changed` fields differently
(values compared by number, enums as numbers, 64-bit JSON strings as numbers, one value
and a one-element list as the same). The example must also be about its finding: its payload
holds the finding's field or enum value, or its error names it.
"""
from __future__ import annotations

import base64
import json

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory


def pool_of(files) -> descriptor_pool.DescriptorPool:
    """A fresh pool holding FileDescriptorProtos (dependencies first)."""
    pool = descriptor_pool.DescriptorPool()
    for proto in files:
        pool.Add(proto)
    return pool


def compiled(data: bytes) -> list:
    return list(descriptor_pb2.FileDescriptorSet.FromString(data).file)


def message_of(pool, package: str, path: str, others=()):
    """The message an example of `path` is of: its parent message (in the file's package or, an
    imported type, in one of the `others`), or the first message with a field of its parent enum."""
    parent = path.rpartition(".")[0]
    full = f"{package}.{parent}" if package else parent
    for each in (package, *others):
        try:
            return pool.FindMessageTypeByName(f"{each}.{parent}" if each else parent)
        except KeyError:
            pass
    enum = pool.FindEnumTypeByName(full)
    for message in enum.file.message_types_by_name.values():
        if any(f.enum_type is not None and f.enum_type.full_name == full for f in message.fields):
            return message
    raise LookupError(f"no message uses {full}")


def counterpart(pool, message, packages):
    """The reader's message of the same package-relative name, in any of its files' packages."""
    own = message.file.package
    relative = message.full_name[len(own) + 1:] if own else message.full_name
    for each in ("", *packages):
        try:
            return pool.FindMessageTypeByName(f"{each}.{relative}" if each else relative)
        except KeyError:
            pass
    raise LookupError(f"the reader has no {relative}")


def confirm(example: dict, path: str, writer_message, reader_message) -> str | None:
    """None when the runtime bears the example out; otherwise what it shows instead."""
    writer = message_factory.GetMessageClass(writer_message)
    reader = message_factory.GetMessageClass(reader_message)
    payload = json.dumps(example["payload"])
    try:
        written = json_format.Parse(payload, writer())
    except json_format.ParseError as error:
        return f"the writer cannot hold the payload: {error}"
    unrelated = _unrelated(example, path, writer_message, reader_message)
    if unrelated:
        return unrelated
    if example.get("encoding") == "json" or (example.get("reader_error") or "").startswith("JSON:"):
        return _json(example, payload, written, reader)
    data = base64.b64decode(example["binary"]) if "binary" in example else written.SerializeToString()
    try:
        if as_shown(writer.FromString(data)) != written:
            return "the bytes are not the payload's message"
    except Exception:  # noqa: BLE001 - DecodeError: a record its own writer could not have written
        return "the writer cannot read the bytes"
    try:
        read = reader.FromString(data)
    except Exception:  # noqa: BLE001 - DecodeError: the break shown
        return None if example["outcome"] == "error" else "the reader fails, unclaimed"
    if example["outcome"] == "error":
        return None if read.FindInitializationErrors() else "the reader decodes the bytes"
    for changed in example["changed"]:
        key = changed.removeprefix("$.").split(".")[0].split("[")[0]
        mine = next((f for f in writer_message.fields if f.json_name == key), None)
        if mine is None:
            return f"{changed} is not a writer field"
        theirs = reader_message.fields_by_number.get(mine.number) or \
            reader_message.fields_by_name.get(mine.name)
        defaults = mine.has_default_value or (theirs is not None and theirs.has_default_value)
        if key not in example["payload"] and mine.name not in example["payload"] and not defaults:
            return f"{changed} was not written (a type's zero value is not a misreading)"
        if _reads_the_same(written, mine, read, theirs):
            return f"{changed} reads the same"
    return None


def _json(example: dict, payload: str, written, reader) -> str | None:
    try:
        read = json_format.Parse(payload, reader())
    except json_format.ParseError:
        return None if example["outcome"] == "error" else "the JSON reader fails, unclaimed"
    if example["outcome"] == "error":
        return "the JSON reader accepts the payload"
    back = json_format.MessageToDict(read, use_integers_for_enums=True)
    sent = json_format.MessageToDict(written, use_integers_for_enums=True)
    for changed in example["changed"]:
        key = changed.removeprefix("$.").split(".")[0]
        if key in example["payload"] and _norm(sent.get(key)) == _norm(back.get(key)):
            return f"{changed} reads the same in JSON"
    return None


def _unrelated(example: dict, path: str, writer_message, reader_message) -> str | None:
    """Why the example is not about the finding at `path`, or None."""
    member = path.rpartition(".")[2]
    named = [f for m in (writer_message, reader_message) for f in m.fields if f.name == member]
    keys = {k for f in named for k in (f.name, f.json_name)}
    numbers = {f.number for f in named}
    keys |= {k for f in writer_message.fields if f.number in numbers for k in (f.name, f.json_name)}
    # The payload writes it, the error names it, or (an absent field's default) it is what changed.
    text = " ".join([json.dumps(example["payload"]), example.get("reader_error") or "",
                     *(example.get("changed") or ())])
    if named:
        if keys & set(example["payload"]) or any(k in text for k in keys):
            return None
        return f"the example holds none of {sorted(keys)}"
    # An enum value: the payload writes it, by its name or (renamed) another name of its number.
    enums = [f.enum_type for m in (writer_message, reader_message) for f in m.fields
             if f.enum_type is not None]
    numbers = {v.number for e in enums for v in e.values if v.name == member}
    values = {member} | {v.name for e in enums for v in e.values if v.number in numbers}
    if any(v in text for v in values):
        return None
    return f"the example writes none of {sorted(values)}"


def as_shown(message):
    """The message with each string its class reads as bytes (not UTF-8, which a class that does
    not verify keeps) as JSON payloads show it: the text with U+FFFD for each bad byte."""
    for field, value in message.ListFields():
        if field.type == field.TYPE_STRING and field.is_repeated:
            texts = [_text(v) for v in value]
            message.ClearField(field.name)
            getattr(message, field.name).extend(texts)
        elif field.type == field.TYPE_STRING:
            setattr(message, field.name, _text(value))
        elif field.message_type is not None and field.message_type.GetOptions().map_entry:
            entry = field.message_type.fields_by_name["value"]
            for key in list(value):  # a key that is not UTF-8 raises here: no example holds one
                if entry.type == entry.TYPE_STRING:
                    value[key] = _text(value[key])
                elif entry.message_type is not None:
                    as_shown(value[key])
        elif field.message_type is not None:
            for each in value if field.is_repeated else [value]:
                as_shown(each)
    return message


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def _reads_the_same(written, mine, read, theirs) -> bool:
    if mine.enum_type is not None and theirs is not None and theirs.enum_type is not None \
            and not mine.is_repeated and not theirs.is_repeated:
        return _enum_same(getattr(written, mine.name), mine.enum_type,
                          getattr(read, theirs.name), theirs.enum_type)
    return _norm(_observed(written, mine)) == _norm(_observed(read, theirs))


def _enum_same(number: int, enum, read: int, reader_enum) -> bool:
    """An enum value means the same to the reader: the same number, and the writer's name for
    it is the reader's too, or unknown to the reader (renamed or deleted: the number decides)."""
    name = enum.values_by_number[number].name if number in enum.values_by_number else None
    read_name = reader_enum.values_by_number[read].name if read in reader_enum.values_by_number else None
    return number == read and (name == read_name or name not in reader_enum.values_by_name)


def _observed(message, field):
    """The field's value as its side reads it: scalars as Python values (text as bytes, enums as
    numbers), messages, lists and maps as canonical JSON with enum numbers."""
    if field is None:
        return "<no such field>"
    if field.message_type is not None or field.is_repeated:
        shown = json_format.MessageToDict(message, use_integers_for_enums=True,
                                          preserving_proto_field_name=True)
        return shown.get(field.name)
    value = getattr(message, field.name)
    return value.encode("utf-8") if isinstance(value, str) else value


def _norm(value):
    if isinstance(value, list):
        value = [_norm(v) for v in value]
        return value[0] if len(value) == 1 else value
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    return value
