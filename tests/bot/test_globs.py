"""Glob semantics: `*` stays in one directory, `**` crosses any number of them (zero included)."""
import pytest

from bot.config.globs import matches

CASES = [
    ("**/*.avsc", "a.avsc", True),
    ("**/*.avsc", "deep/er/a.avsc", True),
    ("**/*.avsc", "a.avsc.bak", False),
    ("*.avsc", "dir/a.avsc", False),
    ("*.avsc", "a.avsc", True),
    ("**/schemas/**/*.json", "schemas/a.json", True),
    ("**/schemas/**/*.json", "svc/schemas/v1/a.json", True),
    ("**/schemas/**/*.json", "svc/schemasx/a.json", False),
    ("proto/**", "proto/a/b.proto", True),
    ("proto/**", "protox/a.proto", False),
    ("/proto/*.proto", "proto/a.proto", True),
    ("a?.proto", "ab.proto", True),
    ("a?.proto", "a/.proto", False),
    ("[ab].avsc", "b.avsc", True),
    ("[!ab].avsc", "c.avsc", True),
    ("[!ab].avsc", "a.avsc", False),
    ("v1.0/*.avsc", "v1x0/a.avsc", False),
    ("**/*.avsc", ".github/a.avsc", True),
    ("*", ".hidden.avsc", True),
    ("schemas/*", "schemas/a/b.json", False),
    ("{a,b}.avsc", "a.avsc", False),
    ("{a,b}.avsc", "{a,b}.avsc", True),
    ("!a.avsc", "b.avsc", False),
    ("**/*.AVSC", "a.avsc", False),
]


@pytest.mark.parametrize("pattern, path, expected", CASES)
def test_glob(pattern, path, expected):
    assert matches(path, (pattern,)) is expected
