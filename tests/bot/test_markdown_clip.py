"""The last guard before GitHub: every body fits, keeps the App's markers, closes its fences."""
import pytest

from bot.render.fingerprint import found_in, marker
from bot.render.markdown import MAX_OUTPUT, MAX_TITLE, clip, clip_title

MARK = marker("0123456789abcdef")


@pytest.mark.parametrize("body,fenced", [
    ("intro\n```json\n" + "x" * 70_000 + "\n```\n" + MARK, True),            # one huge line in a fence
    ("intro\n````\n" + ("y" * 99 + "\n") * 900 + "````\n" + MARK, True),     # many lines, longer fence
    ("é" * 40_000 + "\n" + MARK, False),                                      # two bytes per character
    ("| a | b |\n" * 9_000 + MARK, False),                                    # a long table
])
def test_an_oversized_body_fits_and_keeps_its_marker(body, fenced):
    out = clip(body)
    assert len(out.encode("utf-8")) <= MAX_OUTPUT < len(body.encode("utf-8"))
    assert out.endswith(MARK) and found_in(out) == "0123456789abcdef"
    assert "Cut to fit GitHub's" in out
    fences = [line for line in out.split("\n") if line.startswith("```")]
    assert len(fences) % 2 == 0 and (len(fences) > 0) == fenced  # nothing left open


def test_a_body_within_the_limit_is_untouched():
    body = "a\n```\nb\n```\n" + MARK
    assert clip(body) is body


@pytest.mark.parametrize("title", ["t" * 255, "t" * 256, "é" * 400])
def test_titles_fit_githubs_limit(title):
    out = clip_title(title)
    assert len(out) <= MAX_TITLE and out.startswith(title[:200])
