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
