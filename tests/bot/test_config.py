"""`.github/schema-review.yml`: YAML snippets -> Config values, or the error naming key and line."""
import pytest

from bot.config.config import (BOT_RULES, Compatibility, Config, OverridePolicy, Permission,
                        parse_config)
from bot.config.configfile import MAX_CONFIG_BYTES, ConfigError
from bot.config.consumers import Consumer
from bot.render.model import Conclusion
from rules import Format, Mode, Policy, Severity

KNOWN = frozenset({"PROTO_FIELD_RENAMED", "AVRO_FIELD_ADDED_WITHOUT_DEFAULT"}) | BOT_RULES
FILE = ".github/schema-review.yml"


def parse(text):
    return parse_config(text, known_rules=KNOWN)


VALID = [
    ("", {}),
    ("# only a comment\n", {}),
    ("version: 1\n", {"version": 1}),
    ("compatibility: full\n", {"compatibility": Compatibility.FULL}),
    ("compatibility: BACKWARD_TRANSITIVE\n", {"compatibility": Compatibility.BACKWARD_TRANSITIVE}),
    ("exclude: vendor/**\n", {"exclude": ("vendor/**",)}),
    ("exclude: [a/**, b/*.proto]\n", {"exclude": ("a/**", "b/*.proto")}),
    ("transitive_versions: 3\n", {"transitive_versions": 3}),
    ("deprecation_window_days: 0\n", {"deprecation_window_days": 0}),
    ("max_files: 10\n", {"max_files": 10}),
    ("jsonschema:\n  policy: strict\n", {"policy": Policy.STRICT}),
    ("protobuf:\n  categories: [wire]\n", {"proto_categories": frozenset({"WIRE"})}),
    ("protobuf:\n  categories: [FILE]\n", {"proto_categories": frozenset({"FILE"})}),
    ("protobuf:\n  import_roots: [proto/, third_party]\n", {"import_roots": ("proto", "third_party")}),
    ("rules:\n  PROTO_FIELD_RENAMED: warning\n",
     {"severities": {"PROTO_FIELD_RENAMED": Severity.WARNING}}),
    # YAML 1.1 reads a bare `off` as false; both spellings turn the rule off.
    ("rules:\n  PROTO_FIELD_RENAMED: off\n  AVRO_FIELD_ADDED_WITHOUT_DEFAULT: 'off'\n",
     {"severities": {"PROTO_FIELD_RENAMED": None, "AVRO_FIELD_ADDED_WITHOUT_DEFAULT": None}}),
    ("override:\n  min_permission: maintain\n  allow_users: [octocat]\n  allow_author: true\n"
     "  conclusion: neutral\n",
     {"override": OverridePolicy(min_permission=Permission.MAINTAIN, allow_users=("octocat",),
                                 allow_author=True, conclusion=Conclusion.NEUTRAL)}),
    ("consumers:\n  - paths: [schemas/orders/**]\n    owners: ['@acme/billing', '@octo-cat']\n"
     "    name: Billing\n  - paths: '**/*.proto'\n    owners: ['@acme/mobile_apps', '@acme/billing', '@acme/billing']\n",
     {"consumers": (Consumer(("schemas/orders/**",), ("@acme/billing", "@octo-cat"), "Billing"),
                    Consumer(("**/*.proto",), ("@acme/mobile_apps", "@acme/billing")))}),
]


@pytest.mark.parametrize("text, expected", VALID)
def test_valid_config(text, expected):
    config = parse(text)
    for key, value in expected.items():
        got = getattr(config, key)
        assert (dict(got) if key == "severities" else got) == value


def test_no_file_means_defaults():
    assert parse_config(None) == Config()


ERRORS = [
    ("rules:\n  PROTO_FIELD_RENAMED: fatal\n",
     f"{FILE}:2: rules.PROTO_FIELD_RENAMED: expected one of error, warning, info, off"),
    ("version: 1\n\n\n\n\n\nrules:\n  PROTO_FIELD_RENAMED: true\n",
     f"{FILE}:8: rules.PROTO_FIELD_RENAMED: expected one of error, warning, info, off"),
    ("rules:\n  PROTO_FIELD_RENAMD: error\n",
     f"{FILE}:2: rules.PROTO_FIELD_RENAMD: unknown rule (did you mean PROTO_FIELD_RENAMED?)"),
    ("version: 2\n", f"{FILE}:1: version: expected 1, the only config version"),
    ("compatiblity: full\n", f"{FILE}:1: compatiblity: unknown key (did you mean compatibility?)"),
    ("compatibility: sideways\n", f"{FILE}:1: compatibility: expected one of backward, forward, full"),
    ("paths:\n  avro: 3\n", f"{FILE}:2: paths.avro: expected a list"),
    ("paths:\n  xml: ['*.xsd']\n", f"{FILE}:2: paths.xml: unknown key"),
    ("exclude: ['']\n", f"{FILE}:1: exclude[0]: expected non-empty text"),
    ("overrides:\n  - paths: [a/**]\n", f"{FILE}:2: overrides[0]: missing key 'compatibility'"),
    ("overrides:\n  - paths: [a/**]\n    compatibility: full\n  - paths: b\n    compatibility: no\n",
     f"{FILE}:5: overrides[1].compatibility: expected one of"),
    ("max_files: true\n", f"{FILE}:1: max_files: expected a whole number"),
    ("max_files: 0\n", f"{FILE}:1: max_files: expected a whole number from 1 to 3000"),
    ("transitive_versions: '5'\n", f"{FILE}:1: transitive_versions: expected a whole number"),
    ("protobuf:\n  categories: [WIRE, FILES]\n", f"{FILE}:2: protobuf.categories[1]: expected one of FILE, PACKAGE, WIRE_JSON, WIRE"),
    ("protobuf:\n  categories: []\n", f"{FILE}:2: protobuf.categories: expected at least one category"),
    ("protobuf:\n  import_roots: [../outside]\n", f"{FILE}:2: protobuf.import_roots[0]: expected a relative directory"),
    ("protobuf:\n  import_roots: [/etc]\n", f"{FILE}:2: protobuf.import_roots[0]: expected a relative directory"),
    ("override:\n  min_permission: owner\n", f"{FILE}:2: override.min_permission: expected one of read, triage"),
    ("override:\n  conclusion: failure\n", f"{FILE}:2: override.conclusion: expected one of success, neutral"),
    ("compatibility: full\ncompatibility: forward\n", f"{FILE}:2: compatibility: duplicate key"),
    ("consumers:\n  - paths: [a/**]\n", f"{FILE}:2: consumers[0]: missing key 'owners'"),
    ("consumers:\n  - paths: [a/**]\n    owners: []\n", f"{FILE}:3: consumers[0].owners: expected at least one owner"),
    ("consumers:\n  - paths: [a/**]\n    owners:\n      - '@acme/billing'\n      - acme/billing\n",
     f"{FILE}:5: consumers[0].owners[1]: expected `@user` or `@org/team`"),
    ("consumers:\n  - paths: [a/**]\n    owners: ['@acme/billing <img src=x>']\n",
     f"{FILE}:3: consumers[0].owners[0]: expected `@user` or `@org/team`"),
    ("consumers:\n  - paths: [a/**]\n    owners: ['@-bad-']\n", f"{FILE}:3: consumers[0].owners[0]: expected `@user`"),
    ("consumers:\n  - paths: [a/**]\n    owners: [\"@acme/team\\n\"]\n", f"{FILE}:3: consumers[0].owners[0]: expected `@user`"),
    ("consumers:\n  - paths: [a/**]\n    owners: ['@a/b/c']\n", f"{FILE}:3: consumers[0].owners[0]: expected `@user`"),
    ("consumers:\n  - paths: [a/**]\n    owners: ['@acme']\n    team: x\n", f"{FILE}:4: consumers[0].team: unknown key"),
    ("consumers:\n  paths: [a/**]\n", f"{FILE}:1: consumers: expected a list"),
    ("- a\n- b\n", f"{FILE}:1: expected a mapping of keys to values"),
    ("paths: [\n", f"{FILE}:2: not valid YAML"),
    ("exclude: !!python/object/apply:os.system ['true']\n",
     f"{FILE}:1: exclude: unsupported YAML tag !!python/object/apply:os.system"),
    ("exclude: !!python/name:os.system\n", f"{FILE}:1: exclude: unsupported YAML tag !!python/name"),
    ("!!python/object:os.system {}\n", f"{FILE}:1: unsupported YAML tag !!python/object"),
    ("exclude: !!set {a, b}\n", f"{FILE}:1: exclude: unsupported YAML tag"),
    ("a: &a [*a]\n", f"{FILE}:1: a"),
]


@pytest.mark.parametrize("text, message", ERRORS)
def test_invalid_config_names_key_and_line(text, message):
    with pytest.raises(ConfigError) as caught:
        parse(text)
    assert str(caught.value).startswith(message), str(caught.value)


def test_alias_bomb_is_refused_quickly():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for index in range(1, 9):
        lines.append(f"a{index}: &a{index} [" + ", ".join([f"*a{index - 1}" if index > 1 else "*a"] * 10) + "]")
    with pytest.raises(ConfigError, match="too many values"):
        parse("\n".join(lines) + "\n")


def test_oversized_file_is_refused():
    text = "exclude:\n" + "  - x\n" * (MAX_CONFIG_BYTES // 6 + 1)
    with pytest.raises(ConfigError, match="over the 65,536-byte limit"):
        parse(text)


def test_merge_keys_work():
    config = parse("overrides:\n  - &full {paths: [a/**], compatibility: full}\n"
                   "  - <<: *full\n    paths: [b/**]\n")
    assert [o.paths for o in config.overrides] == [("a/**",), ("b/**",)]


CLASSIFY = [
    ("", "user.avsc", (Format.AVRO, Mode.BACKWARD, False)),
    ("", "svc/api/v1/user.proto", (Format.PROTOBUF, Mode.BACKWARD, False)),
    ("", "svc/user.schema.json", (Format.JSONSCHEMA, Mode.BACKWARD, False)),
    ("", "svc/schemas/v1/user.json", (Format.JSONSCHEMA, Mode.BACKWARD, False)),
    ("", "package.json", None),
    ("", "README.md", None),
    ("exclude: [vendor/**]\n", "vendor/google/x.proto", None),
    ("paths:\n  protobuf: []\n", "a.proto", None),
    ("paths:\n  avro: [events/*.avsc]\n", "events/a.avsc", (Format.AVRO, Mode.BACKWARD, False)),
    ("paths:\n  avro: [events/*.avsc]\n", "other/a.avsc", None),
    ("paths:\n  avro: [events/*.avsc]\n", "b.proto", (Format.PROTOBUF, Mode.BACKWARD, False)),
    ("compatibility: forward_transitive\n", "a.avsc", (Format.AVRO, Mode.FORWARD, True)),
    ("overrides:\n  - paths: [legacy/**]\n    compatibility: none_such\n", "a.avsc", "error"),
    ("compatibility: full\noverrides:\n  - paths: [legacy/**]\n    compatibility: backward\n"
     "  - paths: ['**']\n    compatibility: forward\n", "legacy/a.avsc", (Format.AVRO, Mode.BACKWARD, False)),
    ("compatibility: full\noverrides:\n  - paths: [legacy/**]\n    compatibility: backward\n",
     "new/a.avsc", (Format.AVRO, Mode.FULL, False)),
]


@pytest.mark.parametrize("text, path, expected", CLASSIFY)
def test_classify(text, path, expected):
    if expected == "error":
        with pytest.raises(ConfigError):
            parse(text)
        return
    assert parse(text).classify(path) == expected


def test_options_leave_the_bots_own_rules_out():
    config = parse("jsonschema: {policy: strict}\nrules:\n  SCHEMA_FILE_REMOVED: error\n"
                   "  PROTO_FIELD_RENAMED: info\n")
    options = config.options()
    assert options.policy is Policy.STRICT
    assert dict(options.severities) == {"PROTO_FIELD_RENAMED": Severity.INFO}
    assert config.severity("SCHEMA_FILE_REMOVED", Severity.WARNING) is Severity.ERROR


def test_config_module_docstring_documents_every_key():
    import bot.config.config
    from bot.config.config import _TOP_KEYS
    for key in _TOP_KEYS:
        assert f"`{key}" in bot.config.config.__doc__, key


def test_jsonschema_format_assertion_is_accepted_as_documented():
    """README's config table documents `jsonschema.format_assertion`; the schema refused it."""
    assert parse_config("jsonschema:\n  format_assertion: true\n").options().format_assertion is True
    with pytest.raises(ConfigError, match="format_assertion: expected true or false"):
        parse_config("jsonschema:\n  format_assertion: maybe\n")
