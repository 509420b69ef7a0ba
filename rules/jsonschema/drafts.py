"""The JSON Schema drafts we accept, keyed by their normalised `$schema` URI."""
from __future__ import annotations

import enum


class Draft(str, enum.Enum):
    DRAFT4 = "draft-04"
    DRAFT6 = "draft-06"
    DRAFT7 = "draft-07"
    DRAFT2019 = "2019-09"
    DRAFT2020 = "2020-12"

    @property
    def ref_overrides_siblings(self) -> bool:
        """Up to draft-07 `$ref` replaces its sibling keywords; later drafts apply both."""
        return self in (Draft.DRAFT4, Draft.DRAFT6, Draft.DRAFT7)

    @property
    def reference_keywords(self) -> tuple[str, ...]:
        """The keywords that stand for another schema: `$ref`, plus the dynamic reference of
        2019-09 (`$recursiveRef`) or 2020-12 (`$dynamicRef`); a draft without one ignores it."""
        return ("$ref",) + DYNAMIC_REFERENCES.get(self, ())

    def reads(self, keyword: str) -> bool:
        """Whether validators of this draft read the keyword: one the draft lacks constrains nothing."""
        order = list(Draft)
        first, last = SPAN.get(keyword, (Draft.DRAFT4, Draft.DRAFT2020))
        return order.index(first) <= order.index(self) <= order.index(last)

    @property
    def tuple_keyword(self) -> str:
        """Where positional item schemas live: `items` (array form) or `prefixItems`."""
        return "prefixItems" if self is Draft.DRAFT2020 else "items"


# The drafts that read a keyword, first to last, where not all do: the `jsonschema` library's
# Draft*Validator.VALIDATORS (`then`/`else` are read by `if`; `minContains`/`maxContains` by the
# 2019-09+ `contains`, beside it only). Keywords not listed are read by every draft.
SPAN = {
    "const": (Draft.DRAFT6, Draft.DRAFT2020),
    "contains": (Draft.DRAFT6, Draft.DRAFT2020),
    "propertyNames": (Draft.DRAFT6, Draft.DRAFT2020),
    "if": (Draft.DRAFT7, Draft.DRAFT2020),
    "then": (Draft.DRAFT7, Draft.DRAFT2020),
    "else": (Draft.DRAFT7, Draft.DRAFT2020),
    "dependencies": (Draft.DRAFT4, Draft.DRAFT7),
    "dependentRequired": (Draft.DRAFT2019, Draft.DRAFT2020),
    "dependentSchemas": (Draft.DRAFT2019, Draft.DRAFT2020),
    "unevaluatedProperties": (Draft.DRAFT2019, Draft.DRAFT2020),
    "unevaluatedItems": (Draft.DRAFT2019, Draft.DRAFT2020),
    "minContains": (Draft.DRAFT2019, Draft.DRAFT2020),
    "maxContains": (Draft.DRAFT2019, Draft.DRAFT2020),
    "additionalItems": (Draft.DRAFT4, Draft.DRAFT2019),
    "prefixItems": (Draft.DRAFT2020, Draft.DRAFT2020),
    "$recursiveRef": (Draft.DRAFT2019, Draft.DRAFT2019),
    "$dynamicRef": (Draft.DRAFT2020, Draft.DRAFT2020),
}
DYNAMIC_REFERENCES = {Draft.DRAFT2019: ("$recursiveRef",), Draft.DRAFT2020: ("$dynamicRef",)}
# Every keyword any draft reads as a reference: what a schema set must hold for a document.
ALL_REFERENCES = ("$ref", "$recursiveRef", "$dynamicRef")

# `$schema` without scheme and trailing "#": http and https, with or without "#", are the same.
URIS = {
    "json-schema.org/draft-04/schema": Draft.DRAFT4,
    "json-schema.org/draft-06/schema": Draft.DRAFT6,
    "json-schema.org/draft-07/schema": Draft.DRAFT7,
    "json-schema.org/draft/2019-09/schema": Draft.DRAFT2019,
    "json-schema.org/draft/2020-12/schema": Draft.DRAFT2020,
}
# The unversioned URI meant "the latest draft" (SARIF 2.1.0 uses it); jsonschema reads it so too.
LATEST_URI = "json-schema.org/schema"
LATEST = Draft.DRAFT2020
DEFAULT = Draft.DRAFT7  # no `$schema`: Confluent's default, and the most common draft in use


def normalise(uri: str) -> str:
    return uri.split("://", 1)[-1].rstrip("#")


def validator_class(draft: Draft):
    """The `jsonschema` validator class for a draft (imported here: it is the heavy import)."""
    import jsonschema
    return {
        Draft.DRAFT4: jsonschema.Draft4Validator,
        Draft.DRAFT6: jsonschema.Draft6Validator,
        Draft.DRAFT7: jsonschema.Draft7Validator,
        Draft.DRAFT2019: jsonschema.Draft201909Validator,
        Draft.DRAFT2020: jsonschema.Draft202012Validator,
    }[draft]
