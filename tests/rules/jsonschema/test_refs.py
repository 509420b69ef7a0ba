"""rules/jsonschema/refs: what a `$ref` points at depends on the node, never on a reused id."""
from rules.jsonschema.drafts import Draft
from rules.jsonschema.refs import Refs, id_of, reference_uris

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


def test_a_reference_names_the_documents_of_its_id_base_and_of_the_files_path():
    document = {"$id": "https://acme.example/schemas/order.schema.json", "properties": {
        "line": {"$ref": "defs.schema.json#/$defs/line"}, "self": {"$ref": "#/properties/line"},
        "nested": {"$id": "https://other.example/x/", "properties": {"a": {"$ref": "a.json"}}}}}
    assert reference_uris(document, "schemas/orders/order.schema.json") == {
        "https://acme.example/schemas/defs.schema.json", "file:///schemas/orders/defs.schema.json",
        "https://other.example/x/a.json", "file:///schemas/orders/a.json"}
    assert id_of(document, "schemas/orders/order.schema.json") == document["$id"]
    assert id_of({"$id": "defs.json"}, "a/b.json") == "file:///a/defs.json"
    assert id_of({"type": "object"}, "a/b.json") is None
