"""Red team (unit level): annotation fields are cut by characters, GitHub limits them in bytes.

bot/render/check_run.py cuts `message` and `raw_details` to 64 * 1024 *characters*; GitHub
documents "The maximum size is 64 KB" for both. A schema string of two- to four-byte characters
(a property name, which the finding's message quotes) then makes an annotation GitHub refuses,
and with it the whole check-run update that carries the verdict.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from bot.config.config import Config
from bot.review.review import FileChange, FileStatus, review
from tests.bot.test_review import patch

LIMIT_BYTES = 64 * 1024


@pytest.mark.parametrize("char,length", [("é", 40_000), ("漢", 30_000), ("😀", 20_000)])
def test_every_annotation_field_fits_githubs_byte_limit(char, length):
    name = char * length
    old = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
    new = {**old, "properties": {**old["properties"], name: {"type": "string"}}, "required": ["id", name]}
    base, head = json.dumps(old, indent=2) + "\n", json.dumps(new, indent=2, ensure_ascii=False) + "\n"
    result = review([FileChange(path="schemas/c.schema.json", status=FileStatus.MODIFIED,
                                patch=patch(base, head), base_text=base, head_text=head)],
                    Config(), now=datetime.now(timezone.utc))
    assert result.annotations
    sizes = {(index, field): len(value.encode("utf-8"))
             for index, annotation in enumerate(result.annotations)
             for field, value in annotation.items() if field in ("message", "raw_details")}
    assert max(sizes.values()) <= LIMIT_BYTES, sizes
