"""Runs a composite action's steps the way the GitHub Actions runner does, on this machine."""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import yaml

EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")
CONDITION = re.compile(r"^inputs\.([\w-]+) == '([^']*)'$")
# The runner's template for `shell: bash`.
BASH = ["bash", "--noprofile", "--norc", "-eo", "pipefail"]


@dataclass
class Run:
    code: int  # of the last step run: the first that failed, or 0
    stdout: str
    stderr: str
    summary: str  # every step's $GITHUB_STEP_SUMMARY, in order
    steps_run: list[str]
    outputs: dict[str, str] = field(default_factory=dict)  # the action's `outputs:`, evaluated


def run_action(action_dir: Path, *, workspace: Path, temp: Path, inputs: Mapping[str, str],
               environ: Mapping[str, str], timeout: float = 600) -> Run:
    action = yaml.safe_load((action_dir / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    declared = action.get("inputs", {})
    assert set(inputs) <= set(declared), set(inputs) - set(declared)
    values = {name: spec.get("default", "") for name, spec in declared.items()} | dict(inputs)
    context = {"runner.temp": str(temp), "github.action_path": str(action_dir),
               "github.workspace": str(workspace),
               **{f"inputs.{name}": str(value) for name, value in values.items()}}
    path = [environ["PATH"]]
    out = Run(0, "", "", "", [])
    for number, step in enumerate(action["runs"]["steps"]):
        if "if" in step and not _condition(step["if"], values):
            continue
        assert step["shell"] == "bash" and set(step) <= {"name", "id", "if", "shell", "env",
                                                         "run", "working-directory"}, step
        files = {name: temp / f"{name.lower()}-{number}" for name in
                 ("GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "GITHUB_ENV")}
        for file in files.values():
            file.write_text("")
        script = temp / f"step-{number}.sh"
        script.write_text(_substitute(step["run"], context))
        env = {**environ, "PATH": ":".join(path), "GITHUB_WORKSPACE": str(workspace),
               "GITHUB_ACTION_PATH": str(action_dir), "RUNNER_TEMP": str(temp),
               **{name: str(file) for name, file in files.items()},
               **{key: _substitute(str(value), context) for key, value in step.get("env", {}).items()}}
        cwd = workspace / _substitute(step.get("working-directory", "."), context)
        done = subprocess.run([*BASH, str(script)], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=timeout)
        out.steps_run.append(step.get("name", str(number)))
        out.stdout += done.stdout
        out.stderr += done.stderr
        out.summary += files["GITHUB_STEP_SUMMARY"].read_text()
        # The runner reads a step's file commands whether or not it failed.
        for name, value in _outputs(files["GITHUB_OUTPUT"].read_text()).items():
            if "id" in step:
                context[f"steps.{step['id']}.outputs.{name}"] = value
        # Lines added to $GITHUB_PATH go before PATH in every later step.
        path[:0] = reversed(files["GITHUB_PATH"].read_text().splitlines())
        out.code = done.returncode
        if done.returncode:
            break
    out.outputs = {name: _output(spec["value"], context)
                   for name, spec in action.get("outputs", {}).items()}
    return out


def _output(text: str, context: Mapping[str, str]) -> str:
    """An action output's value; a step output never set is the empty string, as on GitHub."""
    unset = {match.group(1): "" for match in EXPRESSION.finditer(text)
             if match.group(1).startswith("steps.")}
    return _substitute(text, {**unset, **context})


def _outputs(text: str) -> dict[str, str]:
    """$GITHUB_OUTPUT's format: `name=value` lines, or `name<<DELIMITER`, lines, `DELIMITER`."""
    found, lines = {}, iter(text.splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            value = []
            for inner in lines:
                if inner == delimiter:
                    break
                value.append(inner)
            else:
                raise AssertionError(f"{name}: no closing {delimiter!r}: the runner fails the step")
            found[name] = "\n".join(value)
        elif line:
            name, _equals, value = line.partition("=")
            assert _equals, f"not an output command: {line!r}"
            found[name] = value
    return found


def _substitute(text: str, context: Mapping[str, str]) -> str:
    def value(match: re.Match) -> str:
        assert match.group(1) in context, f"expression not emulated: {match.group(0)}"
        return context[match.group(1)]
    return EXPRESSION.sub(value, text)


def _condition(expression: str, values: Mapping[str, str]) -> bool:
    match = CONDITION.match(expression.strip())
    assert match, f"condition not emulated: {expression}"
    return values[match.group(1)] == match.group(2)
