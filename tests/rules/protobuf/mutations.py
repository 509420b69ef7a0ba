"""A seeded generator of single-change .proto mutations for the differential test against buf."""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

SCALARS = ["int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64",
           "sfixed32", "sfixed64", "bool", "string", "bytes", "float", "double"]


@dataclass
class F:
    kind: str
    name: str
    number: int
    label: str = ""  # "", "optional", "repeated", "required"
    oneof: str = ""
    options: str = ""


@dataclass
class Schema:
    syntax: str = "proto3"
    edition: str = ""  # set: an editions file (`edition = "..."` instead of `syntax`)
    package: str = "diff"
    fields: list[F] = field(default_factory=list)
    reserved: list[str] = field(default_factory=list)  # statements inside Order
    values: list[tuple[str, int]] = field(default_factory=list)  # enum Status
    enum_reserved: list[str] = field(default_factory=list)
    extra_message: bool = True  # message Audit, unused by the rest
    idempotency: str = "NO_SIDE_EFFECTS"  # of rpc Orders.Get; "" leaves the option out
    extra_rpc: bool = True  # rpc Orders.List
    service: bool = True  # service Orders
    file_options: list[str] = field(default_factory=lambda: ['go_package = "example.com/diff"'])

    def render(self) -> str:
        head = f'edition = "{self.edition}";' if self.edition else f'syntax = "{self.syntax}";'
        out = [head, "", f"package {self.package};", ""]
        out += [f"option {option};" for option in self.file_options] + ["", "message Order {"]
        out += [f"  reserved {r};" for r in self.reserved]
        oneofs: dict[str, list[F]] = {}
        for f in self.fields:
            if f.oneof:
                if f.oneof not in oneofs:
                    oneofs[f.oneof] = []
                    out.append(f"  oneof {f.oneof} {{ ONEOF:{f.oneof} }}")
                oneofs[f.oneof].append(f)
            else:
                out.append("  " + _field(f))
        text = "\n".join(out)
        for name, members in oneofs.items():
            text = text.replace(f"ONEOF:{name}", " ".join(_field(f) for f in members))
        label = "optional " if self.syntax == "proto2" else ""
        tail = ["}", "", "message Line {", f"  {label}string sku = 1;", "}", "", "enum Status {"]
        tail += [f"  reserved {r};" for r in self.enum_reserved]
        tail += [f"  {name} = {number};" for name, number in self.values] + ["}", ""]
        if self.extra_message:
            tail += ["message Audit {", f"  {label}string who = 1;", "}", ""]
        level = f" option idempotency_level = {self.idempotency}; " if self.idempotency else ""
        if self.service:
            tail += ["service Orders {", f"  rpc Get(Order) returns (Order) {{{level}}}"]
            tail += ["  rpc List(Order) returns (stream Order);"] if self.extra_rpc else []
            tail += ["}", ""]
        return text + "\n" + "\n".join(tail)


def _field(f: F) -> str:
    label = f"{f.label} " if f.label else ""
    options = f" [{f.options}]" if f.options else ""
    return f"{label}{f.kind} {f.name} = {f.number}{options};"


def base(syntax: str = "proto3") -> Schema:
    kinds = ["string", "int32", "int64", "bytes", "fixed32", "sint64", "double", "bool",
             "uint32", "sfixed64"]
    fields = [F(kind, f"f_{kind}", i + 1) for i, kind in enumerate(kinds)]
    fields += [F("Status", "status", 11), F("Line", "line", 12), F("map<string, int32>", "counts", 13),
               F("string", "email", 14, oneof="contact"), F("string", "phone", 15, oneof="contact"),
               F("string", "memo", 16)]
    if syntax == "proto2":
        for f in fields:
            if not f.oneof and not f.kind.startswith("map"):
                f.label = "optional"
        fields.append(F("int32", "retries", 17, label="optional", options="default = 3"))
        fields.append(F("string", "sku", 18, label="required"))
    return Schema(syntax=syntax, fields=fields, reserved=["20 to 22", '"legacy"'],
                  values=[("STATUS_UNSPECIFIED", 0), ("STATUS_ACTIVE", 1), ("STATUS_DONE", 2)],
                  enum_reserved=["5 to 7"])


def _plain(schema: Schema, rng: random.Random, *, scalar=False) -> F:
    pool = [f for f in schema.fields if not f.oneof and not f.kind.startswith("map")
            and f.label != "required" and (not scalar or f.kind in SCALARS)]
    return rng.choice(pool)


def delete_field(s, rng):
    s.fields.remove(_plain(s, rng))


def delete_field_reserve_number(s, rng):
    f = _plain(s, rng)
    s.fields.remove(f)
    s.reserved.append(str(f.number))


def delete_field_reserve_both(s, rng):
    f = _plain(s, rng)
    s.fields.remove(f)
    s.reserved += [str(f.number), f'"{f.name}"']


def renumber_field(s, rng):
    _plain(s, rng).number = rng.randint(30, 40)


def renumber_field_reserved(s, rng):
    f = _plain(s, rng)
    s.reserved.append(str(f.number))
    f.number = rng.randint(30, 40)


def retype(s, rng):
    """Any scalar to any other, except bytes -> string (its own kind below)."""
    f = _plain(s, rng, scalar=True)
    f.kind = rng.choice([k for k in SCALARS if k != f.kind and (f.kind, k) != ("bytes", "string")])


def bytes_to_string(s, rng):
    next(f for f in s.fields if f.kind == "bytes").kind = "string"


def retype_enum(s, rng):
    """An enum to another varint type."""
    next(f for f in s.fields if f.name == "status").kind = rng.choice(["int32", "uint64", "bool"])


def retype_enum_zigzag(s, rng):
    next(f for f in s.fields if f.name == "status").kind = rng.choice(["sint32", "fixed32"])


def retype_message(s, rng):
    next(f for f in s.fields if f.name == "line").kind = rng.choice(["Audit", "bytes", "string"])


def retype_map_value(s, rng):
    next(f for f in s.fields if f.name == "counts").kind = rng.choice(
        ["map<string, int64>", "map<string, string>", "map<string, uint32>"])


def make_repeated_numeric(s, rng):
    rng.choice([f for f in s.fields if f.kind in SCALARS and f.kind not in ("string", "bytes")
                and not f.oneof and f.label != "required"]).label = "repeated"


def make_repeated_delimited(s, rng):
    """string, bytes or a message field: length-delimited, never packed."""
    rng.choice([f for f in s.fields if f.kind in ("string", "bytes", "Line")
                and not f.oneof and f.label != "required"]).label = "repeated"


def make_optional(s, rng):
    _plain(s, rng, scalar=True).label = "optional"


def move_one_into_new_oneof(s, rng):
    _plain(s, rng).oneof = "picked"


def move_two_into_new_oneof(s, rng):
    first = _plain(s, rng)
    second = rng.choice([f for f in s.fields if f is not first and not f.oneof
                         and not f.kind.startswith("map") and f.label != "required"])
    first.oneof = second.oneof = "picked"


def move_out_of_oneof(s, rng):
    rng.choice([f for f in s.fields if f.oneof]).oneof = ""


def rename_oneof(s, rng):
    for f in s.fields:
        if f.oneof:
            f.oneof = "channel"


def rename_field(s, rng):
    f = _plain(s, rng)
    f.name += "_v2"


def set_json_name(s, rng):
    _plain(s, rng).options = 'json_name = "renamedInJson"'


def delete_message(s, rng):
    s.extra_message = False


def delete_enum_value(s, rng):
    s.values.pop(rng.choice([1, 2]))


def delete_enum_value_reserved(s, rng):
    name, number = s.values.pop(2)
    s.enum_reserved += [str(number), f'"{name}"']


def rename_enum_value(s, rng):
    name, number = s.values[1]
    s.values[1] = (name + "_V2", number)


def renumber_enum_value(s, rng):
    name, _ = s.values[2]
    s.values[2] = (name, 9)


def drop_reserved(s, rng):
    s.reserved.pop(rng.choice([0, 1]))


def shrink_enum_reserved(s, rng):
    s.enum_reserved = ["5 to 6"]


def change_idempotency(s, rng):
    s.idempotency = rng.choice(["IDEMPOTENT", ""])


def change_package(s, rng):
    s.package += "_next"


def make_required(s, rng):
    _plain(s, rng).label = "required"


def drop_required(s, rng):
    next(f for f in s.fields if f.label == "required").label = "optional"


def delete_required(s, rng):
    s.fields.remove(next(f for f in s.fields if f.label == "required"))


def add_required(s, rng):
    s.fields.append(F("string", "token", 19, label="required"))


def change_default(s, rng):
    next(f for f in s.fields if f.name == "retries").options = f"default = {rng.choice([0, 4, 9])}"


def change_go_package(s, rng):
    s.file_options = [rng.choice(['go_package = "example.com/other"', 'java_package = "com.diff"'])]


def retype_same_json(s, rng):
    """Same bytes and JSON syntax, another range: buf's WIRE_JSON accepts int64 -> uint64."""
    f = rng.choice([f for f in s.fields if f.kind in ("int32", "int64", "uint32") and not f.oneof])
    f.kind = {"int32": "uint32", "int64": "uint64", "uint32": "int32"}[f.kind]


def delete_rpc(s, rng):
    s.extra_rpc = False


def delete_service(s, rng):
    s.service = False


def set_language_type(s, rng):
    f = rng.choice([f for f in s.fields if f.kind in ("string", "bytes", "int64") and not f.oneof])
    f.options = "jstype = JS_STRING" if f.kind == "int64" else "ctype = CORD"


def to_edition_unverified(s, rng):
    """proto3 to edition 2023 with strings that no longer verify UTF-8 (and, as in every
    edition, explicit presence); reserved names become identifiers, as editions write them."""
    s.edition = "2023"
    s.file_options = s.file_options + ["features.utf8_validation = NONE"]
    s.reserved = [r.strip('"') for r in s.reserved]


PROTO3 = [delete_field, delete_field_reserve_number, delete_field_reserve_both, renumber_field,
          renumber_field_reserved, retype, retype, retype, bytes_to_string, retype_enum, retype_enum_zigzag,
          retype_message, retype_map_value, make_repeated_numeric, make_repeated_delimited,
          make_optional, move_one_into_new_oneof, move_two_into_new_oneof, move_out_of_oneof,
          rename_oneof, rename_field, set_json_name, delete_message, delete_enum_value,
          delete_enum_value_reserved, rename_enum_value, renumber_enum_value, drop_reserved,
          shrink_enum_reserved, change_package, change_idempotency, change_go_package, delete_rpc,
          delete_service, set_language_type, retype_same_json]
PROTO2 = [make_required, drop_required, delete_required, add_required, change_default]
# Kept out of PROTO3 so that the seeded samples stay as measured; test_differential adds them.
EDITIONS = [to_edition_unverified]


@dataclass(frozen=True)
class Mutation:
    name: str  # unique: m07_retype
    kind: str
    old: str
    new: str


def generate(count: int, seed: int) -> list[Mutation]:
    """`count` mutations: every kind at least once, then seeded random picks."""
    rng = random.Random(seed)
    plan = [(m, "proto3") for m in PROTO3] + [(m, "proto2") for m in PROTO2]
    while len(plan) < count:
        plan.append(rng.choice(plan[:len(PROTO3) + len(PROTO2)]))
    return [one(mutate, syntax, i, rng) for i, (mutate, syntax) in enumerate(plan[:count])]


def one(mutate, syntax: str, index: int, rng: random.Random) -> Mutation:
    """The base of `syntax` (package unique by `index`) and its mutation."""
    old = base(syntax)
    old.package = f"diff.m{index:02d}"
    new = copy.deepcopy(old)
    mutate(new, rng)
    return Mutation(f"m{index:02d}_{mutate.__name__}", mutate.__name__, old.render(), new.render())
