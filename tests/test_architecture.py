"""Dependencies run one way, app.py -> bot -> rules, and the README's test command is CI's."""
import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def imported_top_levels(folder: str) -> dict[str, set[str]]:
    found = {}
    for path in (REPO / folder).rglob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(REPO))] = names
    return found


def test_rules_never_imports_bot_flask_or_github():
    offenders = {path: names & {"bot", "flask", "github", "requests", "werkzeug", "app"}
                 for path, names in imported_top_levels("rules").items()}
    assert {p: n for p, n in offenders.items() if n} == {}


def test_bot_never_imports_app_or_tests():
    offenders = {path: names & {"app", "tests"} for path, names in imported_top_levels("bot").items()}
    assert {p: n for p, n in offenders.items() if n} == {}


def test_ci_runs_the_readme_test_command():
    readme = (REPO / "README.md").read_text()
    ci = (REPO / ".ci" / "run").read_text()
    command = "python -m pytest -q -n auto"
    assert command in readme and command in ci


# bot/'s packages from the top layer down: a package imports only those below it (never a sibling
# of the same rank, never one above), so one review job walks web -> queue -> handlers -> gather
# -> review -> render and comes back through no folder it has left.
LAYERS = {"__main__": 9, "worker": 9, "web": 8, "queue": 7, "handlers": 6, "local": 6,
          "gather": 5, "overrides": 5, "review": 4, "github": 4, "render": 3, "lifecycle": 2,
          "config": 1, "ambient": 0}
# What performs I/O or belongs to the App's doors: judgment and rendering reach none of it.
IO = {"bot.github", "bot.gather", "bot.queue", "bot.web", "bot.handlers", "bot.local", "bot.ambient",
      "github", "requests", "subprocess", "socket", "sqlite3", "huey", "redis", "flask", "urllib.request",
      "http", "shutil"}


def bot_import_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports (module level or inside a function), bot's and others'."""
    folder = REPO / "bot"
    modules = {".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__"): p
               for p in folder.rglob("*.py") if "example" not in p.parts}
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]
                                    + ([base] if base else []))
                for alias in node.names:  # `from bot.x import y` imports module bot.x.y when there is one
                    found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
        graph[name] = {m for m in found if m != name}
    return graph


def layer_of(module: str) -> str:
    return module.split(".")[1] if module.count(".") else module


def test_no_import_cycle_among_bot_modules():
    graph = bot_import_graph()
    state, cycles = {}, []

    def visit(module, trail):
        state[module] = "open"
        for target in sorted(t for t in graph[module] if t in graph):
            if state.get(target) == "open":
                cycles.append(trail[trail.index(target):] + [target])
            elif target not in state:
                visit(target, trail + [target])
        state[module] = "done"
    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_a_lower_layer_never_imports_a_higher_one_or_a_sibling():
    graph = bot_import_graph()
    assert {layer_of(m) for m in graph} - {"bot"} <= set(LAYERS), "new bot/ folder: give it a layer"
    upward = sorted(f"{module} -> {target}" for module, targets in graph.items() for target in targets
                    if target.startswith("bot.") and module != "bot"
                    and layer_of(target) != layer_of(module)
                    and LAYERS[layer_of(target)] >= LAYERS[layer_of(module)])
    assert upward == []


def test_review_and_render_perform_no_io():
    graph = bot_import_graph()

    def reached(start):
        seen, todo = set(), [start]
        while todo:
            for target in graph.get(todo.pop(), ()):
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        return seen
    offenders = {module: sorted(t for t in reached(module) if any(t == io or t.startswith(io + ".") for io in IO))
                 for module in graph if layer_of(module) in {"review", "render"}}
    assert {m: found for m, found in offenders.items() if found} == {}
