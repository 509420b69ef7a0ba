"""Proof by example: every breaking error in the rule cases has a record that the runtime itself
fails on or misreads, re-checked here without trusting the example's own outcome."""
from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
import urllib.parse
from functools import lru_cache
from pathlib import Path

import fastavro
import jsonschema
import pytest
import referencing
import referencing.exceptions
import referencing.jsonschema
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory

import rules
from rules import examples
from rules.examples import documented
from rules.model import NOT_SEARCHED, Format, Mode, Outcome, Severity, Side, Source
from rules.protobuf.parse import parse as parse_proto
from tests.rules.casedata import discover
from tests.rules.protobuf.runtime_check import as_shown

# Rules whose error is not a read failure: no record can show it. Each says why.
NOT_SHOWN = {
    "JSONSCHEMA_EXTERNAL_REF_CHANGED": "the target outside the repository was not read",
    "PROTO_RESERVED_DELETED": "re-opens numbers and names for reuse; decoding is unchanged",
    "PROTO_PACKAGE_CHANGED": "type URLs, gRPC paths and generated code change, not encodings",
    "PROTO_MESSAGE_DELETED": "no reader of the deleted type remains",
    "PROTO_ENUM_DELETED": "generated code loses the type; the numbers decode as before",
    "PROTO_FIELD_PRESENCE_CHANGED": "has-accessors change; binary and JSON forms do not",
    "PROTO_ONEOF_RENAMED": "the name is in neither encoding; generated code changes",
    "PROTO_RPC_IDEMPOTENCY_CHANGED": "a call-level break (retries, caching); encodings unchanged",
    "PROTO_RPC_SIGNATURE_CHANGED": "a call-level break; message encodings have their own rules",
    "PROTO_SYNTAX_CHANGED": "generated code follows other rules; payload effects are per field",
    "PROTO_FILE_OPTION_CHANGED": "generated code's names and shape change, not encodings",
    "PROTO_FIELD_LANGUAGE_TYPE_CHANGED": "C++/JavaScript types change; encodings do not",
    "PROTO_FIELD_ONEOF_ALONE_CHANGED": "a oneof of one field excludes nothing; generated code changes",
    "PROTO_RPC_DELETED": "a call-level break (the method is gone); encodings unchanged",
    "PROTO_SERVICE_DELETED": "a call-level break (the service is gone); encodings unchanged",
    "AVRO_FIELD_ALIAS_AMBIGUOUS": "fastavro reads both fields right; Java rejects the schema pair",
    "AVRO_DECIMAL_CHANGED": "fastavro and avro-python decode with the writer's scale; only Java "
                            "readers (reader's scale) misread it",
}
# Rules whose break a record shows, but which the search does not reach yet: the runtime's
# verdict on each of their cases is proven in the named test instead.
UNSEARCHED = {
    "PROTO_EXTENSION_DELETED": "extensions are not searched (rules/examples/protobuf.py "
                               "EXTENSION_UNSHOWN): tests/rules/protobuf/test_extension_runtime.py",
}
# Cases whose finding no runtime bears out: adjudicated false alarms (or search gaps to fix).
ADJUDICATED = {
    # Strict is Confluent's classification: an added dependency is refused, although the old
    # anyOf's closed alternatives never hold both names, so no record breaks (the lenient twin,
    # exclusive-pairs-already-apart-is-clean, has no finding).
    "jsonschema/JSONSCHEMA_DEPENDENCY_ADDED/exclusive-pairs-already-apart-strict":
        "Strict follows Confluent's table; no old document holds both names.",
    # Extensions are compared like fields, but the search builds a message's own fields only;
    # the finding says so (rules/examples/protobuf.py EXTENSION_UNSHOWN). The break is buf's
    # too and shows at runtime (an int32 extension's varint read as a string extension).
    "protobuf/PROTO_FIELD_TYPE_INCOMPATIBLE/extension-type": "an extension: not searched, said so",
    "protobuf/PROTO_FIELD_RENAMED/extension-renamed": "an extension: not searched, said so",
    "protobuf/PROTO_FIELD_UTF8_VALIDATION_CHANGED/extension-proto2-to-edition":
        "an extension: not searched, said so",
    # Deleted and renumbered extensions: the runtime's verdict on each case is
    # tests/rules/protobuf/test_extension_runtime.py.
    **{f"protobuf/PROTO_EXTENSION_DELETED/{case}": "an extension: not searched, said so"
       for case in ("deleted", "deprecated-first-still-refused-in-json",
                    "last-extension-of-a-message", "message-scoped")},
    "protobuf/PROTO_FIELD_NUMBER_CHANGED/extension-renumbered": "an extension: not searched, said so",
    "protobuf/PROTO_EXTENSION_DELETED/moved-to-imported-file-under-file":
        "FILE's generated-code finding: the moved extension's payloads read as before",
    # The schema there is ANDed with a target outside the repository, which is never read: no
    # record can be verified against it. tests/rules/jsonschema/test_external_refs.py shows one
    # that breaks under a plausible target.
    "jsonschema/JSONSCHEMA_CONSTRAINT_TIGHTENED/beside-an-unchanged-external-ref":
        "The string's other constraint is a target outside the repository (not read).",
    "jsonschema/JSONSCHEMA_PROPERTY_ADDED/external-schema-open-model-strict":
        "The new property's schema is a target outside the repository (not read).",
    "jsonschema/JSONSCHEMA_CONSTRAINT_CHANGED/pattern-widened-strict-follows-confluent":
        "Strict is Confluent's classification: any pattern replaced is refused (PATTERN_CHANGED), "
        "although this one only widens, so no record breaks; the finding says so.",
    "protobuf/PROTO_FIELD_JSON_TYPE_CHANGED/int32-to-int64":
        "False alarm in backward mode: an int32 JSON number is valid int64 JSON (ProtoJSON "
        "parsers take 64-bit integers as numbers or strings). The break is forward only: an "
        "int64 beyond 2^31 is truncated by an int32 reader (test_forward_int64_example).",
    # The witness (checked by jsonschema in test_case_instances) holds two different items; the
    # search builds an array's items alike, and a same-item array old data holds has at most
    # one item `contains` matched, which still validates.
    "jsonschema/JSONSCHEMA_TYPE_WIDENED/contains-widened-under-max-contains":
        "An array of a string and a number: the search builds only arrays of like items.",
    "jsonschema/JSONSCHEMA_ENUM_WIDENED/contains-widened-under-max-contains":
        "An array of \"x\" and \"y\": the search builds only arrays of like items.",
    # The witness (an integer of at least 5, matching both alternatives; checked by jsonschema
    # in test_case_instances) is a number where the search tries objects and arrays first.
    "jsonschema/JSONSCHEMA_ONEOF_BRANCH_OVERLAPS/became-inclusive-under-not-breaks-old-data":
        "A number matching both alternatives under `not`: the search's first tries there are not numbers.",
    "protobuf/PROTO_FIELD_TYPE_REFERENCE_CHANGED/message-type-swapped":
        "Address and PostalAddress declare the same fields: every message decodes identically "
        "in binary and JSON. The change breaks generated code and type identity, not reading.",
}
CASES = discover()


def _breaking_errors(report: rules.Report):
    for finding in report.findings:
        breaks = (finding.breaks or frozenset()) & report.mode.directions
        if finding.severity is Severity.ERROR and breaks:
            yield finding


@lru_cache(maxsize=None)
def _run(case):
    return case, _check(case, examples=True)


def _check(case, *, examples: bool) -> rules.Report:
    return case.run(examples=examples)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_every_breaking_error_has_a_verified_example(case):
    _, report = _run(case)
    plain = _check(case, examples=False)
    assert report.compatible == plain.compatible  # examples never change a verdict
    assert [f.to_json() | {"example": None, "example_why": None} for f in plain.findings] == \
           [f.to_json() | {"example": None, "example_why": None} for f in report.findings]
    for finding in _breaking_errors(report):
        if finding.rule in NOT_SHOWN or case.id in ADJUDICATED:
            assert finding.example is None, (finding.rule, "now has an example: update the lists")
            continue
        assert finding.example is not None, (finding.rule, finding.path, report.notes)
        _recheck(case, finding, finding.example)


def _recheck(case, finding, example):
    """Against OLD, or (a transitive case) against the older version that shows the break."""
    olds = [case.old, *(case.folder / name for name in case.args.get("against", []))]
    failures = []
    for old in olds:
        try:
            return RECHECK[case.fmt](case, finding, example, old)
        except (AssertionError, pytest.fail.Exception) as failure:
            failures.append(failure)
    raise failures[0]


def test_findings_that_break_nothing_get_no_search():
    for case in CASES[::7]:
        _, report = _run(case)
        for finding in report.findings:
            if finding not in list(_breaking_errors(report)):
                assert finding.example is NOT_SEARCHED
                assert "example" not in finding.to_json()


def test_every_breaking_rule_is_shown_or_listed():
    shown = set()
    for case in CASES:
        _, report = _run(case)
        shown |= {f.rule for f in _breaking_errors(report) if f.example}
    breaking = {spec.id for spec in rules.all_specs().values()
                if spec.breaks and spec.severity is Severity.ERROR}
    assert not shown & (set(NOT_SHOWN) | set(UNSEARCHED))
    assert set(NOT_SHOWN) <= breaking  # advisory rules are never searched: no need to list them
    assert breaking - shown - set(NOT_SHOWN) - set(UNSEARCHED) == set(), "neither shown nor listed"


def test_the_list_here_is_the_engines_list():
    assert set(NOT_SHOWN) == set(examples.NOT_A_READ_FAILURE)


def test_missing_examples_are_counted_in_the_notes():
    # An extension's finding says why it has none (EXTENSION_UNSHOWN): it is not missing.
    case = next(c for c in CASES if c.id in ADJUDICATED and "extension" not in c.id.lower())
    _, report = _run(case)
    assert examples.examples_missing(report) == 1
    assert any(n.startswith("examples_missing: 1 ") for n in report.notes), report.notes
    assert not any("examples_missing" in n for n in _check(case, examples=False).notes)


def test_a_search_out_of_budget_finds_nothing_and_says_so(monkeypatch):
    monkeypatch.setattr(rules.limits, "EXAMPLE_CANDIDATES", 0)
    case = next(c for c in CASES if c.id == "avro/AVRO_FIELD_ADDED_WITHOUT_DEFAULT/fires-with-suggestion")
    report = _check(case, examples=True)
    assert [f.example for f in report.findings] == [None]
    assert examples.examples_missing(report) == 1


def test_forward_int64_example():
    old = 'syntax = "proto3";\npackage p;\nmessage S { int32 count = 1; }\n'
    new = old.replace("int32", "int64")
    report = rules.check(Source("s.proto", old), Source("s.proto", new), mode=Mode.FORWARD,
                         examples=True)
    (finding,) = report.findings
    assert finding.example.written_with is Side.NEW
    written = json_format.Parse(json.dumps(finding.example.payload), _proto_class(new, "p.S")())
    read = _proto_class(old, "p.S").FromString(written.SerializeToString())
    assert written.count > 2**31 and read.count != written.count  # int32 readers truncate


# --- independent re-checks, one per runtime -------------------------------------------------

def _sides(case, example, old):
    writer, reader = (old, case.new) if example.written_with is Side.OLD else (case.new, old)
    return writer.read_text(), reader.read_text()


def _recheck_avro(case, finding, example, old):
    writer_text, reader_text = _sides(case, example, old)
    writer, reader = json.loads(writer_text), json.loads(reader_text)
    (datum,) = list(fastavro.json_reader(io.StringIO(json.dumps(example.payload)), json.loads(writer_text)))
    buffer = io.BytesIO()
    fastavro.schemaless_writer(buffer, fastavro.parse_schema(writer), datum)
    buffer.seek(0)
    if example.outcome is Outcome.ERROR:
        with pytest.raises(Exception):
            fastavro.schemaless_reader(buffer, fastavro.parse_schema(writer), fastavro.parse_schema(reader))
        return
    read = fastavro.schemaless_reader(buffer, fastavro.parse_schema(writer), fastavro.parse_schema(reader))
    assert example.changed and all(_at(read, p) != _at(datum, p) for p in example.changed)


def _recheck_jsonschema(case, finding, example, old):
    writer_path, reader_path = (old, case.new) if example.written_with is Side.OLD else (case.new, old)
    default = jsonschema.Draft7Validator

    def validator(path):
        """The draft's validator over the file at its own file:// URI, with the schema files in
        the case's subfolders registered by their file:// URIs and `$id`s (never the network)."""
        schema = json.loads(path.read_text())
        cls = jsonschema.validators.validator_for(schema, default=default)
        formats = cls.FORMAT_CHECKER if case.args.get("format_assertion") else None
        uri = path.resolve().as_uri()
        others = [p for p in case.folder.rglob("*.json") if p.parent != case.folder]
        registry = referencing.Registry().with_resources(
            (other.resolve().as_uri(), referencing.Resource.from_contents(
                json.loads(other.read_text()), default_specification=referencing.jsonschema.DRAFT7))
            for other in others if other.resolve() != path.resolve())
        registry = registry.with_resource(uri, referencing.Resource.from_contents(
            schema, default_specification=referencing.jsonschema.DRAFT7))
        base = urllib.parse.urljoin(uri, schema.get("$id", "")) if isinstance(schema, dict) else uri
        return cls(schema, format_checker=formats, registry=registry.crawl(),
                   _resolver=registry.crawl().resolver(base_uri=base))
    assert validator(writer_path).is_valid(example.payload)
    errors = list(validator(reader_path).iter_errors(example.payload))
    assert errors and example.outcome is Outcome.ERROR


def _recheck_protobuf(case, finding, example, old):
    writer_text, reader_text = _sides(case, example, old)
    full, enum = _message_of(finding, writer_text, case)
    writer_class = _proto_class(writer_text, full, case, enum)
    reader_class = _proto_class(reader_text, full, case, enum)
    written = json_format.Parse(json.dumps(example.payload), writer_class())
    data = written.SerializeToString()
    if example.binary is not None:  # the bytes written: text that is not UTF-8 only they hold
        data = base64.b64decode(example.binary)
        assert as_shown(writer_class.FromString(data)) == written, example
    if example.outcome is Outcome.ERROR:
        assert _fails(reader_class, data, example), example
        return
    read = reader_class.FromString(data)
    for path in example.changed:
        key = path.removeprefix("$.").split(".")[0]
        assert _proto_value(written, key) != _proto_value(read, key), (path, written, read)


def _fails(reader_class, data: bytes, example) -> bool:
    if (example.reader_error or "").startswith("JSON:"):
        try:
            json_format.Parse(json.dumps(example.payload), reader_class())
        except json_format.ParseError:
            return True
        return False
    try:
        read = reader_class.FromString(data)
    except Exception:  # noqa: BLE001 - DecodeError
        return True
    return not read.IsInitialized()


def _message_of(finding, writer_text, case) -> tuple[str, str | None]:
    """The message the example is of: the finding's parent, or the message using its enum
    (a one-field carrier when none does), and the enum's full name for a carrier."""
    pool = _pool(writer_text, case)
    package = pool.FindFileByName(_MAIN[id(pool)]).package
    prefix = f"{package}." if package else ""
    parent = finding.path.rpartition(".")[0]
    try:
        return pool.FindMessageTypeByName(prefix + parent).full_name, None
    except KeyError:
        pass
    for message in pool.FindFileByName(_MAIN[id(pool)]).message_types_by_name.values():
        if any(f.enum_type and f.enum_type.full_name == prefix + parent for f in message.fields):
            return message.full_name, None
    return "Carrier", prefix + parent


def _carrier(pool, enum_full: str) -> str:
    """A one-field message of the enum's type, as a consumer holding only the enum would have."""
    proto = descriptor_pb2.FileDescriptorProto(name="carrier.proto", dependency=[_MAIN[id(pool)]],
                                               syntax="proto3")
    message = proto.message_type.add(name="Carrier")
    message.field.add(name="value", number=1, type=descriptor_pb2.FieldDescriptorProto.TYPE_ENUM,
                      type_name=f".{enum_full}", label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
    pool.Add(proto)
    return "Carrier"


@lru_cache(maxsize=None)
def _pool_bytes(text: str, roots: tuple) -> bytes:
    parsed = parse_proto(Source("schema.proto", text, proto_paths=roots))
    parsed.schema(Side.NEW)
    return parsed.descriptor_set


_POOLS: dict = {}
# id(pool) -> the name protoc compiled the schema under (the sandbox picks it, not the test);
# --include_imports lists dependencies first, so it is the set's last file.
_MAIN: dict = {}


def _pool(text: str, case=None):
    roots = tuple(str(case.folder / r) for r in case.args.get("proto_path", [])) if case else ()
    key = (text, roots)
    if key not in _POOLS:
        pool = descriptor_pool.DescriptorPool()
        files = descriptor_pb2.FileDescriptorSet.FromString(_pool_bytes(text, roots)).file
        for proto in files:
            pool.Add(proto)
        _POOLS[key], _MAIN[id(pool)] = pool, files[-1].name
    return _POOLS[key]


def _proto_class(text: str, full: str, case=None, enum: str | None = None):
    pool = _pool(text, case)
    if enum is not None:
        try:
            pool.FindMessageTypeByName("Carrier")
        except KeyError:
            _carrier(pool, enum)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(full))


def _proto_value(message, json_key: str):
    field = next((f for f in message.DESCRIPTOR.fields if f.json_name == json_key), None)
    if field is None:
        return "<no such field>"
    value = getattr(message, field.name)
    if field.enum_type is not None and not field.is_repeated:
        known = field.enum_type.values_by_number.get(value)
        return known.name if known else value
    if field.message_type is not None or field.is_repeated:
        return json_format.MessageToDict(message).get(json_key)
    return value


def _at(value, path: str):
    for step in path.removeprefix("$").replace("[", ".[").split("."):
        if not step:
            continue
        value = value[int(step[1:-1])] if step.startswith("[") else value.get(step, "<missing>")
    return value


RECHECK = {Format.AVRO: _recheck_avro, Format.PROTOBUF: _recheck_protobuf,
           Format.JSONSCHEMA: _recheck_jsonschema}


@pytest.mark.parametrize("case_id, payload", [
    ("avro/AVRO_FIELD_ADDED_WITHOUT_DEFAULT/fires-with-suggestion", {"id": 1, "userLevel": "x"}),
    ("jsonschema/JSONSCHEMA_REQUIRED_PROPERTY_ADDED/single-line-array", {"id": "x", "userLevel": 1}),
    ("protobuf/PROTO_FIELD_NUMBER_CHANGED/renumbered", {}),
])
def test_the_recheck_rejects_a_forged_example(case_id, payload):
    """A record the reader handles fine, claimed to break: the runtime must not agree."""
    case = next(c for c in CASES if c.id == case_id)
    _, report = _run(case)
    finding = next(_breaking_errors(report))
    for outcome, changed in ((Outcome.ERROR, None), (Outcome.CHANGED, ("$.id",))):
        forged = rules.Example(Side.NEW if case.fmt is Format.AVRO else Side.OLD, payload, outcome,
                               reader_error="forged", changed=changed)
        if case.fmt is Format.JSONSCHEMA and outcome is Outcome.CHANGED:
            continue  # JSON Schema examples are only ever validation errors
        with pytest.raises((AssertionError, pytest.fail.Exception)):
            _recheck(case, finding, forged)


@pytest.mark.parametrize("entry", documented.EXAMPLES, ids=lambda e: e[0])
def test_the_documented_examples_are_what_the_engine_finds(entry):
    _title, fmt, folder, _change, mode, wanted = entry
    case = next(c for c in CASES if c.id == f"{fmt.value}/{folder}")
    _, report = _run(case)
    assert report.mode.value == mode
    (finding,) = [f for f in report.findings if f.example]
    assert finding.example.to_json() == wanted


def test_the_cli_flag_prints_and_emits_examples(capsys):
    from rules.cli import main
    case = next(c for c in CASES if c.id == "avro/AVRO_FIELD_ADDED_WITHOUT_DEFAULT/fires-with-suggestion")
    assert main(["check", str(case.old), str(case.new), "--json"]) == 1
    assert "example" not in json.loads(capsys.readouterr().out)["findings"][0]  # off by default
    assert main(["check", str(case.old), str(case.new), "--json", "--examples"]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert finding["example"]["written_with"] == "old" and finding["example"]["outcome"] == "error"
    assert main(["check", str(case.old), str(case.new), "--examples"]) == 1
    text = capsys.readouterr().out
    assert 'example: written with old, read with new: {"id": 1}' in text
    assert "the reader fails: No default value for field userLevel" in text


def test_findings_after_the_comparisons_deadline_are_not_searched_and_not_missing(monkeypatch):
    monkeypatch.setattr(rules.limits, "EXAMPLE_SECONDS_PER_CHECK", 0.0)
    case = next(c for c in CASES if c.id == "avro/AVRO_ENUM_SYMBOL_REMOVED/fires-no-fallback")
    report = _check(case, examples=True)
    assert [f.example for f in report.findings] == [None, None]
    assert [n.split(":")[0] for n in report.notes if n.startswith("examples_")] == ["examples_not_searched"]


def test_a_payload_over_the_size_limit_is_not_kept(monkeypatch):
    monkeypatch.setattr(rules.limits, "EXAMPLE_PAYLOAD_CHARS", 5)
    case = next(c for c in CASES if c.id == "jsonschema/JSONSCHEMA_CONSTRAINT_TIGHTENED/maxlength-lowered")
    (finding,) = _check(case, examples=True).findings
    assert finding.example is None


def test_format_is_asserted_in_examples_only_when_the_options_say_so():
    old = Source("old.json", '{"type": "object", "properties": {"when": {"type": "string"}}}')
    new = Source("new.json", '{"type": "object", "properties": {"when": {"type": "string", "format": "date"}}}')
    report = rules.check(old, new, options=rules.Options(format_assertion=True), examples=True)
    (finding,) = report.findings
    assert "is not a 'date'" in finding.example.reader_error
    written = finding.example.payload["when"]
    assert not jsonschema.Draft7Validator({"format": "date"}, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER).is_valid(written)


def test_a_search_that_fails_leaves_the_verdict_and_no_example(monkeypatch):
    from rules.examples import avro as avro_examples

    def broken(*_args, **_kwargs):
        raise ValueError("runtime refused")
    case = next(c for c in CASES if c.id == "avro/AVRO_FIELD_ADDED_WITHOUT_DEFAULT/fires-with-suggestion")
    monkeypatch.setattr(avro_examples.Finder, "find", broken)
    (finding,) = _check(case, examples=True).findings
    assert finding.example is None and finding.severity is Severity.ERROR
    monkeypatch.setattr(avro_examples.Finder, "__init__", broken)
    report = _check(case, examples=True)
    assert [f.example for f in report.findings] == [None] and not report.compatible


# Schemas whose every record is huge: a 140-byte Avro schema declaring an 800 MB fixed (it stays
# in both versions, so the backward writer must fill it), JSON Schema arrays of 200 items nested
# three deep (8 million values) behind a required property, and protobuf required messages.
HUGE_FIXED = ('{"type":"record","name":"R","fields":[{"name":"a","type":"%s"},'
              '{"name":"f","type":{"type":"fixed","name":"F","size":800000000}}]}')
NESTED_ARRAYS = ('{"type":"object","required":["a","b"],"properties":{"a":{"$ref":"#/$defs/l1"},'
                 '"b":{"type":"%s"}},"$defs":{"l1":{"type":"array","minItems":200,"items":'
                 '{"$ref":"#/$defs/l2"}},"l2":{"type":"array","minItems":200,"items":'
                 '{"$ref":"#/$defs/l3"}},"l3":{"type":"array","minItems":200,"items":{"type":"integer"}}}}')
# proto2: each level requires 40 messages of the next, four levels deep (2.5 million messages).
REQUIRED_NESTING = "\n".join(
    ['syntax = "proto2";', "package p;"]
    + [f"message M{n} {{ " + " ".join(f"required M{n + 1} f{i} = {i};" for i in range(1, 41)) + " }"
       for n in range(1, 5)]
    + ["message M5 { required int32 v = 1; }",
       "message Top { required M1 m = 1; optional %s b = 2; }"]) + "\n"
# A 40-byte pattern whose shortest match is 2.5 GB (a repeat count times a length), and a 1.5 MB
# enum value repeated by minItems (each copy a reference, 384 MB as JSON).
HUGE_PATTERN = ('{"type":"object","required":["a","b"],"properties":{"a":{"type":"string",'
                '"pattern":"^(a{50000}){50000}$"},"b":{"type":"%s"}}}')
REPEATED_ENUM = ('{"type":"object","required":["a","b"],"properties":{"a":{"type":"array",'
                 '"minItems":256,"items":{"enum":["' + "x" * 1_500_000 + '"]}},"b":{"type":"%s"}}}')
PEAK_BYTES = 200 * 1024 * 1024  # the CLI process, interpreter and runtimes included, stays below


@pytest.mark.parametrize("suffix, schema, old_type, new_type, rule", [
    ("avsc", HUGE_FIXED, "int", "string", "AVRO_TYPE_CHANGED"),
    ("json", NESTED_ARRAYS, "integer", "string", "JSONSCHEMA_TYPE_CHANGED"),
    ("proto", REQUIRED_NESTING, "int32", "string", "PROTO_FIELD_TYPE_INCOMPATIBLE"),
    ("json", HUGE_PATTERN, "integer", "string", "JSONSCHEMA_TYPE_CHANGED"),
    ("json", REPEATED_ENUM, "integer", "string", "JSONSCHEMA_TYPE_CHANGED"),
], ids=["avro-fixed-800MB", "jsonschema-nested-arrays", "protobuf-required-nesting",
        "jsonschema-pattern-2.5GB", "jsonschema-enum-value-repeated"])
def test_an_example_over_the_size_limit_is_refused_before_it_is_built(tmp_path, suffix, schema,
                                                                     old_type, new_type, rule):
    old, new = tmp_path / f"old.{suffix}", tmp_path / f"new.{suffix}"
    old.write_text(schema % old_type)
    new.write_text(schema % new_type)
    # A parent of its own measures the CLI alone: RUSAGE_CHILDREN's peak resident set (KiB on
    # Linux) covers only the children it waited for, this one.
    result = subprocess.run([sys.executable, "-c", MEASURED, sys.executable, "-m", "rules", "check",
                             str(old), str(new), "--examples"],
                            capture_output=True, text=True, timeout=120)
    err, _, peak_kib = result.stderr.rpartition("peak_kib=")
    assert result.returncode == 1, err
    assert int(peak_kib) * 1024 < PEAK_BYTES
    assert "example: none: the notes below say why" in result.stdout
    assert (f"note: examples_over_size_limit: 1 error finding(s) have no example within the size "
            f"limit: the records tried would pass 20000 characters as JSON: {rule} at {new}:") in result.stdout


MEASURED = ("import resource, subprocess, sys\n"
            "code = subprocess.run(sys.argv[1:]).returncode\n"
            "sys.stderr.write(f'peak_kib={resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}')\n"
            "sys.exit(code)")
