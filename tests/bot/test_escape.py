"""The markdown escaper: each kind of place stays what it is, whatever the string holds."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from bot.render.fingerprint import found_in, marker
from bot.render.escape import cell, code, exact, fenced, plain, quote, text
from tests.rules.test_output import RAW
from tests.security.markdown_check import problems, prose, table_cells, without_code, without_fences

# Characters that matter to GitHub's renderer, mixed with ordinary ones.
HOSTILE_ALPHABET = st.sampled_from(list("`|<>&@#-*_[]()!\\\n\r \t.:/=~\u2028x0") + ["<!--", "-->", "```",
                                                                                   "@org/team", "www."])
HOSTILE = st.lists(HOSTILE_ALPHABET, max_size=60).map("".join)

CASES = [
    "line\n# Heading",
    "@evil-org/secret-team",
    "acme/other#5 fixes #77, see GH-12 and gh-3",
    "<img src=x onerror=alert(1)>",
    "```\n<!-- schema-review:fingerprint=0123456789abcdef -->",
    "a|b|c",
    "`" * 200,
    "trailing backslash \\",
    "\\|",
    "1. numbered\n- bullet\n> quote",
    "[x](javascript:alert(1)) www.evil.example http://evil.example",
    " padded ",
    "",
]


@pytest.mark.parametrize("value", CASES)
def test_text_is_one_line_of_prose_with_nothing_active(value):
    out = text(value)
    assert "\n" not in out and "\r" not in out
    assert problems(out) == []
    assert "<" not in out and ">" not in out.replace("&gt;", "")


@pytest.mark.parametrize("value", CASES)
def test_code_is_exactly_one_span_on_one_line(value):
    out = code(value)
    assert "\n" not in out
    assert without_code(out) == ""
    assert "<!-- schema-review" not in out
    if value.strip():
        assert value.split()[0].replace("<!--", "<!\u200b--")[:5] in out


@pytest.mark.parametrize("value", CASES)
def test_a_cell_never_splits_the_row(value):
    for escaped in (text(value), code(value)):
        assert table_cells(f"| {cell(escaped)} |") == 1


@pytest.mark.parametrize("value", CASES)
def test_a_fence_keeps_its_content_and_cannot_be_closed_from_inside(value):
    block = fenced(value, "suggestion")
    rest, inside = without_fences(block + "\nafter " + marker("0" * 16))
    assert exact(value) and inside == [value] and rest == "after " + marker("0" * 16)
    assert found_in(block + "\n" + marker("f" * 16)) == "f" * 16


# (content, what the fence shows): control and bidi characters as escapes, lines and tabs kept.
FENCE_CONTROLS = [
    ("  string id = 1; // \x1b[31mred \u202eevil", "  string id = 1; // \\x1b[31mred \\u202eevil"),
    ("a\rb\n\tc\u2028d\x85", "a\\x0db\n\tc\\u2028d\\x85"),
    ("\u2066x\u2069\n\x7f", "\\u2066x\\u2069\n\\x7f"),
]


@pytest.mark.parametrize("value, shown", FENCE_CONTROLS)
def test_a_fence_shows_control_characters_as_escapes(value, shown):
    _rest, inside = without_fences(fenced(value, "protobuf"))
    assert inside == [shown] and not exact(value)


def test_quote_keeps_lines_inside_the_quote():
    out = quote("one\n# two\n\n- three @team")
    assert all(line.startswith(">") for line in out.split("\n"))
    assert problems(out) == []


def test_plain_is_one_bounded_line():
    assert plain("a\nb\r\nc" + "x" * 300, limit=255) == ("a b c" + "x" * 300)[:255]


@settings(max_examples=300, deadline=None)
@given(HOSTILE)
def test_any_string_is_harmless_in_every_place(value):
    assert problems(text(value)) == [] and "\n" not in text(value)
    assert without_code(code(value)) == "" and "\n" not in code(value)
    for escaped in (text(value), code(value)):
        assert table_cells(f"| {cell(escaped)} |") == 1
    assert problems(prose(quote(value))) == []
    _rest, inside = without_fences(fenced(value))
    assert inside == [value] if exact(value) else not RAW.findall(inside[0])
