"""The collapsed example in a review comment: present when found, escaped, and within GitHub's limit."""
import dataclasses

import pytest

from bot.render.comments import body
from bot.render.example import MAX_PAYLOAD_CHARS, SUMMARY, block
from bot.render.markdown import MAX_OUTPUT
from rules import Example, Format, Outcome, Side
from tests.bot.test_render import FIX, finding, review_of


def _with(example, **kwargs):
    return dataclasses.replace(finding(**kwargs), example=example)


def test_no_example_no_block():
    assert SUMMARY not in body(_with(None), file=review_of())
    assert SUMMARY not in body(finding(), file=review_of())  # not searched (CLI default)


@pytest.mark.parametrize("outcome, says", [
    (Outcome.ERROR, "A reader on the **new** schema fails: `No default value for field level`"),
    (Outcome.CHANGED, "A reader on the **new** schema reads different values at `$.level`."),
])
def test_block_names_the_writer_the_reader_and_what_it_sees(outcome, says):
    example = Example(Side.OLD, {"id": "x"}, outcome, reader_error="No default value for field level",
                      changed=("$.level",))
    text = body(_with(example), file=review_of())
    assert SUMMARY in text and text.index(SUMMARY) < text.index("</details>")
    assert "written with the **old** schema (Avro's JSON encoding)" in text
    assert '```json\n{\n  "id": "x"\n}\n```' in text and says in text


def test_backticks_in_the_reader_error_stay_in_the_code_span():
    example = Example(Side.NEW, {"a": "``"}, Outcome.ERROR, reader_error="'```' is bad")
    assert "fails: ````'```' is bad````" in block(example, Format.JSONSCHEMA)


def test_a_huge_payload_is_cut_and_the_comment_fits():
    example = Example(Side.OLD, {"k": ["x" * 100] * 5000}, Outcome.ERROR, reader_error="boom")
    text = body(_with(example, suggestion=FIX), file=review_of())
    assert len(text.encode("utf-8")) <= MAX_OUTPUT
    assert "more characters not shown" in text
    fenced_json = text.split("```json\n", 1)[1].split("\n```", 1)[0]
    assert len(fenced_json) < MAX_PAYLOAD_CHARS + 100
