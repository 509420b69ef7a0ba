"""Unchanged files using a changed Avro, JSON Schema or protobuf file are re-resolved at the head
(issue 18 item 2, follow-up): a change that leaves them unresolvable fails on the user, naming
the reference, and the changed file. Through `schema-review review` (bot/local/git_review.py) on a real git
repository; the App runs the same cases (tests/integration/test_unresolved.py)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

import pytest

from bot.local.git_review import review_repo
from rules import Severity
from tests.localgit import make_repo

NOW = datetime(2025, 3, 20, tzinfo=timezone.utc)


def _record(name: str, fields: list, **extra) -> str:
    return json.dumps({"type": "record", "name": name, "namespace": "x", **extra, "fields": fields},
                      indent=2)


MONEY = _record("Money", [{"name": "cents", "type": "long"}])
ORDER = _record("Order", [{"name": "total", "type": "x.Money"}])
ADDRESS_ID = "https://example.com/schemas/address"


def _defs(names: list[str], **extra) -> str:
    return json.dumps({**extra, "$defs": {n: {"type": "string"} for n in names}}, indent=2)


def _user(ref: str) -> str:
    return json.dumps({"type": "object", "properties": {"z": {"$ref": ref}}}, indent=2)


BUF_V2 = "version: v2\nmodules:\n  - path: proto\n"
MONEY_PROTO = 'syntax = "proto3";\npackage p;\nmessage Money { int64 units = 1; }\n'
OTHER_PROTO = 'syntax = "proto3";\npackage p;\nmessage Other { int32 x = 1; }\n'
ORDER_PROTO = 'syntax = "proto3";\npackage p;\nimport "a.proto";\nmessage Order { Money m = 1; }\n'
PROTO_BASE = {"buf.yaml": BUF_V2, "proto/a.proto": MONEY_PROTO + OTHER_PROTO.split("package p;\n")[1],
              "proto/b.proto": ORDER_PROTO}

# protoc takes either quote, comments between the tokens, escapes and adjacent literals.
IMPORT_SPELLINGS = {
    "in-single-quotes": "import 'a.proto';",
    "with-a-comment": 'import /* money */ "a.proto";',
    "across-lines": 'import // money\n  "a.proto"\n  ;',
    "of-adjacent-literals": 'import "a" \'.proto\';',
    "with-an-escape": 'import "\\x61.proto";',
}


@dataclass(frozen=True)
class Case:
    base: dict[str, str]
    head: dict[str, str | None]  # the changed files (None deletes)
    user: str  # the unchanged file that stops resolving
    reference: str  # named in the error
    changed: str  # the changed file, named too


CASES = {
    # The repro: the type renamed, its old name kept only as an alias (which no reference can use).
    "avro-renamed-with-alias": Case(
        {"avro/money.avsc": MONEY, "avro/order.avsc": ORDER},
        {"avro/money.avsc": _record("Amount", [{"name": "cents", "type": "long"}], aliases=["Money"])},
        "avro/order.avsc", 'unknown type "x.Money"', "avro/money.avsc"),
    "avro-moved-to-another-namespace": Case(
        {"avro/money.avsc": MONEY, "avro/order.avsc": ORDER},
        {"avro/money.avsc": MONEY.replace('"namespace": "x"', '"namespace": "y"')},
        "avro/order.avsc", 'unknown type "x.Money"', "avro/money.avsc"),
    "avro-deleted": Case(  # caught before too: the changed file's base version still linked them
        {"avro/money.avsc": MONEY, "avro/order.avsc": ORDER}, {"avro/money.avsc": None},
        "avro/order.avsc", 'unknown type "x.Money"', "avro/money.avsc"),
    # A `$defs` entry renamed that an unchanged file `$ref`s by pointer (the file still resolves).
    "json-pointer-renamed": Case(
        {"schemas/defs.schema.json": _defs(["zip"]), "schemas/u.schema.json": _user("defs.schema.json#/$defs/zip")},
        {"schemas/defs.schema.json": _defs(["postal"])},
        "schemas/u.schema.json", '$ref "defs.schema.json#/$defs/zip" does not point', "schemas/defs.schema.json"),
    # The file the `$ref` named by `$id` now declares another one (its pointer's entry renamed too).
    "json-id-changed": Case(
        {"schemas/address.schema.json": _defs(["zip"], **{"$id": ADDRESS_ID}),
         "schemas/u.schema.json": _user(ADDRESS_ID + "#/$defs/zip")},
        {"schemas/address.schema.json": _defs(["postal"], **{"$id": "https://example.com/schemas/postal"})},
        "schemas/u.schema.json", f'$ref "{ADDRESS_ID}#/$defs/zip" does not resolve',
        "schemas/address.schema.json"),
    # A message an unchanged importer uses moved to another file and package (deleting a message
    # is not breaking by itself under buf's default WIRE_JSON): the importer no longer compiles.
    "proto-message-moved-away": Case(
        PROTO_BASE,
        {"proto/a.proto": OTHER_PROTO,
         "proto/money.proto": 'syntax = "proto3";\npackage q;\nmessage Money { string units = 1; }\n'},
        "proto/b.proto", '"Money" is not defined', "proto/a.proto"),
    # The importer sees the message through a file that `import public`s the changed one.
    "proto-message-removed-behind-import-public": Case(
        {**PROTO_BASE,
         "proto/b.proto": 'syntax = "proto3";\npackage p;\nimport public "a.proto";\nmessage B { int32 y = 1; }\n',
         "proto/c.proto": ORDER_PROTO.replace('"a.proto"', '"b.proto"')},
        {"proto/a.proto": OTHER_PROTO},
        "proto/c.proto", '"Money" is not defined', "proto/a.proto"),
    # An import protoc reads however it is spelled; the user search reads it as protoc does.
    **{f"proto-import-{spelling}": Case(
        {**PROTO_BASE, "proto/b.proto": ORDER_PROTO.replace('import "a.proto";', statement)},
        {"proto/a.proto": OTHER_PROTO}, "proto/b.proto", '"Money" is not defined', "proto/a.proto")
       for spelling, statement in IMPORT_SPELLINGS.items()},
    "proto-import-public-spelled-otherwise": Case(
        {**PROTO_BASE,
         "proto/b.proto": ('syntax = "proto3";\npackage p;\nimport public /* passed on */ \'a\' ".proto";\n'
                           'message B { int32 y = 1; }\n'),
         "proto/c.proto": ORDER_PROTO.replace('"a.proto"', '"b.proto"')},
        {"proto/a.proto": OTHER_PROTO},
        "proto/c.proto", '"Money" is not defined', "proto/a.proto"),
}
# Changes that leave their users resolvable: no finding on the users.
HARMLESS = {
    "proto-unused-message-removed": (PROTO_BASE, {"proto/a.proto": MONEY_PROTO}, "proto/b.proto"),
}


def errors_of(files) -> list[tuple[str, str, str]]:
    """(file, rule, message) of each error."""
    return [(file.path, f.rule, f.message) for file in files for f in file.findings
            if f.severity is Severity.ERROR]


def assert_user_fails(case: Case, errors: list[tuple[str, str, str]]) -> None:
    assert any(path == case.user and rule == "SCHEMA_INVALID" and case.reference in message
               and f'"{case.changed}"' in message for path, rule, message in errors), errors


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_unchanged_user_the_change_leaves_unresolvable_fails(tmp_path, name):
    case = CASES[name]
    repo = make_repo(tmp_path / "repo", case.base, case.head)
    result = review_repo(repo, "main", "feature", now=NOW)
    assert result.conclusion.value == "failure"
    assert_user_fails(case, errors_of(result.files))


def test_a_rename_its_users_follow_in_the_same_change_passes(tmp_path):
    """The users moved to the new name with it: nothing unresolved, no error."""
    case = CASES["avro-renamed-with-alias"]
    head = {**case.head, "avro/order.avsc": ORDER.replace("x.Money", "x.Amount")}
    repo = make_repo(tmp_path / "repo", case.base, head)
    result = review_repo(repo, "main", "feature", now=NOW)
    assert not any(rule == "SCHEMA_INVALID" for _p, rule, _m in errors_of(result.files))


@pytest.mark.parametrize("name", sorted(HARMLESS))
def test_a_user_the_change_leaves_resolvable_has_no_finding(tmp_path, name):
    base, head, user = HARMLESS[name]
    repo = make_repo(tmp_path / "repo", base, head)
    result = review_repo(repo, "main", "feature", now=NOW)
    assert not [f for file in result.files for f in file.findings if file.path == user or f.file == user]
    assert result.conclusion.value != "failure", errors_of(result.files)


def _filler(i: int) -> str:
    return _record(f"Filler{i}", [{"name": "n", "type": "long"}])


PROTO_A = 'syntax = "proto3";\npackage shop;\nimport "b.proto";\nmessage A { B b = 1; }\n'
PROTO_B = 'syntax = "proto3";\npackage shop;\nmessage B { string x = 1; }\n'
# Files sorting before the user, so a cap of 3 files per format leaves the user unread.
FILLERS = {f"avro/a{i}.avsc": _filler(i) for i in range(3)}
UNREAD = {
    "over-the-cap": ({**FILLERS, **CASES["avro-renamed-with-alias"].base},
                     CASES["avro-renamed-with-alias"].head, "avro/money.avsc",
                     "the repository holds 4 other files of its format, over the 3 searched"),
    "binary-user": ({**CASES["avro-renamed-with-alias"].base, "avro/bin.avsc": "{\0}"},
                    CASES["avro-renamed-with-alias"].head, "avro/money.avsc",
                    'a file that may use it, "avro/bin.avsc", is too large or binary to read'),
    "proto-over-the-cap": ({"buf.yaml": "version: v1\n", "a.proto": PROTO_A, "b.proto": PROTO_B,
                            "0.proto": 'syntax = "proto3";\n', "1.proto": 'syntax = "proto3";\n',
                            "2.proto": 'syntax = "proto3";\n'},
                           {"b.proto": None}, "b.proto",
                           "the repository holds 4 other files of its format, over the 3 searched"),
}


@pytest.mark.parametrize("name", sorted(UNREAD))
def test_users_the_local_review_could_not_read_fail_the_changed_file(tmp_path, monkeypatch, name):
    """Like the App's bounds (bot/gather/users.py MAX_CONTEXT_FILES): files left unread may be the
    users, so the changed file is not known to pass."""
    base, head, changed, problem = UNREAD[name]
    monkeypatch.setattr("bot.local.schema_sets.MAX_IMPORTS", 3)
    repo = make_repo(tmp_path / "repo", base, head)
    result = review_repo(repo, "main", "feature", now=NOW)
    assert result.conclusion.value == "failure"
    assert any(path == changed and rule == "SCHEMA_NOT_REVIEWED" and problem in message
               for path, rule, message in errors_of(result.files)), errors_of(result.files)
