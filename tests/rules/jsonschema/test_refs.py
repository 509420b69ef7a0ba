"""rules/jsonschema/refs: what a `$ref` points at depends on the node, never on a reused id."""
from rules.jsonschema.drafts import Draft
from rules.jsonschema.refs import Refs

ROOT = {"definitions": {"a": {"type": "string"}, "b": {"type": "integer"}}}


def test_a_temporary_ref_node_whose_id_is_reused_resolves_to_its_own_target():
    # The example builder passes nodes it made itself; once freed, CPython hands their memory
    # (and so their id) to the next dict: a memo keyed by bare ids answered "a" for "b".
    # (Refs may keep the node alive instead, so that its id is never reused: also right.)
    refs = Refs(ROOT, Draft.DRAFT7, "s.json", [ROOT])
    first = {"$ref": "#/definitions/a"}
    assert refs.resolve(first) == {"type": "string"}
    freed = id(first)
    del first
    for _ in range(1000):
        second = {"$ref": "#/definitions/b"}
        if id(second) == freed:
            break
    assert refs.resolve(second) == {"type": "integer"}
