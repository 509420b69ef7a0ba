"""The `review` summary of the bundled example: each finding's "Example that breaks" shows the
error of that finding's own element, not the first change the reader meets in the record."""
import re
from datetime import datetime, timezone

from bot.local.main import main

NOW = datetime(2030, 1, 1, tzinfo=timezone.utc)
BLOCK = re.compile(r"\*\*Breaking change\*\* · `(?P<rule>[A-Z_]+)` · `(?P<path>[^`]+)`(?P<body>.*?)(?=\n---|\Z)", re.S)
FAILS = re.compile(r"A reader on the \*\*(?:old|new)\*\* schema fails: `(?P<error>[^`]+)`")


def test_each_example_in_the_summary_is_its_own_findings(tmp_path, capsys):
    summary = tmp_path / "summary.md"
    assert main(["review", "--summary-file", str(summary)], now=NOW) == 1
    capsys.readouterr()
    shown = {}
    for block in BLOCK.finditer(summary.read_text()):
        fails = FAILS.search(block["body"])
        if fails:
            shown[(block["rule"], block["path"])] = fails["error"]
    assert shown[("AVRO_FIELD_ADDED_WITHOUT_DEFAULT", "UserEvent.userLevel")].startswith(
        "No default value for field userLevel")
    assert shown[("AVRO_FIELD_RENAMED_WITHOUT_ALIAS", "UserEvent.emailAddress")].startswith(
        "No default value for field emailAddress")
    assert shown[("JSONSCHEMA_REQUIRED_PROPERTY_ADDED", "Customer.phone")].startswith(
        "'phone' is a required property")
