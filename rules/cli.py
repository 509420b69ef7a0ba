"""`python -m rules check OLD NEW ...` and `python -m rules docs`: argument parsing and output."""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import resource
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from . import wire, worker
from .engine import EXTENSIONS
from .limits import FILE_BUDGET_SECONDS
from .model import NOT_SEARCHED, Format, Mode, Options, Policy, Report, SchemaError, Source
from .output import Output
from .sources import buf_layout, paired_roots, read
from .visible import line_start, visible, visible_json

TYPE_CHECKING = False  # importing typing for it costs a file check ~3 ms
if TYPE_CHECKING:  # directory mode imports every format's rules: a file check needs one
    from .tree import Classify

EXIT_USAGE = 2
UNUSABLE = "unusable schema"
BUDGET_VARIABLE = "SCHEMA_REVIEW_FILE_BUDGET"  # seconds per comparison, as in the App
OVER_BUDGET = "could not be checked within {seconds:g} s of CPU (raise {variable} to allow more)"
STOPPED = "could not be checked: the rule engine stopped ({why})"
BAD_CATEGORIES = "unknown categories {given}; expected some of {known}"
SUMMARY = "{verdict} ({mode}): {errors} error(s), {warnings} warning(s), {infos} info"
# A tree with files that could not be checked is never called compatible (exit 2 says why).
NOT_ALL_CHECKED = "{count} file(s) could not be checked"
NO_CONFIG_READER = "--config needs the `schema-review` command (it reads the App's config format)"
TREE_AGAINST = "--against takes files; compare directories one pair at a time"
MIXED = "OLD and NEW must both be files or both be directories"
MIXED_FORMATS = ("OLD is {old} and {other} is {new}: compare two versions of one schema, in one "
                 "format (or pass --format to read both as one)")
DESCRIPTION = "Schema evolution checks for Avro, Protobuf and JSON Schema."


@dataclass(frozen=True)
class Configured:
    """What a `--config` file decides, read by a caller that knows the file's format (the
    `schema-review` command reads `.github/schema-review.yml`; rules/ does not parse it)."""

    classify: Classify  # repository path -> (format, mode), or None when it is no schema
    options: Options
    import_roots: tuple[str, ...] = ()


def help_formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's own formatter, at the width shutil.get_terminal_size would give: argparse
    imports shutil for it (with bz2, lzma, ...), which costs more than the rules of a big file."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 80
    return argparse.HelpFormatter(prog, width=max(columns - 2, 20))


def _parser(prog: str = "python -m rules") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, formatter_class=help_formatter, description=DESCRIPTION)
    add_commands(parser.add_subparsers(dest="command", required=True))
    return parser


def add_commands(commands) -> None:
    """`check` and `docs` on a parser's subcommands (the `schema-review` command adds its own)."""
    run = commands.add_parser("check", help="compare NEW against OLD", formatter_class=help_formatter)
    run.add_argument("old", metavar="OLD", help="a schema file, or a directory of them")
    run.add_argument("new", metavar="NEW", help="the same for the new version: directories pair "
                                              "their files by relative path")
    run.add_argument("--config", metavar="FILE",
                     help="a .github/schema-review.yml: which files are schemas, modes, options "
                          "(flags given explicitly win)")
    run.add_argument("--format", choices=[f.value for f in Format])
    run.add_argument("--mode", choices=[m.value for m in Mode],
                     help="backward (default), forward or full")
    run.add_argument("--output", choices=[o.value for o in Output], default=Output.TEXT.value,
                     help="text (default), json, github (workflow commands), junit or sarif")
    run.add_argument("--json", action="store_const", dest="output", const=Output.JSON.value,
                     help="the same as --output json")
    run.add_argument("--proto-path", action="append", default=[], metavar="DIR",
                     help="protobuf import root (repeatable)")
    run.add_argument("--categories", type=_categories, metavar="LIST",
                     help="protobuf only: buf breaking categories, comma-separated: FILE, PACKAGE, "
                          "WIRE_JSON, WIRE (default: buf.yaml's breaking.use, else WIRE_JSON)")
    run.add_argument("--against", action="append", default=[], metavar="OLDER",
                     help="an older version NEW must also be compatible with (repeatable)")
    run.add_argument("--policy", choices=[p.value for p in Policy],
                     help="JSON Schema only: strict (Confluent) or lenient (default)")
    run.add_argument("--format-assertion", action="store_true",
                     help='JSON Schema only: validators assert "format", so a format change is an error')
    run.add_argument("--examples", action="store_true",
                     help="show, for each breaking error, a record the other version cannot read")
    docs = commands.add_parser("docs", help="render the rules reference", formatter_class=help_formatter)
    # No default here: main fills in docs/rules.md, so `check` never imports the renderer.
    docs.add_argument("--output", help="file to write, - for stdout (default: docs/rules.md in a "
                                       "source checkout, else stdout)")


def _categories(text: str) -> frozenset[str]:
    from .protobuf import categories  # only protobuf checks need the package

    chosen = frozenset(part.strip().upper() for part in text.split(",") if part.strip())
    unknown = sorted(chosen - set(categories.ORDER))
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(BAD_CATEGORIES.format(
            given=", ".join(unknown) or "none", known=", ".join(reversed(categories.ORDER))))
    return chosen


def _print_text(report: Report, unchecked: int = 0) -> None:
    """One line per finding; every schema string and file name is shown through rules/visible.py,
    so none reaches the terminal as control characters or starts a line of its own."""
    for finding in report.findings:
        side = " (old)" if finding.side.value == "old" else ""
        side += f" (against {visible(finding.against)})" if finding.against else ""
        print(f"{line_start(finding.file)}:{finding.line}{side}: {finding.severity.value} "
              f"{finding.rule} {visible(finding.path)}: {visible(finding.message)}")
        if finding.suggestion:
            fix = finding.suggestion
            print(f"  fix: {visible(fix.title)} (lines {fix.line_start}-{fix.line_end}):")
            # Split at \n (and a CRLF's CR) only: any other break is shown, not obeyed.
            for line in fix.replacement.removesuffix("\n").split("\n"):
                print(f"  | {visible(line.removesuffix(chr(13)))}")
        if finding.example is not NOT_SEARCHED:
            from .examples.text import lines  # only `--examples` output needs it
            for line in lines(finding.example, finding.example_why):
                print(f"  {visible(line)}")
    for note in report.notes:
        print(f"note: {visible(note)}")
    print(_summary(report, unchecked))


def _summary(report: Report, unchecked: int = 0) -> str:
    count = {s: sum(f.severity.value == s for f in report.findings) for s in ("error", "warning", "info")}
    verdict = "compatible" if report.compatible else "incompatible"
    if unchecked:
        verdict = NOT_ALL_CHECKED.format(count=unchecked) + ("" if report.compatible else f", {verdict}")
    return SUMMARY.format(verdict=verdict,
                          mode=report.mode.value, errors=count["error"], warnings=count["warning"],
                          infos=count["info"])


def _name_buf_ids(findings: list[dict]) -> None:
    """Each protobuf finding with the ids `buf breaking` reports the same change under."""
    if any(finding["rule"].startswith("PROTO_") for finding in findings):
        from .protobuf.bufrules import buf_ids

        for finding in findings:
            if ids := buf_ids(finding["rule"]):
                finding["buf"] = list(ids)


def _print(report: Report, output: Output, *, new: str, unchecked: Sequence[SchemaError] = (),
           checked: Sequence[str] | None = None) -> None:
    """`checked`: a directory check's files (relative paths); None for a file check."""
    if output is Output.JSON:
        data = report.to_json()
        _name_buf_ids(data["findings"])
        if unchecked:
            data["compatible"] = False
            data["unchecked"] = [{"file": e.file, "line": e.line, "problem": e.problem} for e in unchecked]
        print(visible_json(data, indent=2))
    elif output is Output.TEXT:
        _print_text(report, len(unchecked))
    else:
        from .output import render
        from .output.model import from_report

        verdict = _summary(report, len(unchecked))
        # A file that could not be checked fails in JUnit and SARIF too; `github` annotated it
        # already, on its line (_unusable).
        outcome = from_report(report, new=new, verdict=verdict, tree=checked is not None,
                              checked=checked or (),
                              problems=() if output is Output.GITHUB else unchecked)
        sys.stdout.write(render(output, outcome))


def _budget() -> float:
    try:
        return max(float(os.environ.get(BUDGET_VARIABLE, "") or FILE_BUDGET_SECONDS), 0.1)
    except ValueError:
        return FILE_BUDGET_SECONDS


def _checked_apart(old: Source, new: Source, *, seconds: float, format: Format | None = None,
                   mode: Mode = Mode.BACKWARD, against: Sequence[Source] = (),
                   options: Options = Options(), examples: bool = False) -> Report:
    """`check` in a forked child under a CPU limit, so that the command never hangs and is
    never killed itself: a regex that backtracks for minutes runs in C, where no Python-level
    timer reaches, and the kernel's limit ends the child instead (SIGXCPU, SIGKILL a second
    later). Over budget: a SchemaError that says so (exit status 2). The child answers on a
    pipe in the App's worker format (JSON, never pickle); it checks the sources as they are, so
    a directory's lazy sibling set is read only as far as the references need."""
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no return from here, whatever happens
        status = 1
        try:
            os.close(reading)
            used = resource.getrusage(resource.RUSAGE_SELF)
            limit = math.ceil(used.ru_utime + used.ru_stime + seconds)
            resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
            with os.fdopen(writing, "w") as out:
                json.dump(worker.run(old, new, format=format, mode=mode, against=against,
                                     options=options, examples=examples), out)
            status = 0
        finally:
            os._exit(status)
    os.close(writing)
    with os.fdopen(reading) as answers:
        text = answers.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        raise SchemaError(new.path, None, OVER_BUDGET.format(seconds=seconds, variable=BUDGET_VARIABLE))
    try:
        answer = json.loads(text)
    except ValueError:
        answer = {}
    if isinstance(answer.get("error"), dict):
        raise wire.to_error(answer["error"])
    if "report" in answer:
        return wire.to_report(answer["report"])
    raise SchemaError(new.path, None, STOPPED.format(why=answer.get("crash") or f"status {status}"))


def _check(args: argparse.Namespace, load_config: Callable[[str], Configured] | None) -> int:
    try:
        configured = _configured(args, load_config)
        if os.path.isdir(args.old) or os.path.isdir(args.new):
            return _check_trees(args, configured)
        if not args.format:
            _one_format(args.old, args.new, args.against)
        proto_paths = (*args.proto_path, *(configured.import_roots if configured else ()))
        seconds = _budget() * (1 + len(args.against))
        old_root, new_root = paired_roots(args.old, args.new)
        old = read(args.old, proto_paths=proto_paths, root=old_root)
        new = read(args.new, proto_paths=proto_paths, root=new_root)
        against = [read(path, proto_paths=proto_paths) for path in args.against]
        fmt = Format(args.format) if args.format else None
        how = configured.classify(os.path.normpath(args.new)) if configured else None
        mode = Mode(args.mode) if args.mode else how[1] if how else Mode.BACKWARD
        options, notes = _options(args, configured)
        report = _checked_apart(old, new, seconds=seconds, format=fmt, mode=mode, against=against,
                                options=options, examples=args.examples)
        report = dataclasses.replace(report, notes=report.notes + notes)
    except SchemaError as error:
        _unusable(error, args)
        return EXIT_USAGE
    _print(report, Output(args.output), new=args.new)
    return report.exit_code


def _one_format(old: str, new: str, against: Sequence[str]) -> None:
    """Files of two formats are two schemas, not two versions: refused before any is read (an
    Avro file read as protobuf would blame protoc, and name its folder's other files)."""
    first = EXTENSIONS.get(Path(old).suffix.lower())
    for role, path in (("NEW", new), *(("--against", path) for path in against)):
        other = EXTENSIONS.get(Path(path).suffix.lower())
        if first is not None and other is not None and other is not first:
            raise SchemaError(path, None, MIXED_FORMATS.format(
                old=f"{first.value} ({Path(old).name})", other=role,
                new=f"{other.value} ({Path(path).name})"))


def _configured(args: argparse.Namespace, load_config) -> Configured | None:
    if args.config is None:
        return None
    if load_config is None:
        raise SchemaError(args.config, None, NO_CONFIG_READER)
    return load_config(args.config)


def _options(args: argparse.Namespace, configured: Configured | None = None
             ) -> tuple[Options, tuple[str, ...]]:
    """The config's options with the flags given on the command line over them, then NEW's buf
    module's `breaking:` section applied; and notes about it."""
    options = configured.options if configured else Options()
    if args.policy:
        options = replace(options, policy=Policy(args.policy))
    if args.format_assertion:
        options = replace(options, format_assertion=True)
    if args.categories:
        options = replace(options, proto_categories=args.categories)
    if (args.format or "protobuf") != "protobuf" or not args.new.endswith(".proto"):
        return options, ()
    from .protobuf import bufrules  # only protobuf checks read buf's files

    return bufrules.for_file(buf_layout(args.new), str(Path(args.new).resolve()), options,
                             categories_given=bool(args.categories))

def _check_trees(args: argparse.Namespace, configured: Configured | None) -> int:
    """OLD_DIR NEW_DIR: every schema file in both, each within its own tree; the worst exit."""
    if not (os.path.isdir(args.old) and os.path.isdir(args.new)):
        raise SchemaError(args.new if os.path.isdir(args.old) else args.old, None, MIXED)
    if args.against:
        raise SchemaError(args.against[0], None, TREE_AGAINST)
    from .tree import by_extension, check_trees

    mode = Mode(args.mode) if args.mode else Mode.BACKWARD
    inner = configured.classify if configured else by_extension(mode)
    chosen = Format(args.format) if args.format else None

    def classify(path: str):
        how = inner(path)
        if how is None or (chosen is not None and how[0] is not chosen):
            return None
        return (how[0], mode) if args.mode else how  # the flag wins over the config's mode

    roots = (*args.proto_path, *(configured.import_roots if configured else ()))
    result = check_trees(args.old, args.new, classify=classify, mode=mode,
                         options=_options(args, configured)[0], proto_paths=roots,
                         examples=args.examples, checker=partial(_checked_apart, seconds=_budget()),
                         categories_given=bool(args.categories))
    for problem in result.problems:
        _unusable(problem, args)
    _print(result.report, Output(args.output), new=args.new, unchecked=result.problems,
           checked=result.checked)
    return result.exit_code


def _unusable(error: SchemaError, args: argparse.Namespace) -> None:
    print(f"error: {visible(error)}", file=sys.stderr)
    if args.output == Output.GITHUB.value:  # also as an annotation on the file and line
        from .output.github import command

        print(command("error", error.problem, file=error.file, line=error.line, title=UNUSABLE))


def main(argv: Sequence[str] | None = None, *, prog: str = "python -m rules",
         load_config: Callable[[str], Configured] | None = None) -> int:
    """`load_config` reads a --config file (the `schema-review` command passes the App's reader)."""
    return run(_parser(prog).parse_args(argv), load_config=load_config)


def run(args: argparse.Namespace, *, load_config: Callable[[str], Configured] | None = None) -> int:
    """A parsed `check` or `docs` command."""
    if args.command == "docs":
        from .docs import DOCS_PATH, render  # only this command needs the renderer

        # In a source checkout the default is docs/rules.md; an installed package prints instead.
        in_checkout = (DOCS_PATH.parent.parent / "pyproject.toml").is_file()
        output = args.output if args.output is not None else str(DOCS_PATH) if in_checkout else "-"
        text = render()
        if output == "-":
            sys.stdout.write(text)
        else:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
        return 0
    return _check(args, load_config)
