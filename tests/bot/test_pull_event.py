"""Which commits a GitHub Actions run's event names as the pull request's base and head."""
import json

import pytest

from bot.local.git import LocalError
from bot.local.pull_event import refs

BASE, HEAD = "a" * 40, "b" * 64


@pytest.mark.parametrize("payload, environ, expected", [
    ({"pull_request": {"base": {"sha": BASE}, "head": {"sha": HEAD}}}, {}, (BASE, HEAD)),
    ({"pull_request": {"base": {"sha": BASE}, "head": {"sha": HEAD}}}, {"GITHUB_BASE_REF": "dev"},
     (BASE, HEAD)),
    ({"ref": "refs/heads/x"}, {"GITHUB_BASE_REF": "main"}, ("origin/main", "HEAD")),
    ({"pull_request": {"base": {"sha": "--upload-pack=x"}, "head": {"sha": HEAD}}},
     {"GITHUB_BASE_REF": "main"}, ("origin/main", "HEAD")),
    ({"pull_request": {"base": {"sha": BASE.upper()}, "head": {"sha": HEAD}}}, {}, None),
    ({"pull_request": "nope"}, {}, None),
    ([], {}, None),
    ({}, {"GITHUB_BASE_REF": ""}, None),
])
def test_refs(tmp_path, payload, environ, expected):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(payload))
    if expected is None:
        with pytest.raises(LocalError, match="is not about a pull request"):
            refs(path, environ=environ)
    else:
        assert refs(path, environ=environ) == expected


@pytest.mark.parametrize("content", [None, b"{not json", b"\xff\xfe"])
def test_unreadable_event(tmp_path, content):
    path = tmp_path / "event.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(LocalError, match="cannot read the event file"):
        refs(path, environ={})
