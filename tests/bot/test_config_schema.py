"""schema/schema-review.schema.json and the config parser agree: same keys, same verdicts."""
import json
import re

import jsonschema
import pytest
import yaml

import rules
from bot.config import config as config_module
from bot.config import configschema
from bot.config.config import BOT_RULES, CONFIG_PATH, ConfigError, parse_config
from bot.config.configfile import load
from tests.shared import REPO

SCHEMA = json.loads((REPO / "bot" / "schema-review.schema.json").read_text())
VALIDATOR = jsonschema.Draft7Validator(SCHEMA)
EXPECTED_KEYS = re.compile(r"expected one of (.+)$")
# Every mapping level that names its keys: where the unknown key goes, and the schema's object there.
LEVELS = {
    "{K}: 1": SCHEMA,
    "paths: {{{K}: []}}": SCHEMA["properties"]["paths"],
    "overrides: [{{{K}: 1}}]": SCHEMA["properties"]["overrides"]["items"],
    "jsonschema: {{{K}: 1}}": SCHEMA["properties"]["jsonschema"],
    "protobuf: {{{K}: 1}}": SCHEMA["properties"]["protobuf"],
    "override: {{{K}: 1}}": SCHEMA["properties"]["override"],
    "consumers: [{{{K}: 1}}]": SCHEMA["properties"]["consumers"]["items"],
}


def test_the_schema_is_read_and_published_at_its_public_path():
    """Users' editors point `$schema` at bot/schema-review.schema.json (README): the loader and
    the wheel's package data name that file, not a copy elsewhere."""
    public = REPO / "bot" / "schema-review.schema.json"
    assert configschema.SCHEMA_FILE == public and configschema.schema() == SCHEMA
    assert '"schema-review.schema.json"' in (REPO / "pyproject.toml").read_text()
    assert "/main/bot/schema-review.schema.json" in (REPO / "README.md").read_text()


def parser_accepts(text: str) -> bool:
    try:
        parse_config(text)
    except ConfigError:
        return False
    return True


def schema_accepts(text: str) -> bool:
    """The schema as the App applies it: enum values in any case and spacing, as the parser reads them."""
    return configschema.Lenient(SCHEMA).is_valid(yaml.safe_load(text) or {})


def test_the_schema_is_valid_draft_07():
    jsonschema.Draft7Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("text", ["compatibility: FULL\n", "protobuf: {categories: [wire]}\n"])
def test_editors_see_the_canonical_spelling_the_app_also_forgives_others(text):
    assert not VALIDATOR.is_valid(yaml.safe_load(text)) and schema_accepts(text) and parser_accepts(text)


@pytest.mark.parametrize("template", list(LEVELS))
def test_every_key_the_parser_accepts_is_in_the_schema_and_back(template):
    with pytest.raises(ConfigError) as raised:
        parse_config(template.format(K="zz_not_a_key"))
    listed = set(EXPECTED_KEYS.search(str(raised.value)).group(1).split(", "))
    level = LEVELS[template]
    assert listed == set(level["properties"]) and level["additionalProperties"] is False


def test_the_schema_lists_exactly_the_rule_ids_the_parser_knows():
    """Editors complete rule ids from the file; `python -m bot.config.configschema` rewrites the list."""
    assert set(SCHEMA["properties"]["rules"]["propertyNames"]["enum"]) == set(rules.all_specs()) | BOT_RULES


DOCUMENTS = [
    "", "version: 1\n", "version: 2\n", "version: true\n",
    "_extends: .github\n", "_extends: acme/shared\n", "_extends: a/b/c\n", "_extends: ''\n", "_extends: 3\n",
    "paths: {avro: '**/*.avsc'}\n", "paths: {avro: []}\n", "paths: {avro: ['']}\n", "paths: {thrift: []}\n",
    "paths: []\n", "exclude: [gen/**]\n", "exclude: 3\n",
    "compatibility: full_transitive\n", "compatibility: sideways\n",
    "overrides: [{paths: [a/**], compatibility: full}]\n", "overrides: [{paths: [a/**]}]\n",
    "overrides: {paths: x}\n",
    "transitive_versions: 1\n", "transitive_versions: 50\n", "transitive_versions: 0\n", "transitive_versions: 51\n",
    "transitive_versions: '5'\n",
    "jsonschema: {policy: strict}\n", "jsonschema: {policy: loose}\n",
    "protobuf: {categories: [WIRE_JSON]}\n", "protobuf: {categories: [FILE]}\n", "protobuf: {categories: [FILES]}\n",
    "protobuf: {categories: []}\n",
    "protobuf: {import_roots: [proto, third_party/googleapis]}\n", "protobuf: {import_roots: [../up]}\n",
    "protobuf: {import_roots: [a/../b]}\n", "protobuf: {import_roots: ['']}\n",
    "rules: {AVRO_FIELD_ADDED_WITHOUT_DEFAULT: warning, SCHEMA_INVALID: error}\n",
    "rules: {AVRO_FIELD_ADDED_WITHOUT_DEFAULT: off}\n", "rules: {AVRO_FIELD_ADDED_WITHOUT_DEFAULT: loud}\n",
    "rules: {NOT_A_RULE: error}\n", "rules: []\n",
    "deprecation_window_days: 0\n", "deprecation_window_days: 3650\n", "deprecation_window_days: 3651\n",
    "deprecation_window_days: -1\n", "max_files: 1\n", "max_files: 3000\n", "max_files: 3001\n",
    "override: {min_permission: maintain, allow_users: [octocat], allow_teams: [acme/leads]}\n",
    "override: {min_permission: owner}\n", "override: {allow_author: true, min_reason_length: 0}\n",
    "override: {allow_author: 'yes'}\n", "override: {min_reason_length: 1001}\n",
    "override: {conclusion: neutral}\n", "override: {conclusion: failure}\n", "override: {allow_users: ['']}\n",
    "override: {allow_users: octocat}\n", "override: []\n", "rules: {PROTO_FIELD_RENAMD: error}\n",
    "compatiblity: full\n", "paths: {avro: 3}\n", "jsonschema: []\n", "- a\n", "just text\n",
    "overrides: [{paths: [a/**], compatibility: full, extra: 1}]\n", "overrides: [{compatibility: full}]\n",
    "compatibility: ' Forward '\n", "protobuf: {categories: [wire_json]}\n", "exclude: [a, 3]\n",
    "version: 1\nmax_files: 0\ncompatibility: sideways\n", "_extends: acme/.github\nversion: 3\n",
    "consumers: [{paths: [a/**], owners: ['@acme/billing', '@octocat'], name: Billing}]\n",
    "consumers: [{paths: a/**, owners: ['@acme/billing']}]\n", "consumers: [{paths: [a/**]}]\n",
    "consumers: [{paths: [a/**], owners: []}]\n", "consumers: [{paths: [a/**], owners: [acme]}]\n",
    "consumers: [{paths: [a/**], owners: ['@acme/']}]\n", "consumers: [{paths: [a/**], owners: ['@acme'], name: ''}]\n",
    "consumers: [{paths: [a/**], owners: '@acme'}]\n", "consumers: {paths: [a/**]}\n",
    "consumers: [{paths: [a/**], owners: ['@acme'], extra: 1}]\n",
    (REPO / "bot" / "example" / "base" / ".github" / "schema-review.yml").read_text(),
]


@pytest.mark.parametrize("text", DOCUMENTS)
def test_the_schema_and_the_parser_give_the_same_verdict(text):
    assert schema_accepts(text) == parser_accepts(text)


INVALID = [text for text in DOCUMENTS if not parser_accepts(text)]


@pytest.mark.parametrize("text", INVALID)
def test_the_schema_finds_each_problem_and_says_it_as_the_parser_did(text, monkeypatch):
    """At run time the schema checks first; its message is the one the parser alone would give."""
    with pytest.raises(ConfigError) as by_schema:
        configschema.check(load(text, file=CONFIG_PATH), special=config_module._SCHEMA_WORDING)
    monkeypatch.setattr(configschema, "check", lambda root, **_options: None)
    with pytest.raises(ConfigError) as by_parser:
        parse_config(text)
    assert str(by_schema.value) == str(by_parser.value)


def test_a_rule_the_shipped_schema_does_not_list_yet_is_still_accepted_at_run_time():
    known = frozenset({"PROTO_BRAND_NEW_RULE"})
    assert "PROTO_BRAND_NEW_RULE" not in SCHEMA["properties"]["rules"]["propertyNames"]["enum"]
    config = parse_config("rules:\n  PROTO_BRAND_NEW_RULE: warning\n", known_rules=known)
    assert config.severities["PROTO_BRAND_NEW_RULE"].value == "warning"
    message = r":2: rules.PROTO_BRAND_NEW_RUL: unknown rule \(did you mean PROTO_BRAND_NEW_RULE\?\)"
    with pytest.raises(ConfigError, match=message):
        parse_config("rules:\n  PROTO_BRAND_NEW_RUL: warning\n", known_rules=known)
