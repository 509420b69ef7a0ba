"""`python -m bot review` on a git repository with a buf module under proto/: no configuration."""
from datetime import datetime, timezone

from bot.local.main import main
from tests.bufmodule import trees
from tests.localgit import make_repo

NOW = datetime(2030, 1, 1, tzinfo=timezone.utc)


def _review(tmp_path, buf_yaml: str, capsys) -> tuple[int, str]:
    base, head = trees({"proto/buf.yaml": buf_yaml})
    repo = make_repo(tmp_path / "repo", base, head)
    code = main(["review", "--repo", str(repo), "--base", "main", "--head", "feature"], now=NOW)
    return code, capsys.readouterr().out


def test_a_buf_module_is_reviewed_without_configuration(tmp_path, capsys):
    code, out = _review(tmp_path, "version: v1\n", capsys)
    assert "SCHEMA_INVALID" not in out
    assert code == 1 and "PROTO_FIELD_RENAMED" in out and "PROTO_MESSAGE_DELETED" not in out, out


def test_buf_yaml_breaking_is_honoured(tmp_path, capsys):
    code, out = _review(tmp_path, "version: v1\nbreaking:\n  use: [PACKAGE]\n", capsys)
    assert code == 1 and "PROTO_MESSAGE_DELETED" in out and "SCHEMA_INVALID" not in out
