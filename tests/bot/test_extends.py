"""`_extends` without GitHub: which repository is named, how the trees merge, where errors point."""
import pytest

from bot.config.config import Compatibility, parse_config
from bot.config.configfile import ConfigError, load
from bot.config.extends import extends_target, with_base

BASE = """compatibility: full
exclude: ["legacy/**", "vendor/**"]
override:
  min_permission: maintain
  allow_author: true
rules:
  AVRO_FIELD_ADDED_WITHOUT_DEFAULT: warning
"""


def parsed(text: str, base: str | None = BASE):
    reads = []

    def read(full_name):
        reads.append(full_name)
        return base
    extend = lambda root: with_base(root, owner="acme", name="svc", path=".github/schema-review.yml",  # noqa: E731
                                    read_base=read)
    return parse_config(text, extend=extend), reads


@pytest.mark.parametrize("value, expected", [
    (".github", "acme/.github"), ("shared-config", "acme/shared-config"), ("ACME/.github", "acme/.github"),
    ("acme/x.y_z-1", "acme/x.y_z-1"),
])
def test_the_named_repository_is_of_the_same_owner(value, expected):
    assert extends_target(load(f"_extends: {value}\n"), owner="acme", name="svc") == expected


@pytest.mark.parametrize("value, problem", [
    ("other/.github", "another owner"), ("svc", "itself"), ("a/b/c", "expected a repository"),
    ("..", "expected a repository"), ("'a b'", "expected a repository"), ("''", "non-empty text"),
    ("{a: 1}", "expected text"),
])
def test_a_bad_target_is_an_error_on_its_line(value, problem):
    with pytest.raises(ConfigError, match=problem) as raised:
        extends_target(load(f"version: 1\n_extends: {value}\n"), owner="acme", name="svc")
    assert raised.value.line == 2 and raised.value.key == "_extends"


def test_mappings_merge_key_by_key_and_the_repository_wins():
    config, reads = parsed("_extends: .github\noverride:\n  allow_author: false\nexclude: [gen/**]\n")
    assert reads == ["acme/.github"]
    assert config.compatibility is Compatibility.FULL  # from the base
    assert config.override.min_permission.value == "maintain" and config.override.allow_author is False
    assert config.exclude == ("gen/**",)  # lists are replaced, not appended
    assert config.severities["AVRO_FIELD_ADDED_WITHOUT_DEFAULT"].value == "warning"


def test_without_extends_no_base_is_read():
    config, reads = parsed("compatibility: forward\n")
    assert reads == [] and config.compatibility is Compatibility.FORWARD


@pytest.mark.parametrize("base, file_line", [
    (None, ".github/schema-review.yml:1"),
    ("_extends: third\n", "acme/.github:.github/schema-review.yml:1"),
    ("compatibility: sideways\n", "acme/.github:.github/schema-review.yml:1"),
    ("# defaults\n\nrules:\n  NOT_A_RULE: error\n", "acme/.github:.github/schema-review.yml:4"),
    ("[unclosed\n", "acme/.github:.github/schema-review.yml"),
])
def test_errors_name_the_file_and_line_the_value_came_from(base, file_line):
    with pytest.raises(ConfigError) as raised:
        parsed("_extends: .github\n", base=base)
    assert str(raised.value).startswith(file_line), str(raised.value)


def test_an_empty_base_leaves_the_repository_file_as_it_is():
    config, _reads = parsed("_extends: .github\ncompatibility: forward\n", base="# nothing yet\n")
    assert config.compatibility is Compatibility.FORWARD and config.exclude == ()


def test_consumers_are_shared_from_the_base_and_a_repository_list_replaces_them():
    base = BASE + "consumers:\n  - paths: ['schemas/**']\n    owners: ['@acme/billing']\n"
    shared, _reads = parsed("_extends: .github\n", base=base)
    assert [c.owners for c in shared.consumers_of("schemas/order.avsc")] == [("@acme/billing",)]
    own, _reads = parsed("_extends: .github\nconsumers:\n  - paths: ['x/**']\n    owners: ['@octocat']\n",
                         base=base)
    assert own.consumers_of("schemas/order.avsc") == () and own.consumers_of("x/a.proto")[0].owners == ("@octocat",)


def test_a_bad_owner_in_the_base_is_an_error_at_its_line_in_the_base():
    with pytest.raises(ConfigError) as raised:
        parsed("_extends: .github\n", base="consumers:\n  - paths: [a]\n    owners: ['@a b']\n")
    assert str(raised.value).startswith("acme/.github:.github/schema-review.yml:3: consumers[0].owners[0]")
