"""Protobuf examples: a message of the writer's descriptors, in binary and canonical JSON, parsed
with the reader's; a parse error, or a field that disappears or reads differently."""
from __future__ import annotations

import json

from ..model import Example, Outcome, Side
from ..protobuf.categories import checks_json
from .budget import Budget, TooBig, short, too_big
from .protodiff import differences, json_differences
from .protomessages import candidates

JSON_FORMS = ({}, {"always_print_fields_with_no_presence": True},
              {"preserving_proto_field_name": True})
MISSING_REQUIRED = "message is missing required fields: {}"
CARRIER, CARRIER_FIELD = "SchemaReviewCarrier", "value"  # holds an enum no message uses


class Finder:
    """Message classes of both versions, built once from protoc's FileDescriptorSets."""

    def __init__(self, old, new, options):
        self.pools = {Side.OLD: _pool(old.descriptor_set), Side.NEW: _pool(new.descriptor_set)}
        self.packages = {Side.OLD: old.schema(Side.OLD).package, Side.NEW: new.schema(Side.NEW).package}
        self.json = checks_json(options.proto_categories)

    def find(self, finding, *, writer: Side, budget: Budget) -> Example | None:
        reader = Side.NEW if writer is Side.OLD else Side.OLD
        for message, field in self._targets(finding.path, writer, reader):
            reader_message = self._message(reader, message.full_name)
            if reader_message is None:
                continue
            try:
                for built in candidates(message, field, self._enum_value(finding.path, field)):
                    if not budget.spend():
                        return None
                    example = self._try(built, reader_message, writer)
                    if example is not None and too_big(example):
                        budget.oversized = True
                    elif example is not None:
                        return example
            except TooBig:  # the next candidate would pass the size limit: none after it either
                budget.oversized = True
        return None

    def _message(self, side: Side, full_name: str):
        try:
            return self.pools[side].FindMessageTypeByName(full_name)
        except KeyError:
            return None

    def _targets(self, path: str, writer: Side, reader: Side):
        """(writer message, writer field or None) the finding's element lives in or is used by."""
        parent, _, member = path.rpartition(".")
        full = _qualified(self.packages[writer], parent)
        mine = self._message(writer, full)
        if mine is not None:
            field = mine.fields_by_name.get(member)
            if field is None:  # named as the reader calls it: the writer's field of that number
                theirs = self._message(reader, _qualified(self.packages[reader], parent))
                named = theirs.fields_by_name.get(member) if theirs is not None else None
                field = mine.fields_by_number.get(named.number) if named is not None else None
            if field is not None:
                yield mine, field
            yield mine, None  # a field the writer does not have (added, or required)
        yield from self._enum_users(full, writer)

    def _enum_users(self, enum_full: str, writer: Side):
        """Writer fields whose type is the enum a finding about an enum value names; when no
        message uses it, a one-field carrier message added to both versions' pools."""
        found = False
        for message in _messages(self.pools[writer], self._files(writer)):
            for field in message.fields:
                if field.enum_type is not None and field.enum_type.full_name == enum_full:
                    found = True
                    yield message, field
        if not found and all(p.enum(enum_full) for p in self.pools.values()):
            carrier = self.pools[writer].carrier(enum_full)
            self.pools[Side.NEW if writer is Side.OLD else Side.OLD].carrier(enum_full)
            yield carrier, carrier.fields_by_name[CARRIER_FIELD]

    def _files(self, side: Side):
        return self.pools[side].files

    def _enum_value(self, path: str, field):
        if field is None or field.enum_type is None:
            return None
        return field.enum_type.values_by_name.get(path.rpartition(".")[2])

    def _try(self, built, reader_message, writer: Side) -> Example | None:
        from google.protobuf import json_format, message_factory
        payload = json_format.MessageToDict(built)
        reader_class = message_factory.GetMessageClass(reader_message)
        try:
            parsed = reader_class.FromString(built.SerializeToString())
        except Exception as error:  # noqa: BLE001 - DecodeError, or a runtime's own type
            return Example(writer, payload, Outcome.ERROR, reader_error=short(error))
        if not parsed.IsInitialized():  # what ParseFromString means in C++ and Java: it throws
            missing = ", ".join(parsed.FindInitializationErrors())
            return Example(writer, payload, Outcome.ERROR, reader_error=short(MISSING_REQUIRED.format(missing)))
        changed = differences(built, parsed, [])
        if changed:
            return Example(writer, payload, Outcome.CHANGED, changed=tuple(changed))
        if not self.json:
            return None
        # ProtoJSON printers may leave defaults out or write them, and may use the proto field
        # names instead of the JSON names: a reader must take all of them.
        for printing in JSON_FORMS:
            written = json_format.MessageToDict(built, **printing)
            try:
                from_json = json_format.Parse(json.dumps(written), reader_class())
            except Exception as error:  # noqa: BLE001 - ParseError
                return Example(writer, written, Outcome.ERROR, reader_error="JSON: " + short(error))
            changed = json_differences(written, json_format.MessageToDict(from_json, **printing), [])
            if changed:
                return Example(writer, written, Outcome.CHANGED, changed=tuple(changed))
        return None


class _Pool:
    """A descriptor pool and the files added to it, in protoc's order (dependencies first)."""

    def __init__(self, data: bytes):
        from google.protobuf import descriptor_pb2, descriptor_pool
        self.pool = descriptor_pool.DescriptorPool()
        self.files, self.carriers = [], {}
        for proto in descriptor_pb2.FileDescriptorSet.FromString(data).file:
            self.pool.Add(proto)
            self.files.append(self.pool.FindFileByName(proto.name))

    def FindMessageTypeByName(self, name: str):  # noqa: N802 - mirrors the pool's API
        return self.pool.FindMessageTypeByName(name)

    def enum(self, full_name: str):
        try:
            return self.pool.FindEnumTypeByName(full_name)
        except KeyError:
            return None

    def carrier(self, enum_full: str):
        """A message with one field of the enum's type, in a file of its own (added once)."""
        from google.protobuf import descriptor_pb2
        name = f"{CARRIER}_{len(self.carriers)}"
        if enum_full in self.carriers:
            return self.pool.FindMessageTypeByName(self.carriers[enum_full])
        enum = self.enum(enum_full)
        proto = descriptor_pb2.FileDescriptorProto(
            name=f"{name}.proto", dependency=[enum.file.name], syntax=_syntax(enum.file))
        message = proto.message_type.add(name=name)
        message.field.add(name=CARRIER_FIELD, number=1, type=descriptor_pb2.FieldDescriptorProto.TYPE_ENUM,
                          type_name=f".{enum_full}", label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
        self.pool.Add(proto)
        self.carriers[enum_full] = name
        return self.pool.FindMessageTypeByName(name)


def _pool(data: bytes) -> _Pool:
    return _Pool(data)


def _syntax(file) -> str:
    from google.protobuf import descriptor_pb2
    proto = descriptor_pb2.FileDescriptorProto()
    file.CopyToProto(proto)
    return proto.syntax or "proto2"


def _qualified(package: str, name: str) -> str:
    return f"{package}.{name}" if package else name


def _messages(pool: _Pool, files):
    stack = [m for f in files for m in f.message_types_by_name.values()]
    while stack:
        message = stack.pop(0)
        yield message
        stack.extend(message.nested_types)


