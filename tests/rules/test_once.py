"""rules/once.py: one finding per change, at its definition, naming the files that use it."""
import pytest

from rules import Finding, Severity, Side
from rules.once import once


def found(file, path, *, line=9, rule="R", severity=Severity.ERROR, side=Side.NEW, message=None):
    return Finding(rule=rule, severity=severity, line=line, path=path, file=file, side=side,
                   message=message or f'Optional property "{path}" was added to "required".')


@pytest.mark.parametrize("seen, expected", [
    # the definition's own check and two users' views of it: once, users named
    ([("a.json", found("a.json", "$.zip")), ("o.json", found("a.json", "O.to.zip")),
      ("c.json", found("a.json", "C.home.zip"))],
     [("a.json", "$.zip", 'Optional property "$.zip" was added to "required". '
                          "Used by o.json (O.to.zip), c.json (C.home.zip).")]),
    # identical findings (the same change reached twice): one, nobody named
    ([("a.json", found("a.json", "$.x")), ("a.json", found("a.json", "$.x"))],
     [("a.json", "$.x", 'Optional property "$.x" was added to "required".')]),
    # the defining file not checked: the first view stays, every user named
    ([("o.json", found("a.json", "$.n")), ("i.json", found("a.json", "$.n"))],
     [("a.json", "$.n", 'Optional property "$.n" was added to "required". Used by o.json, i.json.')]),
    # two changes on one line differ in what the message says: both stay
    ([("a.json", found("a.json", "$.a", message="from 20 to 10")),
      ("a.json", found("a.json", "$.b", message="from 10 to 5"))],
     [("a.json", "$.a", "from 20 to 10"), ("a.json", "$.b", "from 10 to 5")]),
    # the same element on the base side and the head side: two places, two findings
    ([("a.json", found("a.json", "$.x", side=Side.OLD)), ("a.json", found("a.json", "$.x"))],
     [("a.json", "$.x", 'Optional property "$.x" was added to "required".')] * 2),
])
def test_once(seen, expected):
    assert [(f.file, f.path, f.message) for f in once(seen)] == expected


def test_the_worst_severity_any_check_gave_wins():
    seen = [("a.json", found("a.json", "$.x", severity=Severity.INFO)),
            ("o.json", found("a.json", "O.x", severity=Severity.ERROR))]
    assert [f.severity for f in once(seen)] == [Severity.ERROR]


def test_a_definition_reached_from_two_places_of_a_file_is_one_finding_there():
    # Issue 21: a JSON Schema `maxLength` change in a `$defs` entry two properties use was
    # reported twice at the same file and line, once per property.
    from rules import Source, check

    def schema(length):
        return ('{"type": "object",\n "properties": {"a": {"$ref": "#/$defs/S"}, "b": {"$ref": "#/$defs/S"}},\n'
                ' "$defs": {"S": {"type": "string",\n  "maxLength": %d}}}\n' % length)
    report = check(Source("old.json", schema(20)), Source("new.json", schema(10)))
    assert [(f.rule, f.file, f.line, f.path, f.message) for f in report.findings] == [
        ("JSONSCHEMA_CONSTRAINT_TIGHTENED", "new.json", 4, "$.a/maxLength",
         '"maxLength" of "$.a" was tightened from 20 to 10. Also at $.b/maxLength.')]


def test_thousands_of_changes_on_one_line_are_merged_by_key_not_pairwise():
    # A one-line schema puts every finding on line 1: merging must stay linear (untrusted input).
    import time
    seen = [("a.json", found("a.json", f"$.p{n}", line=1, message=f"from {n} to {n + 1}"))
            for n in range(20000)]
    started = time.process_time()
    merged = once(seen + seen)
    assert len(merged) == 20000 and time.process_time() - started < 5


def test_a_note_added_after_the_rules_words_is_still_the_same_change():
    own = found("a.json", "$.zip", message='Optional property "$.zip" was added. Since when: unknown.')
    user = found("a.json", "O.zip", message='Optional property "O.zip" was added.')
    other = found("a.json", "O.zap", message='Optional property "O.zap" was added. Other words.')
    assert [f.message for f in once([("o.json", user), ("a.json", own)])] == [
        'Optional property "$.zip" was added. Since when: unknown. Used by o.json (O.zip).']
    # Neither says all the other does: two changes.
    assert [f.message for f in once([("a.json", own), ("p.json", other)])] == [
        'Optional property "$.zip" was added. Since when: unknown.',
        'Optional property "O.zap" was added. Other words. Used by p.json.']


def test_a_type_many_files_use_names_ten_of_them():
    seen = [("a.json", found("a.json", "$.x"))] + [(f"u{n:02}.json", found("a.json", "$.x")) for n in range(25)]
    (merged,) = once(seen)
    assert merged.message.endswith(" Used by " + ", ".join(f"u{n:02}.json" for n in range(10))
                                   + " and 15 more.")
