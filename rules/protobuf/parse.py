"""Compile a Source with protoc and turn its FileDescriptorSet into a Schema."""
from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from ..model import SchemaError, Side, Source
from ..textlines import file_lines
from . import descriptors
from .compile import Compilation
from .schema import (Cardinality, Enum, EnumValue, Field, Message, Reserved, Rpc, Schema,
                     Service, SpanIndex)

EMPTY = "file is empty"
NOT_COMPILED = "protoc did not report the file {name!r} in its output"
# FileDescriptorProto / DescriptorProto / EnumDescriptorProto field numbers (source-info paths).
FILE_PACKAGE, FILE_MESSAGE, FILE_ENUM, FILE_SERVICE, FILE_EXTENSION = 2, 4, 5, 6, 7
MSG_FIELD, MSG_NESTED, MSG_ENUM, MSG_EXTENSION, MSG_RESERVED_RANGE, MSG_RESERVED_NAME = 2, 3, 4, 6, 9, 10
ENUM_VALUE, ENUM_RESERVED_RANGE, ENUM_RESERVED_NAME = 2, 4, 5
SERVICE_METHOD = 2
IMPLICIT_PRESENCE, LEGACY_REQUIRED = 2, 3  # FeatureSet.FieldPresence in editions
DELIMITED = 2  # FeatureSet.MessageEncoding: a message field written as a group (editions)
VERIFY, NO_VALIDATION = 2, 3  # FeatureSet.Utf8Validation
# What each syntax's string fields do (protobuf's editions defaults): proto2 reads any bytes,
# proto3 and every edition so far (2023, 2024) refuse text that is not UTF-8.
SYNTAX_UTF8 = {"proto2": NO_VALIDATION, "proto3": VERIFY, "editions": VERIFY}
LABEL_REQUIRED, LABEL_REPEATED = 2, 3  # FieldDescriptorProto.Label
FIELD_ATTRIBUTES = attrgetter("name", "number", "type", "type_name", "json_name", "label",
                              "proto3_optional")
IDEMPOTENCY = ("IDEMPOTENCY_UNKNOWN", "NO_SIDE_EFFECTS", "IDEMPOTENT")  # MethodOptions.IdempotencyLevel
CTYPE = ("STRING", "CORD", "STRING_PIECE")  # FieldOptions.CType
JSTYPE = ("JS_NORMAL", "JS_STRING", "JS_NUMBER")  # FieldOptions.JSType
OPTIMIZE_FOR = {1: "SPEED", 2: "CODE_SIZE", 3: "LITE_RUNTIME"}  # FileOptions.OptimizeMode
# FieldDescriptorProto.Type numbers -> the keyword as written in .proto files.
KINDS = {1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64",
         7: "fixed32", 8: "bool", 9: "string", 10: "group", 11: "message", 12: "bytes",
         13: "uint32", 14: "enum", 15: "sfixed32", 16: "sfixed64", 17: "sint32", 18: "sint64"}


class Parsed:
    """One version: protoc starts at once (so both versions compile in parallel, as the engine
    parses NEW and then OLD before comparing); `schema()` waits and builds the Schema once.
    protoc's own complaints therefore surface from `compare`, with the side set here."""

    def __init__(self, source: Source):
        self.source = source
        self._run = Compilation(source)
        self._schema: Schema | None = None
        self.descriptor_set = b""  # protoc's FileDescriptorSet, once compiled (rules.examples)

    def schema(self, side: Side) -> Schema:
        if self._schema is None:
            try:
                descriptors.prepare()  # while protoc still runs
                self.descriptor_set = self._run.result()
                self._schema = _build(self.source, self._run.name, self.descriptor_set,
                                      located=self._run.files)
            except SchemaError as error:
                error.side = side
                raise
        return self._schema

    def __del__(self):
        run = getattr(self, "_run", None)
        if run is not None:
            run.close()  # never compared (the other version failed): stop protoc, drop files


def parse(source: Source) -> Parsed:
    """Validate and start compiling one version; unusable text raises SchemaError right here."""
    if not source.text.strip():
        raise SchemaError(source.path, None, EMPTY)
    return Parsed(source)


def _build(source: Source, name: str, data: bytes, located: dict[str, str]) -> Schema:
    """`located`: import name -> the path a finding there names; an import not in it has no
    lines of its own (findings about its types sit on the field of this file using them)."""
    files = descriptors.read(data).file
    main = next((f for f in files if f.name == name), None)
    if main is None:
        raise SchemaError(source.path, None, NOT_COMPILED.format(name=name))
    types: dict = {}
    builders = []
    for each in files:
        if each is not main:
            index = SpanIndex(each.source_code_info.location, file=located[each.name]) \
                if each.name in located else SpanIndex()
            builders.append(_Builder(each, index, types, main=False))
            builders[-1].file()
    index = SpanIndex(main.source_code_info.location)
    own = _Builder(main, index, types, main=True)
    own.file()
    extensions = frozenset((extendee, field.number, field.json_name)
                           for builder in (*builders, own)
                           for extendee, owner in builder.extensions.items()
                           for field in owner.fields.values())
    _link_maps(types)
    services = frozenset(f"{each.package}.{s.name}" if each.package else s.name
                         for each in files for s in each.service)
    return Schema(path=source.path, lines=file_lines(source.text), syntax=own.syntax,
                  package=main.package, index=index, messages=own.messages, enums=own.enums,
                  rpcs=own.rpcs, types=types, services=own.services, all_services=services,
                  file_options=_file_options(main.options), extensions=own.extensions,
                  all_extensions=extensions)


class _Builder:
    """Walks one FileDescriptorProto, filling the shared full-name index."""

    def __init__(self, proto, index: SpanIndex, types: dict, *, main: bool):
        self.proto, self.index, self.types, self.main = proto, index, types, main
        self.syntax = proto.syntax or "proto2"
        self.prefix = f"{proto.package}." if proto.package else ""
        self.messages: dict[str, Message] = {}
        self.enums: dict[str, Enum] = {}
        self.rpcs: dict[str, Rpc] = {}
        self.services: dict[str, Service] = {}
        self.extensions: dict[str, Message] = {}  # extendee's full name -> the file's extensions
        self.features = _Features(0, SYNTAX_UTF8.get(self.syntax, VERIFY), 0)
        if proto.HasField("options"):
            self.features = self.features.within(proto.options)

    def file(self) -> None:
        for i, message in enumerate(self.proto.message_type):
            self.message(message, "", (FILE_MESSAGE, i), self.features)
        for i, each in enumerate(self.proto.extension):
            self.extension(each, "", (FILE_EXTENSION, i), self.features)
        for i, enum in enumerate(self.proto.enum_type):
            self.enum(enum, "", (FILE_ENUM, i))
        for i, service in enumerate(self.proto.service):
            self.services[service.name] = Service(service.name, self.prefix + service.name,
                                                  (FILE_SERVICE, i), self.index)
            for j, method in enumerate(service.method):
                name = f"{service.name}.{method.name}"
                self.rpcs[name] = Rpc(name, method.input_type.lstrip("."),
                                      method.output_type.lstrip("."), method.client_streaming,
                                      method.server_streaming, (FILE_SERVICE, i, SERVICE_METHOD, j),
                                      self.index, _idempotency(method.options.idempotency_level))

    def message(self, proto, outer: str, path: tuple, features: "_Features") -> None:
        name = f"{outer}{proto.name}"
        if proto.HasField("options"):
            features = features.within(proto.options)
        oneofs = {i: o.name for i, o in enumerate(proto.oneof_decl)}
        fields = {}
        for i, each in enumerate(proto.field):
            field = self.field(each, oneofs, path + (MSG_FIELD, i), features)
            fields[field.number] = field
        reserved = _reserved(proto.reserved_range, proto.reserved_name, path,
                             MSG_RESERVED_RANGE, MSG_RESERVED_NAME, inclusive=False)
        nested = tuple(f"{name}.{n.name}" for n in proto.nested_type if not n.options.map_entry)
        nested += tuple(f"{name}.{e.name}" for e in proto.enum_type)
        message = Message(name=name, full=self.prefix + name, fields=fields, reserved=reserved,
                          at=path, index=self.index, syntax=self.syntax, main=self.main,
                          nested=nested, map_entry=proto.options.map_entry,
                          by_name={f.name: f for f in fields.values()})
        self.types[message.full] = message
        if not proto.options.map_entry:
            self.messages[name] = message
        for i, each in enumerate(proto.nested_type):
            self.message(each, f"{name}.", path + (MSG_NESTED, i), features)
        for i, each in enumerate(proto.enum_type):
            self.enum(each, f"{name}.", path + (MSG_ENUM, i))
        for i, each in enumerate(proto.extension):
            self.extension(each, f"{name}.", path + (MSG_EXTENSION, i), features)

    def extension(self, proto, scope: str, path: tuple, features: "_Features") -> None:
        """An `extend` field, kept with the file's other extensions of the same message (paired
        by number, as buf pairs them), named by its scope: its JSON and text name is `[p.x]`."""
        extendee = proto.extendee.lstrip(".")
        field = self.field(proto, {}, path, features)
        field.name = f"{scope}{field.name}"
        field.json_name = f"[{self.prefix}{field.name}]"  # how JSON and text format key it
        owner = self.extensions.get(extendee)
        if owner is None:
            shown = extendee[len(self.prefix):] if extendee.startswith(self.prefix) else extendee
            owner = self.extensions[extendee] = Message(
                name=f"extend {shown}", full=f"extend {extendee}", fields={},
                reserved=Reserved((), (), (), ()), at=path, index=self.index, syntax=self.syntax,
                main=self.main)
        owner.fields[field.number] = field
        owner.by_name[field.name] = field

    def field(self, proto, oneofs: dict, path: tuple, features: "_Features") -> Field:
        # Read in one call and built positionally: a 10,000-field file runs this 10,000 times.
        name, number, kind, ref, json_name, label, synthetic = FIELD_ATTRIBUTES(proto)
        kind, ref, has = KINDS[kind], ref.lstrip("."), proto.HasField
        in_oneof, has_options = has("oneof_index"), has("options")
        if has_options:
            features = features.within(proto.options)
        if kind == "message" and features.encoding == DELIMITED:
            kind = "group"  # the same bytes as a proto2 group (buf: "delimited encoding")
        oneof = oneofs.get(proto.oneof_index) if in_oneof and not synthetic else None
        if label == LABEL_REPEATED:
            cardinality = Cardinality.REPEATED
        elif label == LABEL_REQUIRED or features.presence == LEGACY_REQUIRED:
            cardinality = Cardinality.REQUIRED
        elif in_oneof or synthetic or kind in ("message", "group") or not (
                self.syntax == "proto3" or features.presence == IMPLICIT_PRESENCE):
            cardinality = Cardinality.OPTIONAL  # explicit presence (editions' default too)
        else:
            cardinality = Cardinality.IMPLICIT
        built = Field(name, number, kind, ref, ref, cardinality, oneof, json_name,
                      proto.default_value if has("default_value") else None,
                      has_options and proto.options.deprecated, path, self.index)
        if has_options:
            built.ctype = _named(CTYPE, proto.options.ctype)
            built.jstype = _named(JSTYPE, proto.options.jstype)
        if kind == "string":
            built.utf8_verified = features.utf8 == VERIFY
        return built

    def enum(self, proto, outer: str, path: tuple) -> None:
        name = f"{outer}{proto.name}"
        values = tuple(EnumValue(v.name, v.number, v.HasField("options") and v.options.deprecated,
                                 path + (ENUM_VALUE, i), self.index)
                       for i, v in enumerate(proto.value))
        reserved = _reserved(proto.reserved_range, proto.reserved_name, path,
                             ENUM_RESERVED_RANGE, ENUM_RESERVED_NAME, inclusive=True)
        enum = Enum(name=name, full=self.prefix + name, values=values, reserved=reserved,
                    at=path, index=self.index, syntax=self.syntax, main=self.main,
                    by_name={v.name: v for v in values})
        for value in values:
            enum.by_number.setdefault(value.number, []).append(value)
        self.types[enum.full] = enum
        self.enums[name] = enum


class _Features(NamedTuple):
    """Editions features as they apply to an element: each is inherited file -> message ->
    field, the nearest setting winning (0: set nowhere above; utf8 starts at the syntax's)."""

    encoding: int  # FeatureSet.message_encoding
    utf8: int  # FeatureSet.utf8_validation
    presence: int  # FeatureSet.field_presence (editions; proto2/proto3 say it by syntax)

    def within(self, options) -> "_Features":
        """The features of an element whose own options are `options`."""
        mine = options.features
        return _Features(mine.message_encoding or self.encoding, mine.utf8_validation or self.utf8,
                         mine.field_presence or self.presence)


def _reserved(ranges, names, path: tuple, range_tag: int, name_tag: int,
              *, inclusive: bool) -> Reserved:
    # Message reserved ranges end exclusively, enum reserved ranges inclusively.
    return Reserved(
        ranges=tuple((r.start, r.end + 1 if inclusive else r.end) for r in ranges),
        names=tuple(names),
        range_paths=tuple(path + (range_tag, i) for i in range(len(ranges))),
        name_paths=tuple(path + (name_tag, i) for i in range(len(names))))


def _link_maps(types: dict) -> None:
    """Give map fields their key and value fields, and a package-less name to every reference."""
    for each in types.values():
        if not isinstance(each, Message):
            continue
        for field in each.fields.values():
            if not field.ref_full:
                continue
            target = types.get(field.ref_full)
            if target is None:
                continue
            field.ref = target.name
            if field.cardinality is Cardinality.REPEATED and isinstance(target, Message) \
                    and target.map_entry:
                field.cardinality = Cardinality.MAP
                field.map_types = (target.fields[1], target.fields[2])


def _idempotency(level: int) -> str:
    return _named(IDEMPOTENCY, level)


def _named(names: tuple[str, ...], number: int) -> str:
    """An enum option's value name (its number when this protoc knows more names than we do)."""
    return names[number] if 0 <= number < len(names) else str(number)


def _file_options(options) -> dict[str, str]:
    """Every FileOptions field the view reads, defaults included (buf compares values)."""
    values = {}
    for name, *_rest in descriptors.VIEW["FileOptions"]:
        if name == "features":
            continue  # editions features are read where they apply (fields, messages)
        value = getattr(options, name)
        if name == "optimize_for":
            value = OPTIMIZE_FOR.get(value, str(value))
        elif isinstance(value, bool):
            value = "true" if value else "false"
        values[name] = value
    return values
