"""Schemas the size of SchemaStore's tsconfig.json are judged in well under a second.

The pair is built here in tsconfig.json's shape (its file is not copied into the repository):
a root `allOf` of definitions and an `anyOf` of file-list definitions, ~180 compiler options
(booleans, strings whose `anyOf` is an enum or a case-insensitive pattern, string lists), a
`lib` list whose items are an enum or one of ~70 case-insensitive patterns, and ts-node's
options reusing the compiler options through `allOf` and `$ref`. The new version makes every
type nullable (200-odd widenings, 130 of them compiler options) and adds `lib` members: the
change that made the CLI spend 20 s of CPU and die of SIGXCPU.
"""
from __future__ import annotations

import json
import time

import rules
from rules.model import Format, Source

MAX_CPU_SECONDS = 1.0
TARGETS = ["ES3", "ES5", "ES6", "ES2015", "ES2016", "ES2017", "ES2018", "ES2019", "ES2020", "ESNext"]
LIBS = [f"ES{year}" for year in range(2015, 2024)] + [f"ES{year}.{part}" for year in range(2015, 2024)
                                                        for part in ("Array", "Intl", "Promise", "String", "Object")]
BOOLEAN_OPTIONS = 140
OTHER_OPTIONS = 40


def _ignoring_case(word: str) -> str:
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else "\\." if c == "." else c for c in word)


def _lib(libs: list[str]) -> dict:
    patterns = [{"pattern": f"^{_ignoring_case(name)}$"} for name in libs]
    return {"type": "array", "uniqueItems": True, "items": {"type": "string", "anyOf": [{"enum": libs}, *patterns]}}


def _option(index: int) -> dict:
    kind = index % 4
    if kind == 0:
        return {"type": "string", "anyOf": [{"enum": TARGETS}, {
            "pattern": "^([Ee][Ss]([356]|(20(1[56789]|2[01]))|[Nn][Ee][Xx][Tt]))$"}]}
    if kind == 1:
        return {"enum": ["fixedPollingInterval", "priorityPollingInterval", "dynamicPriorityPolling"]}
    if kind == 2:
        return {"type": "array", "uniqueItems": True, "items": {"type": "string"}}
    return {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}}


def _old() -> dict:
    options = {f"flag{i}": {"description": f"Flag {i}.", "type": "boolean", "default": False}
               for i in range(BOOLEAN_OPTIONS)}
    options.update({f"option{i}": _option(i) for i in range(OTHER_OPTIONS)})
    options["lib"] = _lib(LIBS[:35])
    strings = {"type": "array", "uniqueItems": True, "items": {"type": "string"}}
    definitions = {
        "filesDefinition": {"properties": {"files": strings}},
        "excludeDefinition": {"properties": {"exclude": strings}},
        "includeDefinition": {"properties": {"include": strings}},
        "referencesDefinition": {"properties": {"references": {"type": "array", "items": {
            "type": "object", "properties": {"path": {"type": "string"}}}}}},
        "compileOnSaveDefinition": {"properties": {"compileOnSave": {"type": "boolean"}}},
        "extendsDefinition": {"properties": {"extends": {"type": "string"}}},
        "compilerOptionsDefinition": {"properties": {"compilerOptions": {"type": "object", "properties": options}}},
        "typeAcquisitionDefinition": {"properties": {"typeAcquisition": {"type": "object", "properties": {
            "enable": {"type": "boolean"}, "include": strings}}}},
        "tsNodeDefinition": {"properties": {"ts-node": {"type": "object", "properties": {
            "compiler": {"type": "string"},
            "compilerOptions": {"type": "object", "additionalProperties": True, "properties": {}, "allOf": [
                {"$ref": "#/definitions/compilerOptionsDefinition/properties/compilerOptions"}]},
            "transpiler": {"anyOf": [{"type": "array", "minItems": 2, "items": [
                {"type": "string"}, {"type": "object"}]}, {"type": "string"}]}}}}},
    }
    return {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "definitions": definitions,
            "allOf": [{"$ref": f"#/definitions/{name}"} for name in (
                "compilerOptionsDefinition", "compileOnSaveDefinition", "typeAcquisitionDefinition",
                "extendsDefinition", "tsNodeDefinition")]
            + [{"anyOf": [{"$ref": f"#/definitions/{name}"} for name in (
                "filesDefinition", "excludeDefinition", "includeDefinition", "referencesDefinition")]}]}


def _nullable(node):
    """Every `type` (outside a combinator's own) also allows null."""
    if isinstance(node, list):
        return [_nullable(each) for each in node]
    if not isinstance(node, dict):
        return node
    out = {key: _nullable(value) for key, value in node.items()}
    if isinstance(node.get("type"), str) and "anyOf" not in node:
        out["type"] = [node["type"], "null"]
    return out


def _pair() -> tuple[Source, Source]:
    old = _old()
    new = _nullable(old)
    new["type"] = "object"
    new["definitions"]["compilerOptionsDefinition"]["properties"]["compilerOptions"]["properties"]["lib"] = _lib(LIBS)
    return (Source("tsconfig.json", json.dumps(old, indent=2)), Source("tsconfig.json", json.dumps(new, indent=2)))


def test_a_tsconfig_sized_change_is_judged_within_a_second():
    rules.check(Source("warm.json", '{"pattern": "^a$"}'), Source("warm.json", '{"pattern": "^b$"}'),
                format=Format.JSONSCHEMA)  # imports and validators, as a CLI run has them at start
    old, new = _pair()
    widened = new.text.count('"null"')
    assert widened > 200
    start = time.process_time()
    report = rules.check(old, new, format=Format.JSONSCHEMA)
    spent = time.process_time() - start
    assert report.compatible, [f.message for f in report.findings if f.severity is rules.Severity.ERROR]
    assert sum(f.rule == "JSONSCHEMA_TYPE_WIDENED" for f in report.findings) >= 130
    assert spent < MAX_CPU_SECONDS, f"{spent:.2f} s of CPU"
