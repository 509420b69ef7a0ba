"""buf's breaking rule ids as schema-review's, and a buf.yaml `breaking:` section as Options.

Precedence: schema-review's own settings win. Categories given to schema-review (the CLI's
`--categories`, the config's `protobuf.categories`) replace the section's `use` and `except`
entirely; `rules:` severities set in schema-review's config override what `use`/`except`/
`ignore_only` decide for those rule ids. A section without `use` means buf's default, FILE; a
buf.yaml without a `breaking:` section leaves schema-review's default (WIRE_JSON).
"""
from __future__ import annotations

import dataclasses
from posixpath import normpath

from ..model import Options
from .bufyaml import Breaking, Layout
from .categories import ALL, CODE, FILE, JSON, ORDER, WIRE, WIRE_JSON

_TYPE = ("PROTO_FIELD_TYPE_INCOMPATIBLE", "PROTO_FIELD_TYPE_REFERENCE_CHANGED")
_CARDINALITY = ("PROTO_FIELD_CARDINALITY_CHANGED",)
_SAME_CARDINALITY = (*_CARDINALITY, "PROTO_FIELD_JSON_CARDINALITY_CHANGED",
                     "PROTO_FIELD_PRESENCE_CHANGED")
_FIELD_DELETED = ("PROTO_FIELD_DELETED_NOT_RESERVED", "PROTO_FIELD_NUMBER_CHANGED")
_VALUE_DELETED = ("PROTO_ENUM_VALUE_DELETED_NOT_RESERVED", "PROTO_ENUM_VALUE_NUMBER_CHANGED")
_RPC = ("PROTO_RPC_SIGNATURE_CHANGED",)
_LANGUAGE_TYPE = ("PROTO_FIELD_LANGUAGE_TYPE_CHANGED",)
_ONEOF = ("PROTO_FIELD_ONEOF_CHANGED", "PROTO_FIELD_ONEOF_ALONE_CHANGED", "PROTO_ONEOF_RENAMED")
PACKAGE_ONLY = frozenset({"PACKAGE"})
FILE_ONLY = frozenset({FILE})
WIRE_JSON_ONLY = frozenset({WIRE_JSON})
DEPRECATED = frozenset()  # buf 1.75 files deprecated ids under no category: they run when named
# The FileOptions each FILE_SAME_<OPTION> compares (rules/protobuf/file_option_changed.py).
FILE_OPTIONS = ("CC_ENABLE_ARENAS", "CC_GENERIC_SERVICES", "CSHARP_NAMESPACE", "GO_PACKAGE",
                "JAVA_GENERIC_SERVICES", "JAVA_MULTIPLE_FILES", "JAVA_OUTER_CLASSNAME",
                "JAVA_PACKAGE", "OBJC_CLASS_PREFIX", "OPTIMIZE_FOR", "PHP_CLASS_PREFIX",
                "PHP_METADATA_NAMESPACE", "PHP_NAMESPACE", "PY_GENERIC_SERVICES", "RUBY_PACKAGE",
                "SWIFT_PREFIX")

# buf rule id -> (buf's categories for it, schema-review rules that report the same change).
# The categories are `buf config ls-breaking-rules` of buf 1.75 (test_categories.py holds them).
BUF_RULES: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "FILE_SAME_PACKAGE": (ALL, ("PROTO_PACKAGE_CHANGED",)),
    "FILE_SAME_SYNTAX": (CODE, ("PROTO_SYNTAX_CHANGED",)),
    **{f"FILE_SAME_{option}": (CODE, ("PROTO_FILE_OPTION_CHANGED",)) for option in FILE_OPTIONS},
    "MESSAGE_NO_DELETE": (FILE_ONLY, ("PROTO_MESSAGE_DELETED",)),
    "PACKAGE_MESSAGE_NO_DELETE": (PACKAGE_ONLY, ("PROTO_MESSAGE_DELETED",)),
    "ENUM_NO_DELETE": (FILE_ONLY, ("PROTO_ENUM_DELETED",)),
    "PACKAGE_ENUM_NO_DELETE": (PACKAGE_ONLY, ("PROTO_ENUM_DELETED",)),
    "SERVICE_NO_DELETE": (FILE_ONLY, ("PROTO_SERVICE_DELETED",)),
    "PACKAGE_SERVICE_NO_DELETE": (PACKAGE_ONLY, ("PROTO_SERVICE_DELETED",)),
    "RPC_NO_DELETE": (CODE, ("PROTO_RPC_DELETED",)),
    "FIELD_NO_DELETE": (CODE, (*_FIELD_DELETED, "PROTO_FIELD_DELETED")),
    "FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED": (frozenset({WIRE, WIRE_JSON}), _FIELD_DELETED),
    "FIELD_NO_DELETE_UNLESS_NAME_RESERVED": (WIRE_JSON_ONLY, _FIELD_DELETED[:1]),
    "ENUM_VALUE_NO_DELETE": (CODE, (*_VALUE_DELETED, "PROTO_ENUM_VALUE_DELETED")),
    "ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED": (frozenset({WIRE, WIRE_JSON}), _VALUE_DELETED),
    "ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED": (WIRE_JSON_ONLY, _VALUE_DELETED[:1]),
    "FIELD_WIRE_COMPATIBLE_TYPE": (frozenset({WIRE}), _TYPE),
    # buf's table takes int32 <-> uint32 (and the other same-width sign changes) as JSON-compatible;
    # the runtime's JSON parser refuses the values only one holds (PROTO_FIELD_TYPE_CHANGED).
    "FIELD_WIRE_JSON_COMPATIBLE_TYPE": (WIRE_JSON_ONLY, (*_TYPE, "PROTO_FIELD_JSON_TYPE_CHANGED",
                                                         "PROTO_FIELD_TYPE_CHANGED")),
    "FIELD_SAME_TYPE": (CODE, (*_TYPE, "PROTO_FIELD_JSON_TYPE_CHANGED", "PROTO_FIELD_TYPE_CHANGED")),
    "FIELD_WIRE_COMPATIBLE_CARDINALITY": (frozenset({WIRE}), _CARDINALITY),
    "FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY": (
        WIRE_JSON_ONLY, (*_CARDINALITY, "PROTO_FIELD_JSON_CARDINALITY_CHANGED")),
    "FIELD_SAME_CARDINALITY": (CODE, _SAME_CARDINALITY),
    "FIELD_SAME_LABEL": (DEPRECATED, _SAME_CARDINALITY),  # replaced by the cardinality rules
    "FIELD_SAME_CPP_STRING_TYPE": (CODE, _LANGUAGE_TYPE),
    "FIELD_SAME_CTYPE": (DEPRECATED, _LANGUAGE_TYPE),  # replaced by FIELD_SAME_CPP_STRING_TYPE
    "FIELD_SAME_JSTYPE": (CODE, _LANGUAGE_TYPE),
    "FIELD_SAME_ONEOF": (ALL, _ONEOF),
    # A deleted oneof: its fields left it (or were deleted, FIELD_NO_DELETE).
    "ONEOF_NO_DELETE": (CODE, _ONEOF[:2]),
    "MESSAGE_SAME_REQUIRED_FIELDS": (ALL, ("PROTO_REQUIRED_FIELD_CHANGED",)),
    "FIELD_SAME_DEFAULT": (ALL, ("PROTO_FIELD_DEFAULT_CHANGED",)),
    "RESERVED_MESSAGE_NO_DELETE": (ALL, ("PROTO_RESERVED_DELETED",)),
    "RESERVED_ENUM_NO_DELETE": (ALL, ("PROTO_RESERVED_DELETED",)),
    "FIELD_SAME_NAME": (JSON, ("PROTO_FIELD_RENAMED",)),
    # A rename changes the default JSON name too: buf reports both ids for it.
    "FIELD_SAME_JSON_NAME": (JSON, ("PROTO_FIELD_JSON_NAME_CHANGED", "PROTO_FIELD_RENAMED")),
    "ENUM_VALUE_SAME_NAME": (JSON, ("PROTO_ENUM_VALUE_RENAMED",)),
    "RPC_SAME_REQUEST_TYPE": (ALL, _RPC),
    "RPC_SAME_RESPONSE_TYPE": (ALL, _RPC),
    "RPC_SAME_CLIENT_STREAMING": (ALL, _RPC),
    "RPC_SAME_SERVER_STREAMING": (ALL, _RPC),
    "RPC_SAME_IDEMPOTENCY_LEVEL": (ALL, ("PROTO_RPC_IDEMPOTENCY_CHANGED",)),
    "FIELD_SAME_UTF8_VALIDATION": (CODE, ("PROTO_FIELD_UTF8_VALIDATION_CHANGED",)),
    "EXTENSION_NO_DELETE": (FILE_ONLY, ("PROTO_EXTENSION_DELETED",)),
    "PACKAGE_EXTENSION_NO_DELETE": (PACKAGE_ONLY, ("PROTO_EXTENSION_DELETED",)),
}
# buf ids whose change breaks payloads though buf files them under generated code only: they
# run in these wider categories (a `use: [WIRE_JSON]` keeps them), and only naming them in
# `except` or `ignore_only` turns them off. The rule's docstring shows the runtime's break.
WIDER: dict[str, frozenset[str]] = {"FIELD_SAME_UTF8_VALIDATION": ALL,
                                    "EXTENSION_NO_DELETE": JSON, "PACKAGE_EXTENSION_NO_DELETE": JSON}
# buf rules with no counterpart here, and why (docs/rules.md lists them).
_EXTENSION_RANGE = ("an `extensions` range is not compared: protoc refuses every file with an "
                    "extension outside its message's ranges (a range in use cannot go), and the "
                    "extensions a file deletes with it are PROTO_EXTENSION_DELETED's findings")
_EDITIONS_FEATURE = ("an editions feature (or the proto2/proto3 rule it stands for) that only "
                     "generated code or runtime validation reads; features other than "
                     "field_presence, message_encoding and utf8_validation are not read")
UNMAPPED: dict[str, str] = {
    "EXTENSION_MESSAGE_NO_DELETE": _EXTENSION_RANGE,
    "FILE_NO_DELETE": ("a file is compared with its own earlier version: a deleted file is said "
                       "in a note (directory mode) and judged through the files importing it, "
                       "whose imports then fail (SCHEMA_NOT_REVIEWED in the App)"),
    "PACKAGE_NO_DELETE": ("packages are not compared as a whole: each file is, and a package's "
                          "last file deleted is FILE_NO_DELETE's case (see there)"),
    "ENUM_SAME_TYPE": ("open or closed enums (editions `enum_type`, or proto2 against proto3): not "
                       "compared, a known limit (SECURITY.md): a closed enum's reader keeps a "
                       "number it does not list aside as an unknown field, and its JSON parser "
                       "refuses it, where an open one reads it"),
    "ENUM_SAME_JSON_FORMAT": "json_format: " + _EDITIONS_FEATURE,
    "MESSAGE_SAME_JSON_FORMAT": "json_format: " + _EDITIONS_FEATURE,
    "FIELD_SAME_JAVA_UTF8_VALIDATION": "java_string_check_utf8 / (pb.java).utf8_validation: "
                                       + _EDITIONS_FEATURE,
    "FILE_SAME_JAVA_STRING_CHECK_UTF8": "deprecated for FIELD_SAME_JAVA_UTF8_VALIDATION (see there)",
    "FILE_SAME_PHP_GENERIC_SERVICES": ("deprecated: protoc removed the option "
                                       "(php_generic_services), so no file can set it"),
    "MESSAGE_NO_REMOVE_STANDARD_DESCRIPTOR_ACCESSOR": (
        "the message option no_standard_descriptor_accessor is not read; it only removes a "
        "generated accessor (C++/Java descriptor())"),
    "MESSAGE_SAME_MESSAGE_SET_WIRE_FORMAT": (
        "deprecated by buf (no category); message_set_wire_format is a Google-internal legacy "
        "encoding protoc accepts only in proto2 and that is not read"),
}
OURS = frozenset(rule for _cats, ours in BUF_RULES.values() for rule in ours)


def buf_ids(rule: str) -> tuple[str, ...]:
    """The buf rule ids (deprecated ones aside) that report what schema-review's `rule` does,
    for `--json` and SARIF: a rename is FIELD_SAME_NAME and FIELD_SAME_JSON_NAME."""
    return tuple(sorted(buf_id for buf_id, (cats, ours) in BUF_RULES.items()
                        if rule in ours and cats))

NOT_CHECKED = "{file}: buf rule {rule} has no schema-review equivalent and is not checked."
UNKNOWN = "{file}: {rule!r} is not a buf breaking rule or category; ignored."
IGNORED = "{path} is listed under `breaking.ignore` in {file}: its breaking changes are not reported."


def for_file(layout: Layout, path: str, base: Options, *, categories_given: bool,
             configured: frozenset[str] = frozenset()) -> tuple[Options, tuple[str, ...]]:
    """`base` with the `breaking:` section of the module holding `path` applied, and notes
    (layout files that could not be used, rules that are not checked)."""
    module = layout.module_of(path)
    if module is None or module.breaking is None:
        return base, layout.notes
    options_, notes = options(module.breaking, base, path=path, file=module.file,
                              categories_given=categories_given, configured=configured)
    return options_, layout.notes + notes


def options(breaking: Breaking, base: Options, *, path: str, file: str,
            categories_given: bool, configured: frozenset[str] = frozenset()
            ) -> tuple[Options, tuple[str, ...]]:
    """`base` with the section applied for the schema at repository path `path`, and notes.

    `categories_given`: schema-review's own categories were set, so `use`/`except` do not apply;
    `configured`: rule ids whose severity schema-review's config sets (they keep it).
    """
    from . import RULES  # the rule specs; imported here, as this module is read before them

    notes = [UNKNOWN.format(file=file, rule=r) for r in (*breaking.use, *breaking.except_)
             if r not in BUF_RULES and r not in ORDER and r not in UNMAPPED]
    notes += [NOT_CHECKED.format(file=file, rule=r) for r in breaking.use if r in UNMAPPED]
    specs = [rule.SPEC for rule in RULES]
    if any(_holds(ignored, path) for ignored in breaking.ignore):
        off = {spec.id: None for spec in specs if spec.id not in configured}
        return _with(base, severities=off), (*notes, IGNORED.format(path=path, file=file))
    use = breaking.use or (FILE,)
    chosen = base.proto_categories if categories_given else frozenset(u for u in use if u in ORDER)
    excepted = set() if categories_given else set(breaking.except_)
    excepted |= {r for r, paths in breaking.ignore_only.items() if any(_holds(p, path) for p in paths)}
    enabled = {r for r, (cats, _ours) in BUF_RULES.items()
               if WIDER.get(r, cats) & chosen and r not in excepted and not cats & excepted}
    # Rules `use` names by id run whatever their categories (buf's FIELD_SAME_ONEOF comes along
    # with a category only as the categories of PROTO_ONEOF_RENAMED say).
    named = set() if categories_given else {r for r in use if r in BUF_RULES and r not in excepted}
    on = {rule for r in enabled | named for rule in BUF_RULES[r][1]}
    extra = frozenset(rule for r in named for rule in BUF_RULES[r][1])
    off = {s.id: None for s in specs if s.id in OURS and s.id not in on and s.categories & chosen
           and s.id not in configured}
    return _with(base, proto_categories=chosen, proto_rules=base.proto_rules | extra,
                 proto_buf_off=frozenset(BUF_RULES) - enabled - named, severities=off), tuple(notes)


def _with(base: Options, *, severities: dict, **changes) -> Options:
    merged = {**severities, **base.severities}  # schema-review's own severities win
    return dataclasses.replace(base, severities=merged, **changes)


def _holds(ignored: str, path: str) -> bool:
    """buf's ignore entries are files or directories."""
    ignored = normpath(ignored) if ignored else ""
    return not ignored or path == ignored or path.startswith(ignored.rstrip("/") + "/")
