"""Who is right, and why, for each kind of disagreement seen on real histories.

A disagreement is classified by what each side reported (our error rules, the peer's rule ids);
the first entry whose test matches gives the verdict. An unmatched disagreement is reported as
"not adjudicated", so a new kind cannot hide in the totals.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

OURS, PEER, BOTH = "ours", "peer", "both defensible"


@dataclass(frozen=True)
class Adjudication:
    key: str
    right: str  # OURS, PEER or BOTH
    our_bug: bool  # a defect of ours to fix (a minimal pair in the report)
    why: str
    test: Callable[[dict], bool]

    def to_json(self) -> dict:
        return {"key": self.key, "right": self.right, "our_bug": self.our_bug, "why": self.why}


def _ours(row: dict) -> set[str]:
    return set(row["ours"]["rules"])


def _peer(row: dict) -> set[str]:
    return set((row["peer"] or {}).get("rules") or ())


def _format(row: dict, fmt: str) -> bool:
    return row["format"] == fmt


ADJUDICATIONS: list[Adjudication] = [
    Adjudication(
        "protobuf: buf's PACKAGE skips a package's last types", OURS, False,
        "The file lost every message (and enum) its package had: opentelemetry-proto emptied "
        "agent/common/v1/common.proto of Node and ProcessIdentifier. buf 1.75's "
        "PACKAGE_MESSAGE_NO_DELETE and PACKAGE_ENUM_NO_DELETE compare only packages that still "
        "have messages (enums), so deleting the last ones is silent, while deleting one of two is "
        "reported: with `use: [PACKAGE]`, old `package q.v1; message A {} message B {} enum E "
        "{E_0 = 0;}` against new `message A {} enum E {E_0 = 0;}` is reported (\"Previously present "
        "message B was deleted from package q.v1\"), against `enum E {E_0 = 0;}` or an empty "
        "file it is not. Code that used the types stops compiling either way; FILE reports it "
        "(MESSAGE_NO_DELETE), and so do we under PACKAGE.",
        lambda row: _format(row, "protobuf") and row["run"] == "PACKAGE"
        and row["ours"]["compatible"] is False and row["peer"]["compatible"] is True
        and _ours(row) <= {"PROTO_MESSAGE_DELETED", "PROTO_ENUM_DELETED"}),
    Adjudication(
        "protobuf: a deleted message is an error under buf's wire categories", PEER, True,
        "Deleting a message type changes no encoded byte: every field that used it was changed "
        "or deleted too, and those changes are judged on their own. What breaks is generated "
        "code and `Any` type URLs, which buf checks in its FILE and PACKAGE categories "
        "(MESSAGE_NO_DELETE, PACKAGE_MESSAGE_NO_DELETE), not in WIRE or WIRE_JSON. Under "
        "WIRE/WIRE_JSON PROTO_MESSAGE_DELETED should be silent (or a warning); under FILE or "
        "PACKAGE an error. Minimal pair: old `message A {} message B {}`, new `message A {}`: "
        "expected compatible under WIRE and WIRE_JSON, breaking under FILE/PACKAGE. "
        "For the rules/protobuf categories work (issue 9 (b)).",
        lambda row: _format(row, "protobuf") and row["ours"]["compatible"] is False
        and row["peer"]["compatible"] is True and _ours(row) == {"PROTO_MESSAGE_DELETED"}),
    Adjudication(
        "avro: NEW introduces a default that is not a value of its type", BOTH, False,
        "A default that does not match its type (`\"default\": \"1\"` on an int, the string "
        "`\"null\"` on `[\"null\", \"long\"]`). Java Avro >= 1.9 refuses such a schema (its "
        "parser validates defaults), as does Confluent's registry with "
        "`schema.providers.avro.validate.defaults=true`; Apache's Python checker and Confluent's "
        "registry by default accept it. We report AVRO_FIELD_DEFAULT_INVALID on the field and go "
        "on comparing (issue 9): an error where NEW introduces or changes the invalid default, a "
        "warning where OLD had the same one. The error is by design (a Java reader of NEW cannot "
        "even parse it); the peer does not look at defaults. Case: "
        "tests/rules/cases/avro/AVRO_FIELD_DEFAULT_INVALID/introduced-on-int.",
        lambda row: _format(row, "avro") and row["ours"]["compatible"] is False
        and row["peer"]["compatible"] is True and _ours(row) == {"AVRO_FIELD_DEFAULT_INVALID"}),
    Adjudication(
        "protobuf: a field's message type moved to another package with the same fields", OURS, False,
        "opentelemetry-proto moved ResourceMetrics/ResourceSpans from the collector packages to "
        "opentelemetry.proto.metrics.v1 / trace.v1 and pointed the fields at the moved copies: "
        "the same field numbers, types and JSON names, so no encoded byte and no JSON key "
        "changes. buf's FIELD_WIRE(_JSON)_COMPATIBLE_TYPE compares message types by full name; "
        "we compare what goes on the wire. Generated code does change (a FILE/PACKAGE concern).",
        lambda row: _format(row, "protobuf") and row["ours"]["compatible"] is True
        and row["peer"]["compatible"] is False
        and _peer(row) <= {"FIELD_WIRE_COMPATIBLE_TYPE", "FIELD_WIRE_JSON_COMPATIBLE_TYPE"}
        and "collector/" in row.get("file", "")),
]

# JSON Schema has no reference tool: each backward-mode verdict that is not "compatible" was
# checked by hand against concrete instances. (file, old commit prefix, new commit prefix) ->
# (right, why); a verdict not listed here is shown as "not hand-checked".
JSON_CHECKS: dict[tuple[str, str, str], tuple[str, str]] = {
    ("schemas/telemetry/sync/sync.4.schema.json", "7c8aa576", "dd47b13b"): (
        "fixed (issue 9): compatible now", 'pattern `^[0-9a-f]{64}$` became '
        '`^([0-9a-f]{64}|0{32})$`, a proven superset: a loosening (backward info; forward and '
        'full break). Case: JSONSCHEMA_CONSTRAINT_LOOSENED/pattern-alternative-added.'),
    ("schemas/telemetry/shield-study-error/shield-study-error.3.schema.json", "9cd82aa2",
     "f1085779"): (
        "ours right", 'NEW has `"required": []`, which the draft-04 metaschema forbids '
        '(minItems 1): a draft-04 validator refuses the schema, so "unusable" is the answer.'),
    ("schemas/telemetry/frecency-update/frecency-update.1.schema.json", "6bbd4ced", "bc8f1d54"): (
        "ours right", '`clientId` became required: an old record without it (old schema: '
        'optional) fails NEW.'),
    ("schemas/telemetry/voice/voice-feedback.4.schema.json", "0d6eaa59", "d062f71d"): (
        "ours right", '`version` went from exactly 1 to exactly 4: every old record fails NEW.'),
    ("schemas/org-mozilla-samples-glean/events/events.1.schema.json", "87c20550", "f93c002d"): (
        "ours right", '`$schema` enum went from `.../ping/2` to `.../ping/1`: every old record '
        'fails NEW.'),
    ("schemas/org-mozilla-reference-browser/baseline/baseline.2.schema.json", "2a81c0cd",
     "a7ea2823"): (
        "ours right", 'event tuples: item 3 went from string to object and maxItems from 6 to 4: '
        'an old `[0, "c", "n", "x"]` fails NEW.'),
}
for _file in ("schemas/org-mozilla-samples-glean/baseline/baseline.1.schema.json",
              "schemas/org-mozilla-samples-glean/metrics/metrics.1.schema.json"):
    JSON_CHECKS[(_file, "82860cc1", "4cf74286")] = (
        "ours right", "`range`, `bucket_count` and `time_unit` of timing distributions became "
        "required: an old record without them fails NEW.")
for _file in ("schemas/glean/events/events.2.schema.json",
              "schemas/glean/metrics/metrics.2.schema.json",
              "schemas/org-mozilla-reference-browser/metrics/metrics.2.schema.json",
              "schemas/org-mozilla-samples-glean/events/events.2.schema.json"):
    JSON_CHECKS[(_file, "2f8fc1b9", "4a657cdf")] = (
        "ours wrong on the letter (low priority)", "`ping_info` (closed: additionalProperties "
        "false) declared `clientId` but required `client_id`, so OLD accepted no record at all; "
        "the commit renamed the property to match. Backward is vacuously compatible; our "
        "JSONSCHEMA_PROPERTY_RENAMED error flags a fix. An unsatisfiable OLD object could "
        "demote this to a warning; rare, so noted rather than fixed.")


WITNESS = "ours right (witness)"
FIXED = "fixed (issue 9): compatible now"  # shown again only if the pair regresses
_SS = "src/schemas/json/"
JSON_CHECKS.update({
    # SchemaStore: a "witness" is an instance that jsonschema (the library) validates against
    # OLD and rejects against NEW, found by `python -m rules check --examples`.
    (_SS + "abc-supply-plan-2.0.0.json", "221dafc1", "013a2a96"): (
        WITNESS, 'the `$schema` const moved to www.schemastore.org: an old file naming the old '
        'URL fails NEW.'),
    (_SS + "apibuilder.json", "aaf797fe", "71d13bdf"): (
        WITNESS, '`{"name": "x", "annotations": ["x"]}`: annotations went from array to object.'),
    (_SS + "claude-code-keybindings.json", "cfd4af80", "2f74efc3"): (
        WITNESS, '`{"bindings": [{"context": "Doctor", "bindings": {}}]}`: context "Doctor" '
        'was removed.'),
    (_SS + "dependabot.json", "d06a5c87", "aae26627"): (
        WITNESS, '`allowed_updates: [{}]` now needs minProperties 1 (and version became the '
        'const 1).'),
    (_SS + "gcp-blueprint-metadata.json", "0a060bf1", "875dabd7"): (
        WITNESS, '`{"spec": {}, "metadata": {"namespace": "x"}}`: namespace was removed from a '
        'closed object.'),
    (_SS + "ksp-ckan-1.16.json", "7f78d5f5", "2959da79"): (
        WITNESS, 'install directives now require `file` and exclude others (and identifier '
        'patterns changed).'),
    (_SS + "dart-build.json", "7244add3", "3751e614"): (
        "ours right", 'applies_builders items went from `^(?:\\w*\\|)?\\w+$` to '
        '`^(?:\\w*:)?\\w+$`: an old `"a|b"` fails NEW (checked with jsonschema).'),
    (_SS + "uv.json", "ba06047c", "21e21451"): (
        "ours right", 'a root `not` now forbids `preview` together with `preview-features`: an '
        'old file holding both fails NEW.'),
    (_SS + "band-manifest.json", "d06a5c87", "f17c2b8b"): (
        "ours right (on the letter)", 'page items gained `"type": "object"`: a non-object item '
        'that OLD accepted fails NEW (no real manifest holds one).'),
    (_SS + "azure-iot-edgehub-deployment-1.2.json", "3024de5c", "257c8034"): (
        "likely right (not checked with an instance)", 'patternProperties that accepted any '
        'value were removed from closed objects: keys that matched them are now rejected.'),
    (_SS + "tsconfig.json", "4e704e8a", "23e3fffc"): (
        WITNESS, '`{"compilerOptions": {"lib": ["es5", "es5"]}}`: uniqueItems was added to '
        'compilerOptions arrays, which every anyOf alternative shares (allOf), so no sibling '
        'accepts the old value (checked with jsonschema: valid under OLD, invalid under NEW). '
        'The `files` finding alone would be no break (`{"files": ["a.ts", "a.ts"]}` stays valid '
        'through a sibling), but the verdict is right.'),
    (_SS + "rust-toolchain.json", "fe463822", "bdaee686"): (
        FIXED, 'targets items are `anyOf: [{enum: [...]}, {"type": "string", "minLength": 1}]`: '
        'each removed enum value is still accepted by the sibling alternative. Case: '
        'JSONSCHEMA_ENUM_NARROWED/anyof-sibling-still-accepts-removed-values.'),
    (_SS + "uproject.json", "734c0e50", "933f8c62"): (
        FIXED, 'the EngineAssociation pattern gained two alternatives: a proven superset is a '
        'loosening (rules/jsonschema/regex_cover.py). Case: '
        'JSONSCHEMA_CONSTRAINT_LOOSENED/pattern-alternative-added.'),
    (_SS + "partial-taskipy.json", "ca281c9b", "4653f98e"): (
        FIXED, 'the patternProperties key `^[0-9a-zA-Z]+$` became `^.+$`, a proven superset: the '
        'old names are compared with the new key\'s schema. Case: '
        'JSONSCHEMA_CONTENT_MODEL_NARROWED/pattern-key-widened-is-clean.'),
    (_SS + "partial-pytest.json", "5cc0f329", "a11f0d37"): (
        FIXED, 'LegacyConfig requires `ini_options`, Config forbids it (`{"not": {}}`): the two '
        'alternatives cannot share a value, so widening one overlaps nothing. Case: '
        'JSONSCHEMA_ONEOF_BRANCH_OVERLAPS/changed-alternative-excluded-by-forbidden-property-is-clean.'),
    (_SS + "partial-pdm.json", "35aa113e", "c0ba9785"): (
        FIXED, 'the script forms are closed objects each requiring its own key, so the widened '
        'one overlaps no other; "became exclusive" is said only where OLD had anyOf. Case: '
        'JSONSCHEMA_ONEOF_BRANCH_OVERLAPS/changed-alternative-in-anyof-closed-forms-is-clean.'),
    (_SS + "aspire-8.0.json", "07352f9c", "64265395"): (
        "not settled", 'oneOf overlap findings without a witness (likely the known false-alarm '
        'class); the required `image` and the `type` enum in oneOf[1] may be real. Not checked '
        'with instances.'),
    (_SS + "mason-registry.json", "d9f49545", "c955c3b9"): (
        "not settled", 'oneOf overlap findings only, no witness found by the example search: '
        'likely the known false-alarm class; not checked with instances.'),
    (_SS + "maestro-flow.json", "cd375e16", "e52aafa4"): (
        "not settled", 'a rewrite (2020-12 -> draft-07, new definitions); properties added to a '
        'oneOf branch with no witness found. Not checked with instances.'),
    (_SS + "stylelintrc.json", "2f9057c5", "a3795b43"): (
        "not settled", 'stylelint renamed its *-blacklist rules and dropped options; branch and '
        'property removals are plausible breaks, no witness found. Not checked with instances.'),
    (_SS + "comet.json", "d06a5c87", "1250d4f3"): (
        "ours right", 'OLD refers to `#/definitions/RefInput`, which does not exist (the '
        'definition is `InputRef`): a validator fails on it, so OLD is unusable.'),
    (_SS + "avro-avsc.json", "d06a5c87", "734c0e50"): (
        FIXED, 'mutually recursive definitions are compared coinductively (a pair of '
        'alternatives already being compared is assumed compatible). Case: '
        'JSONSCHEMA_TYPE_NARROWED/mutually-recursive-definitions-is-clean.'),
    **{(_SS + name, "6049f681", "0a22b821"): (
        FIXED, '`"$schema": "http://json-schema.org/schema#"` (no draft) is read as the latest '
        'draft, 2020-12, with a note. Case: '
        'JSONSCHEMA_TYPE_NARROWED/unversioned-schema-uri-read-as-latest.')
       for name in ("sarif-2.1.0-rtm.2.json", "sarif-external-property-file-2.1.0-rtm.3.json")},
})


def json_check(row: dict) -> tuple[str, str]:
    key = (row["file"], row["old"][:8], row["new"][:8])
    return JSON_CHECKS.get(key, ("?", "not hand-checked"))


UNADJUDICATED = Adjudication("unadjudicated", "?", False, "not adjudicated yet", lambda row: True)


def adjudicate(row: dict) -> dict:
    for each in ADJUDICATIONS:
        if each.test(row):
            return each.to_json()
    return UNADJUDICATED.to_json()
