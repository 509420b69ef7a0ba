"""`python -m bot review [--repo DIR --base REF --head REF] [--config PATH]`: a local dry run;
`python -m bot lifecycle [--repo DIR]`: the migrations a repository has in flight."""
from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator, NoReturn, Sequence

from rules import Severity
from rules.output import Output
from rules.output import render as render_output
from rules.output.github import command
from rules.visible import visible, visible_json

from bot.local import pull_event, step_outputs
from bot.local.arguments import DESCRIPTION, add_commands
from bot.config.configfile import ConfigError
from bot.local.lifecycle import lifecycle_repo, render_text as lifecycle_text, to_json as lifecycle_json
from bot.local.git import LocalError, show, staged_commit
from bot.local.git_review import example_repo, load_config, review_repo
from bot.render import terminal
from bot.render.escape import code
from bot.review.notices import notices, owners_of
from bot.render.model import Conclusion
from bot.render.outcome import outcome
from bot.render.review_json import to_json
from bot.review.review import ReviewResult

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
NEEDS_REPO = ("--base, --head, --staged and --event go with --repo "
              "(without --repo the bundled example is reviewed)")
STAGED_OR_HEAD = "--staged reviews the index as the head; it cannot go with --head"
NOT_RUN = "schema-review could not run: {error}"
SUMMARY_UNWRITABLE = "cannot write the summary to {path}: {problem}"
SUMMARY = "## schema-review: {conclusion}\n\n**{title}**\n\n{summary}\n\n{text}\n"
# One line when the change concerns `consumers:`: asking them is the App's, which this run is not.
CONSUMERS = ("This change concerns consumers ({owners}): the schema-review App asks them to review on "
             "GitHub and keeps their answers; this run cannot.")


def _parser(prog: str = "python -m bot") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=DESCRIPTION)
    add_commands(parser.add_subparsers(dest="command", required=True))
    return parser


def main(argv: Sequence[str] | None = None, *, now: datetime | None = None,
         prog: str = "python -m bot") -> int:
    parser = _parser(prog)
    return run(parser.parse_args(argv), now=now, usage_error=parser.error)


def run(args: argparse.Namespace, *, usage_error: Callable[[str], NoReturn],
        now: datetime | None = None) -> int:
    """A parsed `review` or `lifecycle` command; `usage_error` exits with a usage message."""
    now = now or datetime.now(timezone.utc)
    if args.command == "lifecycle":
        return _lifecycle(args, now=now)
    if args.repo is None and (args.base or args.head or args.staged or args.event):
        usage_error(NEEDS_REPO)
    if args.staged and args.head:
        usage_error(STAGED_OR_HEAD)
    try:
        with _change(args) as (repo, base, head):
            result = review_repo(repo, base, head, config_file=args.config, now=now)
            text = _render(result, args, head_lines=_head_lines(repo, head))
            owners = owners_of(notices(result.files, load_config(repo, base, config_file=args.config)))
        text += _consumers_line(owners, Output(args.output))
        if args.summary_file is not None:
            _append_summary(args.summary_file, result, owners)
        if args.outputs_file is not None:
            step_outputs.append(args.outputs_file, result)
    except (LocalError, ConfigError) as error:
        print(f"error: {visible(error)}", file=sys.stderr)
        if args.output == Output.GITHUB.value:  # the annotation shows on the run's page
            print(command("error", NOT_RUN.format(error=error), title="schema-review"))
        return EXIT_USAGE
    sys.stdout.write(text)
    return _exit_code(result, args.fail_on)


def _lifecycle(args: argparse.Namespace, *, now: datetime) -> int:
    try:
        found = lifecycle_repo(args.repo, ref=args.ref, config_file=args.config, now=now)
    except (LocalError, ConfigError) as error:
        print(f"error: {visible(error)}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(visible_json(lifecycle_json(found), indent=2) + "\n" if args.output == "json"
                     else lifecycle_text(found))
    return EXIT_OK


@contextlib.contextmanager
def _change(args: argparse.Namespace) -> Iterator[tuple[Path, str, str]]:
    """(repository, base, head): the bundled example in a scratch directory, or --repo's."""
    if args.repo is None:
        with tempfile.TemporaryDirectory(prefix="schema-review-") as scratch:
            yield example_repo(Path(scratch))
        return
    base, head = args.base or "main", args.head or "HEAD"
    if args.event is not None:
        event_base, event_head = pull_event.refs(args.event, environ=os.environ)
        base, head = args.base or event_base, args.head or event_head
    yield args.repo, base, staged_commit(args.repo) if args.staged else head


def _render(result: ReviewResult, args: argparse.Namespace, *, head_lines) -> str:
    output = Output(args.output)
    if output is Output.TEXT:
        colour = terminal.use_colour(args.color, stream=sys.stdout)
        return terminal.render(result, colour=colour, head_lines=head_lines)
    if output is Output.JSON:
        return visible_json(to_json(result), indent=2) + "\n"
    return render_output(output, outcome(result))


def _head_lines(repo: Path, head: str):
    @functools.cache
    def lines(path: str) -> list[str] | None:
        data = show(repo, head, path)
        return None if data is None else data.decode("utf-8", "replace").split("\n")
    return lines


def _consumers_line(owners: list[str], output: Output) -> str:
    """The line for text and workflow-command output; machine formats (json, junit, sarif) stay as they are."""
    if not owners:
        return ""
    if output is Output.TEXT:
        return CONSUMERS.format(owners=visible(", ".join(owners))) + "\n"
    if output is Output.GITHUB:
        return command("notice", CONSUMERS.format(owners=", ".join(owners)), title="schema-review") + "\n"
    return ""


def _append_summary(path: Path, result: ReviewResult, owners: list[str]) -> None:
    """The check run's title, summary and text as the App posts them (GitHub renders them)."""
    text = SUMMARY.format(conclusion=result.conclusion.value, title=result.title,
                          summary=result.summary, text=result.text)
    if owners:
        text += "\n" + CONSUMERS.format(owners=", ".join(code(owner) for owner in owners)) + "\n"
    try:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        raise LocalError(SUMMARY_UNWRITABLE.format(path=path, problem=error.strerror)) from None


def _exit_code(result: ReviewResult, fail_on: str) -> int:
    if fail_on == "never":
        return EXIT_OK
    warned = any(f.severity is Severity.WARNING for file in result.files for f in file.findings)
    if result.conclusion is Conclusion.FAILURE or (fail_on == "warning" and warned):
        return EXIT_FAILURE
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
