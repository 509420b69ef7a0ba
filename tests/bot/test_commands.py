"""Parsing slash commands: every shape of comment, data-driven."""
import pytest

from bot.overrides.commands import Kind, parse


@pytest.mark.parametrize("body, kind, reason, scope", [
    ("/schema-override consumers migrated, see INC-1", Kind.OVERRIDE, "consumers migrated, see INC-1", ()),
    ("  /schema-override   new topic, no consumers yet  ", Kind.OVERRIDE, "new topic, no consumers yet", ()),
    ("/schema-override AVRO_FIELD_ADDED_WITHOUT_DEFAULT -- coordinated upgrade", Kind.OVERRIDE,
     "coordinated upgrade", ("AVRO_FIELD_ADDED_WITHOUT_DEFAULT",)),
    ("/schema-override schemas/a.avsc PROTO_FIELD_RENAMED -- hotfix for INC-9", Kind.OVERRIDE,
     "hotfix for INC-9", ("schemas/a.avsc", "PROTO_FIELD_RENAMED")),
    ("/schema-override first line\ncontinues on the second", Kind.OVERRIDE,
     "first line\ncontinues on the second", ()),
    ("/schema-override revoke", Kind.REVOKE, "", ()),
    ("/schema-override REVOKE", Kind.REVOKE, "", ()),
    ("/schema-review recheck", Kind.RECHECK, "", ()),
    ("/schema-review help", Kind.HELP, "", ()),
])
def test_valid_commands(body, kind, reason, scope):
    command = parse(body)
    assert (command.kind, command.reason, command.scope) == (kind, reason, scope)


@pytest.mark.parametrize("body, problem", [
    ("/schema-override", "reason of at least 10"),
    ("/schema-override short", "reason of at least 10"),
    ("/schema-override AVRO_X -- short", "reason of at least 10"),
    ("/schema-override -- a long enough reason", "Name at least one rule ID"),
    ("/schema-review", "not a schema-review command"),
    ("/schema-review approve", "not a schema-review command"),
    ("/schema-overrid typo here", "not a schema-review command"),
])
def test_invalid_commands_explain_the_syntax(body, problem):
    command = parse(body)
    assert command.kind is Kind.INVALID and problem in command.problem
    assert "/schema-override <reason>" in command.problem


@pytest.mark.parametrize("body", ["", "LGTM", "please /schema-override this", "> /schema-override quoted"])
def test_other_comments_are_not_commands(body):
    assert parse(body) is None


# Reasons whose characters a reader does not see: padding that met the length, an empty reason
# on the audit trail.
@pytest.mark.parametrize("reason", [
    "\u200b" * 10,  # zero-width spaces
    "\u200b \u200c \u200d \u2060 \ufeff " * 3,  # zero-width (non-)joiners, word joiner, BOM
    "\u202e\u2066\u2069\u200e\u200f" * 3,  # bidi overrides, isolates and marks
    "ok" + "\u0301" * 12,  # combining marks on two letters
    "\u3164\u115f\u2800" * 4,  # Hangul fillers, the blank braille pattern
    "\x01\x7f\x9f\ue000" * 3,  # controls, private use
    "\u00a0\u3000\u2028" * 4,  # Unicode whitespace
    "a b c d e f g h i",  # nine letters, however spaced
])
@pytest.mark.parametrize("scope", ["", "AVRO_X -- "])
def test_invisible_characters_do_not_count_towards_the_reason(reason, scope):
    command = parse(f"/schema-override {scope}{reason}")
    assert command.kind is Kind.INVALID and "reason of at least 10" in command.problem


@pytest.mark.parametrize("reason", ["a b c d e f g h i j", "移行済み、影響なしを確認", "café déjà vu!"])
def test_visible_characters_in_any_script_count(reason):
    assert parse(f"/schema-override {reason}").kind is Kind.OVERRIDE


def test_minimum_reason_length_is_configurable():
    assert parse("/schema-override ok", min_reason_length=2).kind is Kind.OVERRIDE
    assert parse("/schema-override ok", min_reason_length=3).kind is Kind.INVALID


def test_scope_splits_rule_ids_from_paths():
    command = parse("/schema-override AVRO_TYPE_CHANGED a/b.avsc -- a good reason here")
    assert command.rules == ("AVRO_TYPE_CHANGED",) and command.paths == ("a/b.avsc",)
