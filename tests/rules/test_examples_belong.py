"""Each example is about its own finding (the payload holds the finding's element and the error
shown is that element's), minimal, logical-type aware and cross-file; data-driven old/new pairs."""
from __future__ import annotations

import json

import pytest

import rules
from rules.model import Format, Mode, Outcome, Source


def rec(fields, name="Payment"):
    return {"type": "record", "name": name, "fields": fields}


def network(symbols):
    return {"name": "network", "type": {"type": "enum", "name": "Network", "symbols": symbols}}


def obj(props, required=()):
    return {"type": "object", "properties": props, "required": list(required)}


def _check(fmt, old, new, mode=Mode.BACKWARD):
    suffix = "avsc" if fmt is Format.AVRO else "json"
    return rules.check(Source(f"old.{suffix}", json.dumps(old)), Source(f"new.{suffix}", json.dumps(new)),
                       format=fmt, mode=mode, examples=True)


AMOUNT_INT, AMOUNT_STRING = {"name": "amount", "type": "int"}, {"name": "amount", "type": "string"}
# (old, new, the finding's rule and path, a value the payload must hold there, the error's start)
BELONGS = [
    ("enum-symbol-removed-beside-a-type-change", Format.AVRO,
     rec([AMOUNT_INT, network(["VISA", "AMEX"])]), rec([AMOUNT_STRING, network(["VISA"])]),
     "AVRO_ENUM_SYMBOL_REMOVED", "Network.AMEX", ("network", "AMEX"), "AMEX not found in reader symbol list"),
    ("field-added-beside-a-type-change", Format.AVRO,
     rec([AMOUNT_INT]), rec([AMOUNT_STRING, {"name": "ref", "type": "string"}]),
     "AVRO_FIELD_ADDED_WITHOUT_DEFAULT", "Payment.ref", ("ref", None), "No default value for field ref"),
    ("null-no-longer-allowed-beside-a-type-change", Format.AVRO,
     rec([AMOUNT_INT, {"name": "note", "type": ["null", "string"], "default": None}]),
     rec([AMOUNT_STRING, {"name": "note", "type": "string"}]),
     "AVRO_NULLABLE_MADE_NON_NULLABLE", "Payment.note<null>", ("note", None), "schema mismatch"),
    ("the-bundled-example-rename-and-added-field", Format.AVRO,
     rec([{"name": "id", "type": "string"}, {"name": "email", "type": "string"}], "UserEvent"),
     rec([{"name": "id", "type": "string"}, {"name": "emailAddress", "type": "string"},
          {"name": "userLevel", "type": "int"}], "UserEvent"),
     "AVRO_FIELD_ADDED_WITHOUT_DEFAULT", "UserEvent.userLevel", ("userLevel", None),
     "No default value for field userLevel"),
    ("enum-narrowed-beside-a-required-property", Format.JSONSCHEMA,
     obj({"kind": {"enum": ["a", "b", "c"]}, "phone": {"type": "string"}}, ["kind"]),
     obj({"kind": {"enum": ["a", "b"]}, "phone": {"type": "string"}}, ["kind", "phone"]),
     "JSONSCHEMA_ENUM_NARROWED", "$.kind", ("kind", "c"), "'c' is not one of"),
    ("max-length-beside-a-type-change", Format.JSONSCHEMA,
     obj({"a": {"type": "string", "maxLength": 10}, "b": {"type": "integer"}}, ["a", "b"]),
     obj({"a": {"type": "string", "maxLength": 5}, "b": {"type": "string"}}, ["a", "b"]),
     "JSONSCHEMA_CONSTRAINT_TIGHTENED", "$.a/maxLength", None, "'2020-01-01' is too long (at $.a)"),
]


@pytest.mark.parametrize("fmt, old, new, rule, path, holds, error", [c[1:] for c in BELONGS],
                         ids=[c[0] for c in BELONGS])
def test_the_example_is_about_its_finding(fmt, old, new, rule, path, holds, error):
    report = _check(fmt, old, new)
    (finding,) = [f for f in report.findings if (f.rule, f.path) == (rule, path)]
    example = finding.example
    assert example is not None and example.outcome is Outcome.ERROR
    assert example.reader_error.startswith(error), example.reader_error
    if holds is not None:
        key, value = holds
        assert example.payload.get(key, None) == value, example.payload


LOGICAL = [{"type": "string", "logicalType": "uuid"}, {"type": "int", "logicalType": "date"},
           {"type": "int", "logicalType": "time-millis"}, {"type": "long", "logicalType": "timestamp-millis"},
           {"type": "long", "logicalType": "timestamp-micros"},
           {"type": "fixed", "name": "D", "size": 8, "logicalType": "decimal", "precision": 10, "scale": 2},
           {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}]


@pytest.mark.parametrize("logical", LOGICAL, ids=lambda t: f"{t['type']}-{t['logicalType']}")
def test_logical_values_read_back_unchanged_are_not_reported_as_changed(logical):
    """The plain record (symbol A) reads fine; only the removed symbol B breaks."""
    status = lambda symbols: {"name": "s", "type": {"type": "enum", "name": "S", "symbols": symbols}}
    report = _check(Format.AVRO, rec([{"name": "v", "type": logical}, status(["A", "B"])]),
                    rec([{"name": "v", "type": logical}, status(["A"])]))
    (finding,) = report.findings
    assert finding.example.outcome is Outcome.ERROR and finding.example.payload["s"] == "B"
    assert finding.example.changed is None


def test_a_recursive_record_ends_at_an_empty_array_and_null():
    node = lambda kind: {"type": "record", "name": "Node", "fields": [
        {"name": "v", "type": kind}, {"name": "children", "type": {"type": "array", "items": "Node"}},
        {"name": "next", "type": ["null", "Node"]}]}
    (finding,) = _check(Format.AVRO, node("int"), node("string")).findings
    assert finding.example.payload == {"v": 1, "children": [], "next": None}


MONEY = {"type": "record", "name": "Money", "namespace": "com.shop", "fields": [
    {"name": "units", "type": "long"},
    {"name": "currency", "type": {"type": "enum", "name": "Currency", "symbols": ["EUR", "USD"]}}]}
ORDER = {"type": "record", "name": "Order", "namespace": "com.shop", "fields": [
    {"name": "id", "type": "long"}, {"name": "total", "type": "com.shop.Money"}, {"name": "cur", "type": "Currency"}]}


@pytest.mark.parametrize("target", ["dir", "file"])
def test_named_types_from_another_avsc_file(tmp_path, capsys, caplog, target):
    from rules.cli import main
    for side, symbols, id_type in (("old", ["EUR", "USD"], "long"), ("new", ["EUR", "USD", "GBP"], "string")):
        (tmp_path / side).mkdir()
        money = json.loads(json.dumps(MONEY))
        money["fields"][1]["type"]["symbols"] = symbols
        order = json.loads(json.dumps(ORDER))
        order["fields"][0]["type"] = id_type
        (tmp_path / side / "money.avsc").write_text(json.dumps(money))
        (tmp_path / side / "order.avsc").write_text(json.dumps(order))
    args = [str(tmp_path / "old"), str(tmp_path / "new")] if target == "dir" else \
        [str(tmp_path / "old" / "order.avsc"), str(tmp_path / "new" / "order.avsc")]
    assert main(["check", *args, "--mode", "full", "--examples", "--json"]) == 1
    out = capsys.readouterr()
    assert "Traceback" not in out.err + caplog.text
    findings = {f["path"]: f["example"] for f in json.loads(out.out)["findings"]}
    assert findings["Order.id"]["payload"]["id"] == 1
    assert "GBP" in json.dumps(findings["Currency.GBP"]["payload"])
    assert findings["Currency.GBP"]["reader_error"].startswith("GBP not found")


def test_named_types_used_across_three_files(tmp_path, capsys):
    """Money (money.avsc) defines Currency and uses Rate (rate.avsc): whatever order the types
    are registered in, a type defined half way through a failed attempt is not defined twice."""
    from rules.cli import main
    rate = {"type": "record", "name": "Rate", "namespace": "com.shop", "fields": [{"name": "bp", "type": "int"}]}
    money = json.loads(json.dumps(MONEY))
    money["fields"].append({"name": "rate", "type": "com.shop.Rate"})
    order = {"type": "record", "name": "Order", "namespace": "com.shop", "fields": [
        {"name": "id", "type": "long"}, {"name": "total", "type": "com.shop.Money"}]}
    for side, id_type in (("old", "long"), ("new", "string")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "a_money.avsc").write_text(json.dumps(money))
        (tmp_path / side / "b_rate.avsc").write_text(json.dumps(rate))
        order["fields"][0]["type"] = id_type
        (tmp_path / side / "order.avsc").write_text(json.dumps(order))
    assert main(["check", str(tmp_path / "old" / "order.avsc"), str(tmp_path / "new" / "order.avsc"),
                 "--examples", "--json"]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert finding["example"]["payload"] == {"id": 1, "total": {"units": 1, "currency": "EUR", "rate": {"bp": 1}}}


def test_a_runtime_refusing_the_schemas_says_why_in_one_line(tmp_path, monkeypatch, capsys, caplog):
    from rules.cli import main
    from rules.examples import avro as avro_examples

    def refuse(*_args, **_kwargs):
        raise ValueError("Unknown type com.shop.Money")
    monkeypatch.setattr(avro_examples.Finder, "__init__", refuse)
    old, new = rec([AMOUNT_INT]), rec([AMOUNT_STRING])
    report = _check(Format.AVRO, old, new)
    why = ("examples_unavailable: 1 error finding(s) have no example: the runtime could not load the "
           "schemas (ValueError: Unknown type com.shop.Money): AVRO_TYPE_CHANGED at new.avsc:1")
    assert [n for n in report.notes if n.startswith("examples_")] == [why]
    (tmp_path / "old.avsc").write_text(json.dumps(old))
    (tmp_path / "new.avsc").write_text(json.dumps(new))
    assert main(["check", str(tmp_path / "old.avsc"), str(tmp_path / "new.avsc"), "--examples"]) == 1
    out = capsys.readouterr()
    in_cli = why.replace("at new.avsc:1", f"at {tmp_path / 'new.avsc'}:1")  # the path as given
    assert "  example: none: the notes below say why\n" in out.out and f"note: {in_cli}\n" in out.out
    assert "search budget" not in out.out  # not the excuse it used to give
    assert "Traceback" not in out.err + caplog.text


@pytest.mark.parametrize("rule, line", [
    ("PROTO_PACKAGE_CHANGED", "example: none: the package changes type URLs"),
    ("AVRO_TYPE_CHANGED", "example: none: the notes below say why"),
])
def test_a_finding_without_an_example_says_why_in_one_line(rule, line):
    from rules.examples import NOT_A_READ_FAILURE
    from rules.examples.text import lines
    (said,) = lines(None, NOT_A_READ_FAILURE.get(rule))  # the engine sets example_why so
    assert said.startswith(line) and "\n" not in said


ARRAY_2020 = "https://json-schema.org/draft/2020-12/schema"
# Errors the reader reports above the element (a combinator, the array or the object holding
# it) still belong to it: these keep their example.
ABOVE_THE_ELEMENT = [
    ("type-changed-inside-oneOf", Format.JSONSCHEMA, Mode.BACKWARD,
     {"oneOf": [{"properties": {"foo": {"type": "string"}}}]},
     {"oneOf": [{"properties": {"foo": {"type": "number"}}}]}, "$.foo", "'x' is not of type 'number'"),
    ("positional-item-removed", Format.JSONSCHEMA, Mode.BACKWARD,
     {"$schema": ARRAY_2020, "type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}],
      "unevaluatedItems": {"type": "string"}},
     {"$schema": ARRAY_2020, "type": "array", "prefixItems": [{"type": "string"}],
      "unevaluatedItems": {"type": "string"}}, "$[1]", "Unevaluated items are not allowed"),
    ("items-made-false", Format.JSONSCHEMA, Mode.BACKWARD,
     {"$schema": ARRAY_2020, "items": True}, {"$schema": ARRAY_2020, "items": False}, "$[]",
     "Expected at most 0 items"),
    ("dependent-schema-on-its-property", Format.JSONSCHEMA, Mode.BACKWARD,
     {"type": "object", "properties": {"card": {"type": "string"}}},
     {"type": "object", "properties": {"card": {"type": "string"}},
      "dependencies": {"card": {"required": ["billing"]}}}, "$/dependentSchemas/card",
     "'billing' is a required property"),
    ("field-renamed-without-alias-read-by-the-old-reader", Format.AVRO, Mode.FORWARD,
     rec([{"name": "a", "type": "double"}, {"name": "f1", "type": "boolean"}]),
     rec([{"name": "a", "type": "double"}, {"name": "added", "type": "boolean", "default": True}]),
     "Payment.added", "No default value for field f1"),
]


@pytest.mark.parametrize("fmt, mode, old, new, path, error", [c[1:] for c in ABOVE_THE_ELEMENT],
                         ids=[c[0] for c in ABOVE_THE_ELEMENT])
def test_an_error_reported_above_the_element_is_still_its_example(fmt, mode, old, new, path, error):
    report = _check(fmt, old, new, mode)
    example = {f.path: f.example for f in report.findings}.get(path)
    assert example is not None and example.reader_error.startswith(error), (report.findings, report.notes)
