"""The `review` and `lifecycle` commands' arguments, apart from their code: the `schema-review`
command builds one parser for every command without importing the review itself."""
from __future__ import annotations

from pathlib import Path

from rules.output import Output

FAIL_ON = ("error", "warning", "never")
LIFECYCLE = ("List the migrations a repository has in flight: deprecated fields and when they "
             "may go, double-writes, optional fields pending promotion to required.")
DESCRIPTION = ("Review a local git change the way the schema-review App reviews a pull request, "
               "and print what it found. Without --repo, review the bundled example.")


def add_commands(commands) -> None:
    """`review` and `lifecycle` on a parser's subcommands."""
    run = commands.add_parser("review", help="review a local change (default: the bundled example)",
                              description=DESCRIPTION)
    run.add_argument("--repo", type=Path, metavar="DIR", help="a git repository")
    run.add_argument("--base", metavar="REF", help="the pull request's base (default: main)")
    run.add_argument("--head", metavar="REF", help="the pull request's head (default: HEAD)")
    run.add_argument("--staged", action="store_true",
                     help="review the staged changes (the index) as the head, as a pre-commit hook")
    run.add_argument("--event", type=Path, metavar="FILE",
                     help="take the base and head from a GitHub Actions pull_request event "
                          "($GITHUB_EVENT_PATH; else origin/$GITHUB_BASE_REF and HEAD)")
    run.add_argument("--config", type=Path, metavar="PATH",
                     help="a schema-review.yml in the repository to use instead of "
                          ".github/schema-review.yml; both are read at the base commit")
    run.add_argument("--output", choices=[o.value for o in Output], default=Output.TEXT.value,
                     help="text (default), json, github (workflow commands), junit or sarif")
    run.add_argument("--summary-file", type=Path, metavar="FILE",
                     help="append the App's check-run summary (Markdown) to FILE, "
                          "e.g. $GITHUB_STEP_SUMMARY")
    run.add_argument("--outputs-file", type=Path, metavar="FILE",
                     help="append the conclusion and the error and warning counts as step "
                          "outputs to FILE, e.g. $GITHUB_OUTPUT")
    run.add_argument("--fail-on", choices=FAIL_ON, default="error",
                     help="exit 1 on error-level findings (default), on warnings too, or never")
    run.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    plan = commands.add_parser("lifecycle", help="the migrations in flight", description=LIFECYCLE)
    plan.add_argument("--repo", type=Path, metavar="DIR", default=Path("."),
                      help="a git repository (default: the current directory)")
    plan.add_argument("--ref", default="HEAD", metavar="REF", help="the version to chart (default: HEAD)")
    plan.add_argument("--config", type=Path, metavar="PATH",
                      help="a schema-review.yml in the repository to use instead of "
                           ".github/schema-review.yml; both are read at the ref")
    plan.add_argument("--output", choices=("text", "json"), default="text")
