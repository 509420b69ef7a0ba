"""Seeded 10,000-field schema pairs (200 records x 50 fields, ~1% changed) in all three formats."""
from __future__ import annotations

import json
import random
from pathlib import Path

RECORDS, FIELDS, SEED = 200, 50, 7
AVRO_TYPES = ["string", "int", "long", "double", "boolean", "bytes"]
PROTO_TYPES = ["string", "int32", "int64", "double", "bool", "bytes"]
JSON_TYPES = ["string", "integer", "number", "boolean"]


def _changes(rng: random.Random) -> dict[tuple[int, int], str]:
    """About 1% of the fields get one of four edits: delete, retype, rename, add a sibling."""
    picked = rng.sample([(r, f) for r in range(RECORDS) for f in range(FIELDS)], RECORDS * FIELDS // 100)
    return {spot: rng.choice(["delete", "retype", "rename", "add"]) for spot in picked}


def avro_pair(rng: random.Random) -> tuple[str, str]:
    changes = _changes(rng)

    def schema(new: bool) -> str:
        records = []
        for r in range(RECORDS):
            fields = []
            for f in range(FIELDS):
                kind, name = AVRO_TYPES[(r + f) % len(AVRO_TYPES)], f"field_{f}"
                edit = changes.get((r, f)) if new else None
                if edit == "delete":
                    continue
                if edit == "retype":
                    kind = "float" if kind != "float" else "string"
                if edit == "rename":
                    name += "_renamed"
                fields.append({"name": name, "type": kind})
                if edit == "add":
                    fields.append({"name": f"{name}_extra", "type": "string"})
            records.append({"type": "record", "name": f"Record{r}", "fields": fields})
        root = {"type": "record", "name": "Root", "namespace": "bench",
                "fields": [{"name": f"r{r}", "type": records[r]} for r in range(RECORDS)]}
        return json.dumps(root, indent=2) + "\n"

    return schema(False), schema(True)


def proto_pair(rng: random.Random) -> tuple[str, str]:
    changes = _changes(rng)

    def schema(new: bool) -> str:
        lines = ['syntax = "proto3";', "", "package bench;", ""]
        for r in range(RECORDS):
            lines.append(f"message Record{r} {{")
            for f in range(FIELDS):
                kind, name, number = PROTO_TYPES[(r + f) % len(PROTO_TYPES)], f"field_{f}", f + 1
                edit = changes.get((r, f)) if new else None
                if edit == "delete":
                    continue
                if edit == "retype":
                    kind = "fixed64" if kind != "fixed64" else "string"
                if edit == "rename":
                    name += "_renamed"
                lines.append(f"  {kind} {name} = {number};")
                if edit == "add":
                    lines.append(f"  string {name}_extra = {FIELDS + f + 1};")
            lines += ["}", ""]
        return "\n".join(lines)

    return schema(False), schema(True)


def jsonschema_pair(rng: random.Random) -> tuple[str, str]:
    changes = _changes(rng)

    def schema(new: bool) -> str:
        defs = {}
        for r in range(RECORDS):
            props, required = {}, []
            for f in range(FIELDS):
                kind, name = JSON_TYPES[(r + f) % len(JSON_TYPES)], f"field_{f}"
                edit = changes.get((r, f)) if new else None
                if edit == "delete":
                    continue
                if edit == "retype":
                    kind = "array" if kind != "array" else "string"
                if edit == "rename":
                    name += "_renamed"
                props[name] = {"type": kind}
                if f % 5 == 0:
                    required.append(name)
                if edit == "add":
                    props[f"{name}_extra"] = {"type": "string"}
                    required.append(f"{name}_extra")
            defs[f"Record{r}"] = {"type": "object", "properties": props, "required": required,
                                  "additionalProperties": False}
        root = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                "definitions": defs,
                "properties": {f"r{r}": {"$ref": f"#/definitions/Record{r}"} for r in range(RECORDS)}}
        return json.dumps(root, indent=2) + "\n"

    return schema(False), schema(True)


def write_all(folder: Path) -> dict[str, tuple[Path, Path]]:
    """Writes old/new pairs under folder/<format>/ and returns their paths."""
    rng = random.Random(SEED)
    out = {}
    for fmt, ext, make in (("avro", "avsc", avro_pair), ("protobuf", "proto", proto_pair),
                           ("jsonschema", "json", jsonschema_pair)):
        old_text, new_text = make(rng)
        for side, text in (("old", old_text), ("new", new_text)):
            target = folder / fmt / side / f"schema.{ext}"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        out[fmt] = (folder / fmt / "old" / f"schema.{ext}", folder / fmt / "new" / f"schema.{ext}")
    return out
