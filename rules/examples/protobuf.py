"""Protobuf examples: a message of the writer's descriptors, in binary and canonical JSON, parsed
with the reader's; a parse error, or a field of the finding that disappears or reads differently.

Only the finding's field is set (and required fields, and for a oneof change a field it shares a
oneof with), and only what happens to it counts: an example shows its own finding's break."""
from __future__ import annotations

import base64
import json

from ..model import Example, Outcome, Side
from ..protobuf.categories import checks_json
from . import protoutf8
from .budget import Budget, TooBig, short, too_big
from .protodiff import differences, json_differences, reader_view
from .protomessages import candidates

JSON_FORMS = ({}, {"always_print_fields_with_no_presence": True},
              {"preserving_proto_field_name": True})
MISSING_REQUIRED = "message is missing required fields: {}"
CARRIER, CARRIER_FIELD = "SchemaReviewCarrier", "value"  # holds an enum no message uses
# Deletions leave every binary message readable (the reader keeps the field aside as unknown,
# an open enum keeps the number): only JSON shows them, by the name the reader no longer has
# (reserving it does not help: "Runtime JSON parsing is not affected by reserved names").
FIELD_KEPT = ("the binary form decodes unchanged (the reader keeps the field aside as unknown) "
              "and JSON, where the name would be rejected, is not checked")
NUMBER_KEPT = ("the binary form keeps the number (open enum) and JSON, where the name would be "
               "rejected, is not checked")
JSON_ONLY = {"PROTO_FIELD_DELETED_NOT_RESERVED": FIELD_KEPT, "PROTO_FIELD_DELETED": FIELD_KEPT,
             "PROTO_ENUM_VALUE_DELETED_NOT_RESERVED": NUMBER_KEPT,
             "PROTO_ENUM_VALUE_DELETED": NUMBER_KEPT}
# Renames change names only: the binary form is the same by construction, so a binary break on
# the same field is another finding's (a type change made with the rename). JSON shows these.
NAMES_ONLY = frozenset({"PROTO_FIELD_RENAMED", "PROTO_FIELD_JSON_NAME_CHANGED",
                        "PROTO_ENUM_VALUE_RENAMED"})
# Wire-compatible changes of the JSON form or range: JSON first (a binary difference there may be
# a nested type's own change); binary after, where the runtime still breaks (bytes to string:
# UTF-8; int32 to uint32: -1 reads as 4294967295).
JSON_FIRST = frozenset({"PROTO_FIELD_JSON_TYPE_CHANGED", "PROTO_FIELD_JSON_CARDINALITY_CHANGED",
                        "PROTO_FIELD_TYPE_CHANGED"})


# Extensions are compared like fields (rules/protobuf/parse.py names their set "extend M"), but
# the search builds a message's own fields only: such a finding says so instead of an example.
EXTENSION = "extend "
EXTENSION_UNSHOWN = ("an extension rides on the message it extends; the example search sets a "
                     "message's own fields only, so none is built for it")


class Finder:
    """Message classes of both versions, built once from protoc's FileDescriptorSets."""

    def __init__(self, old, new, options):
        self.pools = {Side.OLD: _pool(old.descriptor_set), Side.NEW: _pool(new.descriptor_set)}
        self.packages = {Side.OLD: old.schema(Side.OLD).package, Side.NEW: new.schema(Side.NEW).package}
        self.json = checks_json(options.proto_categories)

    def unshown(self, finding) -> str | None:
        """Why no message can show the finding (not searched for extensions, or JSON is not
        checked); None: search."""
        if finding.path.startswith(EXTENSION):
            return EXTENSION_UNSHOWN
        if finding.rule == protoutf8.RULE:
            targets = self._targets(finding.path, Side.OLD, Side.NEW)
            if any(f is not None and protoutf8.map_key_only(f) for _m, f in targets):
                return protoutf8.MAP_KEY_UNSHOWN
        if self.json or finding.rule not in JSON_ONLY:
            return None
        if finding.rule.startswith("PROTO_ENUM") and self._closed_enum(finding.path):
            return None  # a closed enum (proto2) drops an unknown number: binary shows it
        return JSON_ONLY[finding.rule]

    def _closed_enum(self, path: str) -> bool:
        enum = self.pools[Side.OLD].enum(_qualified(self.packages[Side.OLD], path.rpartition(".")[0]))
        return enum is not None and enum.is_closed

    def find(self, finding, *, writer: Side, budget: Budget) -> Example | None:
        reader = Side.NEW if writer is Side.OLD else Side.OLD
        member = finding.path.rpartition(".")[2]
        for message, field in self._targets(finding.path, writer, reader):
            reader_message = self._counterpart(message.full_name, writer, reader)
            if reader_message is None:
                continue
            if finding.rule == protoutf8.RULE:  # bytes no message built here can hold
                if field is not None:
                    example = protoutf8.example(message, field, reader_message, writer, budget)
                    if example is not None:
                        return example
                continue
            try:
                for built, numbers in candidates(message, field, self._enum_value(finding.path, field),
                                                 _partners(field, reader_message)):
                    if not budget.spend():
                        return None
                    if numbers is None and field is not None:
                        numbers = {field.number}
                    example = self._try(built, reader_message, writer, _Focus(numbers, member, built),
                                        binary=finding.rule not in NAMES_ONLY,
                                        json_first=finding.rule in JSON_FIRST)
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

    def _counterpart(self, full_name: str, writer: Side, reader: Side):
        """The reader's message of the same name, in its own package (the package may change)."""
        mine = self._message(writer, full_name)
        package = mine.file.package if mine is not None else self.packages[writer]
        if package and full_name.startswith(package + "."):
            relative = full_name[len(package) + 1:]
            moved = self._message(reader, _qualified(self.packages[reader], relative))
            if moved is not None:
                return moved
            return self._message(reader, full_name) or self._by_suffix(reader, relative)
        return self._message(reader, full_name)

    def _by_suffix(self, side: Side, name: str):
        """The one message of that (package-relative) name in any file, an import's included:
        a finding names an imported type without its package."""
        found = [m for m in _messages(self.pools[side], self._files(side))
                 if m.full_name == name or m.full_name.endswith("." + name)]
        return found[0] if len(found) == 1 else None

    def _targets(self, path: str, writer: Side, reader: Side):
        """(writer message, writer field or None) the finding's element lives in or is used by."""
        parent, _, member = path.rpartition(".")
        full = _qualified(self.packages[writer], parent)
        mine = self._message(writer, full) or self._by_suffix(writer, parent)
        if mine is not None:
            field = mine.fields_by_name.get(member)
            if field is None:  # named as the reader calls it: the writer's field of that number
                theirs = self._counterpart(mine.full_name, writer, reader)
                named = theirs.fields_by_name.get(member) if theirs is not None else None
                field = mine.fields_by_number.get(named.number) if named is not None else None
            # A field the writer does not have (added, or required): the message as a whole.
            # One it has stays the focus: another field's break belongs to another finding.
            yield mine, field
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

    def _try(self, built, reader_message, writer: Side, focus, *, binary: bool,
             json_first: bool) -> Example | None:
        from google.protobuf import message_factory
        reader_class = message_factory.GetMessageClass(reader_message)
        forms = [self._binary] if binary else []
        if self.json:  # a change to the JSON form first shows there, where it is its own
            forms.insert(0 if json_first else len(forms), self._json)
        for form in forms:
            example = form(built, reader_class, reader_message, writer, focus)
            if example is not None:
                return example
        return None

    def _binary(self, built, reader_class, reader_message, writer: Side, focus):
        from google.protobuf import json_format
        payload, data = json_format.MessageToDict(built), built.SerializeToString()
        binary = {"encoding": "binary", "binary": base64.b64encode(data).decode("ascii")}
        try:
            parsed = reader_class.FromString(data)
        except Exception as error:  # noqa: BLE001 - DecodeError, or a runtime's own type
            return Example(writer, payload, Outcome.ERROR, reader_error=short(error), **binary)
        missing = parsed.FindInitializationErrors()
        # Not initialized: what ParseFromString means in C++ and Java (it throws).
        if missing and focus.names_any(missing):
            return Example(writer, payload, Outcome.ERROR, **binary,
                           reader_error=short(MISSING_REQUIRED.format(", ".join(missing))))
        changed = differences(built, parsed, [], focus.numbers)
        if changed:
            return Example(writer, payload, Outcome.CHANGED, changed=tuple(changed), **binary,
                           read=short(reader_view(parsed, focus.reader_numbers(reader_message))))
        return None

    def _json(self, built, reader_class, _reader_message, writer: Side, focus):
        from google.protobuf import json_format
        # ProtoJSON printers may leave defaults out or write them, and may use the proto field
        # names instead of the JSON names: a reader must take all of them.
        for printing in JSON_FORMS:
            written = focus.printed(json_format.MessageToDict(built, **printing))
            try:
                from_json = json_format.Parse(json.dumps(written), reader_class())
            except Exception as error:  # noqa: BLE001 - ParseError
                return Example(writer, written, Outcome.ERROR, reader_error="JSON: " + short(error),
                               encoding="json")
            read = json_format.MessageToDict(from_json, **printing)
            changed = json_differences(written, read, [])
            if changed:
                return Example(writer, written, Outcome.CHANGED, changed=tuple(changed),
                               encoding="json", read=short("the reader reads " + json.dumps(read)))
        return None


class _Focus:
    """The finding's fields in one candidate: by writer number (None: all of the message), and
    the JSON keys a printer may give them."""

    def __init__(self, numbers, member: str, built):
        self.numbers, self.member = numbers, member
        fields = built.DESCRIPTOR.fields
        self.fields = [f for f in fields if numbers is None or f.number in numbers]
        required = [f for f in fields if f.is_required]  # set so the writer could serialize
        self.required_keys = {k for f in required for k in (f.name, f.json_name)}

    def names_any(self, missing) -> bool:
        """Whether the reader's missing required fields include one of the finding's."""
        names = {f.name for f in self.fields} | {self.member}
        return self.numbers is None or any(m.split(".")[-1] in names for m in missing)

    def reader_numbers(self, reader_message):
        """The reader's fields of the finding: the same numbers, or the same names elsewhere."""
        if self.numbers is None:
            return None
        names = {f.name for f in self.fields}
        return set(self.numbers) | {f.number for f in reader_message.fields if f.name in names}

    def printed(self, document: dict) -> dict:
        """A printer's document cut to the finding's own keys and required fields: a printer
        writing defaults writes every field, and another field's change is another finding."""
        own = {f.json_name for f in self.fields} | {f.name for f in self.fields}
        if self.numbers is None:
            return document
        return {k: v for k, v in document.items() if k in own or k in self.required_keys}


def _partners(field, reader_message) -> list:
    """Writer fields that share a oneof with the field in either version (a oneof change)."""
    if field is None:
        return []
    numbers = set()
    if field.containing_oneof is not None:
        numbers |= {f.number for f in field.containing_oneof.fields}
    theirs = reader_message.fields_by_number.get(field.number)
    if theirs is not None and theirs.containing_oneof is not None:
        numbers |= {f.number for f in theirs.containing_oneof.fields}
    mine = field.containing_type.fields_by_number
    return [mine[n] for n in sorted(numbers - {field.number}) if n in mine]


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


