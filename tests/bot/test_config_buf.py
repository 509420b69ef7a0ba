"""Config.proto_options: buf.yaml's `breaking:` section beneath the repository's config."""
from rules import Severity
from rules.protobuf import bufyaml

from bot.config.config import parse_config

LAYOUT = bufyaml.layout({"proto/buf.yaml": "version: v1\nbreaking:\n  use: [FILE]\n"
                                            "  except: [FIELD_SAME_NAME, FIELD_SAME_JSON_NAME]\n",
                         "x/buf.yaml": "[\n"})


def test_without_settings_of_its_own_the_config_takes_buf_yaml():
    options, notes = parse_config(None).proto_options("proto/a.proto", LAYOUT)
    assert options.proto_categories == {"FILE"}
    assert options.severities == {"PROTO_FIELD_RENAMED": None, "PROTO_FIELD_JSON_NAME_CHANGED": None}
    assert [note.split(":")[0] for note in notes] == ["x/buf.yaml was not used"]


def test_the_configs_categories_and_severities_win():
    config = parse_config("protobuf:\n  categories: [WIRE_JSON]\nrules:\n  PROTO_FIELD_RENAMED: warning\n")
    options, _notes = config.proto_options("proto/a.proto", LAYOUT)
    assert options.proto_categories == {"WIRE_JSON"}
    assert options.severities == {"PROTO_FIELD_RENAMED": Severity.WARNING}


def test_a_file_outside_every_module_keeps_the_config():
    options, _notes = parse_config(None).proto_options("other/a.proto", LAYOUT)
    assert options == parse_config(None).options()


def test_an_import_from_a_buf_dependency_is_named_in_the_apps_schema_invalid():
    from datetime import datetime, timezone

    from bot.config.config import Config
    from bot.review.review import FileChange, FileStatus, review
    from tests.bot.test_review import patch

    layout = bufyaml.layout({"proto/buf.yaml": "version: v2\ndeps:\n  - buf.build/googleapis/googleapis\n"})
    base = ('syntax = "proto3";\npackage acme.v1;\nimport "google/api/annotations.proto";\n'
            "message A {\n  string id = 1;\n}\n")
    head = base.replace("id = 1;\n", "id = 1;\n  string note = 2;\n")
    change = FileChange(path="proto/a.proto", status=FileStatus.MODIFIED, patch=patch(base, head),
                        base_text=base, head_text=head, buf_layout=layout)
    result = review([change], Config(), now=datetime(2026, 12, 3, tzinfo=timezone.utc))
    (finding,) = result.findings["proto/a.proto"]
    assert finding.rule == "SCHEMA_INVALID" and finding.line == 3
    assert "buf dependencies (buf.build/googleapis/googleapis)" in finding.message
    assert result.conclusion.value == "failure"
