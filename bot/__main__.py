"""`python -m bot review [--repo DIR --base REF --head REF] [--config FILE]`: a local dry run."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

from .configfile import ConfigError
from .local import LocalError, example_repo, review_repo
from .render.model import Conclusion
from .render.terminal import render

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
NEEDS_BOTH = "--base and --head go with --repo (without --repo the bundled example is reviewed)"
DESCRIPTION = ("Review a local git change the way the schema-review App reviews a pull request, "
               "and print what it would post. Without --repo, review the bundled example.")


def _parser(prog: str = "python -m bot") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=DESCRIPTION)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("review", help="review a local change (default: the bundled example)",
                              description=DESCRIPTION)
    run.add_argument("--repo", type=Path, metavar="DIR", help="a git repository")
    run.add_argument("--base", metavar="REF", help="the pull request's base (default: main)")
    run.add_argument("--head", metavar="REF", help="the pull request's head (default: HEAD)")
    run.add_argument("--config", type=Path, metavar="FILE",
                     help="a schema-review.yml to use instead of the base's .github/schema-review.yml")
    run.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    return parser


def main(argv: Sequence[str] | None = None, *, now: datetime | None = None,
         prog: str = "python -m bot") -> int:
    parser = _parser(prog)
    args = parser.parse_args(argv)
    if args.repo is None and (args.base or args.head):
        parser.error(NEEDS_BOTH)
    now = now or datetime.now(timezone.utc)
    try:
        if args.repo is None:
            with tempfile.TemporaryDirectory(prefix="schema-review-") as scratch:
                repo, base, head = example_repo(Path(scratch))
                result = review_repo(repo, base, head, config_file=args.config, now=now)
        else:
            result = review_repo(args.repo, args.base or "main", args.head or "HEAD",
                                 config_file=args.config, now=now)
    except (LocalError, ConfigError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(render(result, colour=_colour(args.color)))
    return EXIT_FAILURE if result.conclusion is Conclusion.FAILURE else EXIT_OK


def _colour(choice: str) -> bool:
    if choice != "auto":
        return choice == "always"
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


if __name__ == "__main__":
    sys.exit(main())
