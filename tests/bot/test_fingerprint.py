"""Fingerprints identify a finding across pushes; the marker carries them in comment bodies."""
from bot.render.fingerprint import fingerprint, found_in, marker, posted
from rules import Finding, Severity, Side

FINDING = Finding(rule="AVRO_X", severity=Severity.ERROR, line=10, path="User.level", message="m")


def test_line_and_wording_do_not_change_the_fingerprint():
    moved = Finding(rule="AVRO_X", severity=Severity.WARNING, line=99, path="User.level",
                    message="other words", side=Side.OLD)
    assert fingerprint(FINDING, file="a.avsc") == fingerprint(moved, file="a.avsc")


def test_rule_file_and_element_do():
    base = fingerprint(FINDING, file="a.avsc")
    other_rule = Finding(rule="AVRO_Y", severity=Severity.ERROR, line=10, path="User.level", message="m")
    other_path = Finding(rule="AVRO_X", severity=Severity.ERROR, line=10, path="User.name", message="m")
    values = {base, fingerprint(FINDING, file="b.avsc"), fingerprint(other_rule, file="a.avsc"),
              fingerprint(other_path, file="a.avsc")}
    assert len(values) == 4
    assert len(base) == 16 and int(base, 16) >= 0


def test_marker_round_trip():
    value = fingerprint(FINDING, file="a.avsc")
    body = f"**Breaking change**\n\ntext\n\n{marker(value)}"
    assert found_in(body) == value
    assert found_in("someone else's comment") is None
    assert found_in(None) is None
    assert posted([body, "lgtm", None]) == {value}
