"""A wheel built from this tree, installed in a fresh venv, run from another directory.

Offline: the wheel is built without build isolation (setuptools from requirements-dev.txt) and
installed with --no-index --no-deps; the new venv sees this environment's packages through a .pth
file, except the App's server packages, which a blocker in the new venv makes unimportable: the
core install (rule engine and local review) must not need them.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from tests.shared import REPO

# What `pip install schema-review` (no [app]) must run without: the App's server packages.
APP_ONLY = ("flask", "werkzeug", "gunicorn", "github", "cryptography", "huey", "redis", "jwt")
BLOCKER = f"""
import sys

BLOCKED = {APP_ONLY!r}


class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"blocked: the core install must not import {{name}}", name=name)
        return None


sys.meta_path.insert(0, Blocker())
"""
SOURCES = ("pyproject.toml", "README.md", "app.py", "rules", "bot")
OLD = {"type": "record", "name": "User", "fields": [{"name": "id", "type": "long"},
                                                     {"name": "email", "type": "string"}]}
NEW_BREAKING = {"type": "record", "name": "User", "fields": [
    {"name": "id", "type": "long"}, {"name": "email", "type": "string"}, {"name": "age", "type": "int"}]}
NEW_COMPATIBLE = {"type": "record", "name": "User", "fields": [
    {"name": "id", "type": "long"}, {"name": "email", "type": "string"},
    {"name": "nickname", "type": ["null", "string"], "default": None}]}


def pip(*args: str, cwd: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", *args],
                   cwd=cwd, check=True, capture_output=True, timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, dict]:
    """(bin folder, environment) of a fresh venv holding only the wheel built from this tree."""
    base = tmp_path_factory.mktemp("package")
    source = base / "source"  # a copy: building in the tree would leave build/ and *.egg-info behind
    source.mkdir()
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(REPO / name, source / name)
    pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(base / "dist"), str(source), cwd=base)
    (wheel,) = (base / "dist").glob("schema_review-*.whl")
    target = base / "venv"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    pip("--python", str(python), "install", "--no-index", "--no-deps", str(wheel), cwd=base)
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "_block_app_packages.py").write_text(BLOCKER)
    # .pth files are read in name order: the blocker first, then this environment's packages.
    (site / "0_block_app_packages.pth").write_text("import _block_app_packages\n")
    (site / "1_this_environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "NO_COLOR", "FORCE_COLOR")}
    env["PATH"] = f"{target / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return target / "bin", env


def run(installed, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    bin_dir, env = installed
    program = str(bin_dir / args[0]) if (bin_dir / args[0]).exists() else args[0]
    return subprocess.run([program, *args[1:]], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_venv_imports_the_wheel_not_this_tree_and_blocks_the_app_packages(installed, tmp_path):
    done = run(installed, ["python", "-c", "import rules, bot; print(rules.__file__); print(bot.__file__)\n"
                           "try:\n import flask\nexcept ModuleNotFoundError as e: print(e)"], tmp_path)
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    assert all(str(installed[0].parent) in line for line in lines[:2]), lines
    assert lines[2] == "blocked: the core install must not import flask"


@pytest.mark.parametrize("new, code, rule", [(NEW_BREAKING, 1, "AVRO_FIELD_ADDED_WITHOUT_DEFAULT"),
                                             (NEW_COMPATIBLE, 0, None)])
def test_schema_review_check_runs_from_any_directory(installed, tmp_path, new, code, rule):
    (tmp_path / "a.avsc").write_text(json.dumps(OLD, indent=2))
    (tmp_path / "b.avsc").write_text(json.dumps(new, indent=2))
    done = run(installed, ["schema-review", "check", "a.avsc", "b.avsc", "--json"], tmp_path)
    assert done.returncode == code, done.stderr
    report = json.loads(done.stdout)
    assert report["compatible"] is (code == 0)
    assert [f["rule"] for f in report["findings"] if f["severity"] == "error"] == ([rule] if rule else [])
    assert run(installed, ["python", "-m", "rules", "check", "a.avsc", "b.avsc"], tmp_path).returncode == code


def test_schema_review_review_runs_the_bundled_example(installed, tmp_path):
    done = run(installed, ["schema-review", "review"], tmp_path)
    assert done.returncode == 1, done.stderr  # the example change breaks its contracts
    for path in ("avro/user_event.avsc", "proto/acme/orders/v1/order.proto", "schemas/customer.schema.json"):
        assert path in done.stdout
    assert done.stderr == ""
    same = run(installed, ["python", "-m", "bot", "review"], tmp_path)
    assert (same.returncode, same.stdout) == (1, done.stdout)


def test_schema_review_docs_prints_when_installed(installed, tmp_path):
    done = run(installed, ["schema-review", "docs"], tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("# schema-review rules"), done.stderr
    assert list(tmp_path.iterdir()) == []


def test_usage(installed, tmp_path):
    done = run(installed, ["schema-review"], tmp_path)
    assert done.returncode == 2 and "{check,docs,review,lifecycle}" in done.stderr, done.stderr
    assert "usage: schema-review" in done.stderr and "error:" in done.stderr
    assert run(installed, ["schema-review", "--help"], tmp_path).returncode == 0
    lifecycle = run(installed, ["schema-review", "lifecycle", "--help"], tmp_path)
    assert lifecycle.returncode == 0 and "--output {text,json}" in lifecycle.stdout


def test_pyproject_pins_are_requirements_txt_split_into_core_and_app():
    import tomllib
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    core, app = set(project["dependencies"]), set(project["optional-dependencies"]["app"])
    lock = {line.split("#")[0].strip() for line in (REPO / "requirements.txt").read_text().splitlines()} - {""}
    assert core | app == lock and not core & app
    assert {pin.split("==")[0].lower() for pin in core}.isdisjoint(
        {"flask", "gunicorn", "pygithub", "huey", "redis", "cryptography"})
