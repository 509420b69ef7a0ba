"""Protobuf examples: a message of the writer's descriptors, in binary and canonical JSON, parsed
with the reader's; a parse error, or a field that disappears or reads differently."""
from __future__ import annotations

import json

from ..model import Example, Outcome, Side
from ..protobuf.context import WIRE_JSON
from .budget import Budget, instance_path, short

# Values that expose a change: an ordinary one, then the extremes a narrower type cannot hold.
SCALARS = {
    "int32": (1, -1, 2**31 - 1), "sint32": (1, -1), "sfixed32": (1, -1),
    "int64": (1, -1, 2**63 - 1), "sint64": (1, -1), "sfixed64": (1, -1),
    "uint32": (1, 2**32 - 1), "fixed32": (1, 2**32 - 1),
    "uint64": (1, 2**64 - 1), "fixed64": (1, 2**64 - 1),
    "float": (1.5,), "double": (1.5, 1e300), "bool": (True,),
    "string": ("x",), "bytes": (b"x", b"\xff"),
}
MISSING_REQUIRED = "message is missing required fields: {}"
CARRIER, CARRIER_FIELD = "SchemaReviewCarrier", "value"  # holds an enum no message uses
DEEP = 4  # nested messages filled below this depth stay empty (recursive types end)


class Finder:
    """Message classes of both versions, built once from protoc's FileDescriptorSets."""

    def __init__(self, old, new, options):
        self.pools = {Side.OLD: _pool(old.descriptor_set), Side.NEW: _pool(new.descriptor_set)}
        self.packages = {Side.OLD: old.schema(Side.OLD).package, Side.NEW: new.schema(Side.NEW).package}
        self.json = WIRE_JSON in options.proto_categories

    def find(self, finding, *, writer: Side, budget: Budget) -> Example | None:
        reader = Side.NEW if writer is Side.OLD else Side.OLD
        for message, field in self._targets(finding.path, writer, reader):
            reader_message = self._message(reader, message.full_name)
            if reader_message is None:
                continue
            for built in _candidates(message, field, self._enum_value(finding.path, field)):
                if not budget.spend():
                    return None
                example = self._try(built, reader_message, writer)
                if example is not None:
                    return example
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
        changed = _differences(built, parsed, [])
        if changed:
            return Example(writer, payload, Outcome.CHANGED, changed=tuple(changed))
        if not self.json:
            return None
        # Canonical JSON may leave default values out or write them: a reader must take both.
        full = json_format.MessageToDict(built, always_print_fields_with_no_presence=True)
        for written, defaults in ([(payload, False), (full, True)] if full != payload else [(payload, False)]):
            try:
                from_json = json_format.Parse(json.dumps(written), reader_class())
            except Exception as error:  # noqa: BLE001 - ParseError
                return Example(writer, written, Outcome.ERROR, reader_error="JSON: " + short(error))
            read = json_format.MessageToDict(from_json, always_print_fields_with_no_presence=defaults)
            changed = _json_differences(written, read, [])
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


def _candidates(message, field, enum_value):
    """Messages of the writer's type: the field set to each sample, then every field set."""
    from google.protobuf import message_factory
    cls = message_factory.GetMessageClass(message)
    if field is not None:
        for sample in _samples(field, enum_value):
            built = _minimal(cls())
            _set(built, field, sample)
            yield built
    yield _minimal(cls())
    full = _minimal(cls())
    for each in message.fields:
        if each.containing_oneof is None or each is field:
            _set(full, each, _samples(each, None)[0])
    for each in message.fields:  # the other members of a oneof go last: the last one set wins
        if each.containing_oneof is not None and each is not field:
            _set(full, each, _samples(each, None)[0])
    yield full


def _samples(field, enum_value) -> list:
    if _is_map(field):  # a map's samples are its values'
        value_field = field.message_type.fields_by_name["value"]
        return [None] if value_field.message_type is not None else _samples(value_field, None)
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


def _set(message, field, sample, depth: int = 0) -> None:
    """Give the field a non-default value (two elements when repeated, one entry for a map)."""
    if _is_map(field):
        key_field, value_field = field.message_type.fields_by_name["key"], field.message_type.fields_by_name["value"]
        key = _samples(key_field, None)[0]
        container = getattr(message, field.name)
        if value_field.message_type is not None:
            _fill(container[key], depth + 1)
        else:
            container[key] = _samples(value_field, None)[0] if sample is None else sample
        return
    if field.message_type is not None:
        if _repeated(field):
            for _ in range(2):
                _fill(getattr(message, field.name).add(), depth + 1)
        else:
            _fill(getattr(message, field.name), depth + 1)
        return
    if _repeated(field):
        getattr(message, field.name).extend([sample, sample])
    else:
        setattr(message, field.name, sample)


def _fill(message, depth: int) -> None:
    """A nested message: present, with its required fields and its first scalar set."""
    message.SetInParent()
    if depth > DEEP:
        return
    _minimal(message, depth)
    first = next((f for f in message.DESCRIPTOR.fields if f.message_type is None), None)
    if first is not None and not _repeated(first):
        _set(message, first, _samples(first, None)[0], depth)


def _minimal(message, depth: int = 0):
    """The message with every required field set (proto2), so the writer can serialize it."""
    for field in message.DESCRIPTOR.fields:
        if _required(field):
            _set(message, field, _samples(field, None)[0], depth)
    return message


def _required(field) -> bool:
    return field.is_required


def _repeated(field) -> bool:
    return field.is_repeated


def _is_map(field) -> bool:
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def _differences(written, read, steps: list) -> list[str]:
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
                and not _repeated(field) and not _repeated(other) and not _is_map(field):
            out += _differences(getattr(written, field.name), getattr(read, other.name), here)
        elif mine != theirs:
            out.append(instance_path(here))
    return out


def _present(message, field) -> bool:
    if _repeated(field):
        return len(getattr(message, field.name)) > 0
    if field.has_presence:
        return message.HasField(field.name)
    return getattr(message, field.name) != field.default_value


def _value(message, field):
    """A comparable value: enums by name, bytes and strings as bytes, messages serialized."""
    value = getattr(message, field.name)
    if _is_map(field):
        return sorted((k, _plain(v, field.message_type.fields_by_name["value"])) for k, v in value.items())
    if _repeated(field):
        return [_plain(v, field) for v in value]
    return _plain(value, field)


def _plain(value, field):
    if field.enum_type is not None:
        known = field.enum_type.values_by_number.get(value)
        return known.name if known else value
    if isinstance(value, str):
        return value.encode("utf-8")
    if hasattr(value, "SerializeToString"):
        return value.SerializeToString(deterministic=True)
    return value


def _json_differences(written, read, steps: list) -> list[str]:
    """JSON keys whose value reads back differently (64-bit numbers compared as numbers)."""
    if isinstance(written, dict) and isinstance(read, dict):
        out = []
        for key, value in written.items():
            if key not in read:
                out.append(instance_path(steps + [key]))
            else:
                out += _json_differences(value, read[key], steps + [key])
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
