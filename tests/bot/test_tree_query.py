"""bot/github/tree_query.py: the nested tree selection and the file list read from its answer."""
from bot.github import tree_query
from bot.github.tree_query import paths_of, selection


def entry(path: str, kind: str = "blob", entries: list | None = None) -> dict:
    out = {"name": path.rpartition("/")[2], "path": path, "type": kind}
    if entries is not None:
        out["object"] = {"entries": entries}
    return out


def chain(depth: int) -> dict:
    """A root whose only file sits `depth - 1` directories down (at level `depth`)."""
    names = [f"d{i}" for i in range(depth - 1)]
    node = [entry("/".join([*names, "f.json"]))]
    for level in range(depth - 1, 0, -1):
        node = [entry("/".join(names[:level]), "tree", node)]
    return {"entries": node}


def test_the_selection_nests_entries_depth_levels():
    assert selection(1) == "... on Tree { entries { name path type } }"
    assert selection(3).count("entries {") == 3 and selection(3).count("object {") == 2
    assert selection().count("entries {") == tree_query.TREE_DEPTH


def test_files_come_in_git_order_directories_and_submodules_left_out():
    root = {"entries": [entry("a", "tree", [entry("a/b.avsc"), entry("a/c", "tree", [entry("a/c/d.json")])]),
                        entry("lib", "commit"), entry("z.json")]}
    assert paths_of(root) == ["a/b.avsc", "a/c/d.json", "z.json"]
    assert paths_of({"entries": []}) == []


def test_a_directory_at_the_deepest_level_makes_the_listing_incomplete():
    assert paths_of(chain(tree_query.TREE_DEPTH)) == ["/".join(
        [*(f"d{i}" for i in range(tree_query.TREE_DEPTH - 1)), "f.json"])]
    # One level more: the deepest directory came without its entries.
    deeper = chain(tree_query.TREE_DEPTH + 1)
    assert paths_of(deeper) is None
    assert paths_of(deeper, depth=tree_query.TREE_DEPTH + 1) is not None


def test_an_unusable_answer_is_no_listing():
    for root in (None, {}, {"entries": None}, {"entries": [None]},
                 {"entries": [entry("a", "tree")]},  # a directory without its entries
                 {"entries": [{"name": "x.json", "path": "x.json"}]},  # no type
                 {"entries": [entry("a", "tree", [{"name": "b.json", "path": "b.json", "type": "blob"}])]},
                 {"entries": [entry("x.json", "link")]}):
        assert paths_of(root) is None, root


def test_a_listing_longer_than_rest_would_give_is_left_to_rest(monkeypatch):
    monkeypatch.setattr(tree_query, "MAX_ENTRIES", 2)
    assert paths_of({"entries": [entry("a.json"), entry("b.json")]}) == ["a.json", "b.json"]
    assert paths_of({"entries": [entry("a", "tree", [entry("a/b.json")]), entry("c.json")]}) is None


def test_a_directory_that_may_have_been_cut_is_left_to_rest(monkeypatch):
    monkeypatch.setattr(tree_query, "MAX_DIRECTORY_ENTRIES", 3)
    assert paths_of({"entries": [entry("a.json"), entry("b.json")]}) == ["a.json", "b.json"]
    full = [entry(f"a/{n}.json") for n in "xyz"]
    assert paths_of({"entries": [entry("a", "tree", full)]}) is None
