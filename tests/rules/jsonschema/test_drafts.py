"""rules/jsonschema/drafts: which keywords each draft reads, as the `jsonschema` library does."""
import jsonschema
import pytest

from rules.jsonschema.drafts import Draft, validator_class

# Read through another keyword: `then`/`else` by `if`, the counts by 2019-09+ `contains`, and
# draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum` by `minimum`/`maximum`.
INDIRECT = {"then": "if", "else": "if"}
CONTAINS_COUNTS = ("minContains", "maxContains")
EVERY_KEYWORD = sorted({k for d in Draft for k in validator_class(d).VALIDATORS} | set(INDIRECT)
                       | set(CONTAINS_COUNTS))


@pytest.mark.parametrize("draft", list(Draft), ids=lambda d: d.value)
def test_a_draft_reads_the_keywords_its_validator_reads(draft):
    validators = validator_class(draft).VALIDATORS
    for keyword in EVERY_KEYWORD:
        if keyword in INDIRECT:
            expected = INDIRECT[keyword] in validators
        elif keyword in CONTAINS_COUNTS:
            expected = draft in (Draft.DRAFT2019, Draft.DRAFT2020)
        elif draft is Draft.DRAFT4 and keyword in ("exclusiveMinimum", "exclusiveMaximum"):
            continue  # the boolean form, read by `minimum`/`maximum` (flatten._numeric_bounds)
        else:
            expected = keyword in validators
        assert draft.reads(keyword) is expected, keyword
    assert [k for k in ("$ref", "$recursiveRef", "$dynamicRef") if draft.reads(k)] == list(draft.reference_keywords)


@pytest.mark.parametrize("draft,counted", [(Draft.DRAFT7, False), (Draft.DRAFT2019, True)])
def test_min_contains_counts_only_where_the_validator_reads_it(draft, counted):
    schema = {"contains": {"type": "string"}, "minContains": 0}
    assert validator_class(draft)(schema).is_valid([1]) is counted
    assert jsonschema.Draft202012Validator({"contains": {"type": "string"}}).is_valid([1]) is False
