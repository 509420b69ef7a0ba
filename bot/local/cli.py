"""The `schema-review` command: `check` and `docs` are the rule engine's, `review` the App's dry
run, `lifecycle` the migrations a repository has in flight. One parser holds every command, so a
mistyped command or flag is answered with argparse's error and a usage that lists them all."""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from rules import cli as rules_cli

from bot.local import arguments

PROG = "schema-review"
DESCRIPTION = ("Review changes to Avro, Protobuf and JSON Schema contracts: compare two versions "
               "(check), review a git change as the GitHub App does (review), list the "
               "migrations in flight (lifecycle), or render the rules reference (docs).")
RULE_COMMANDS = ("check", "docs")


def load_config(path: str):
    """`check --config FILE`: the App's `.github/schema-review.yml` reader, for the rule engine
    (rules/ never imports bot/, so the command that owns both hands the parsed result over)."""
    from rules import SchemaError

    from bot.config.config import ConfigError, parse_config
    from bot.config.extends import no_base_here

    try:
        with open(path, encoding="utf-8") as handle:
            config = parse_config(handle.read(), file=path, extend=no_base_here)
    except OSError as error:
        raise SchemaError(path, None, f"cannot read file: {error.strerror or error}") from None
    except ConfigError as error:
        raise SchemaError(path, error.line, f"{error.key}: {error.problem}" if error.key
                          else error.problem) from None

    def classify(path: str):
        how = config.classify(path)
        return None if how is None else (how.format, how.mode)

    return rules_cli.Configured(classify=classify, options=config.options(),
                                import_roots=config.import_roots)


class _Version(argparse.Action):
    """`--version`: read only when asked (the package metadata costs every other run 25 ms)."""

    def __init__(self, option_strings, dest, **_kwargs):
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        from bot.local.version import version

        sys.stdout.write(f"{parser.prog} {version()}\n")
        parser.exit()


def _parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The command's parser, and each subcommand's (whose errors show that command's usage)."""
    parser = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION,
                                     formatter_class=rules_cli.help_formatter)
    parser.add_argument("--version", action=_Version)
    commands = parser.add_subparsers(dest="command", required=True)
    rules_cli.add_commands(commands)
    arguments.add_commands(commands)
    return parser, commands.choices


def main(argv: Sequence[str] | None = None) -> int:
    parser, commands = _parser()
    args = parser.parse_args(argv)
    if args.command in RULE_COMMANDS:
        return rules_cli.run(args, load_config=load_config)
    from bot.local.main import run  # the review's imports, only for the commands that use them
    return run(args, usage_error=commands[args.command].error)


if __name__ == "__main__":
    sys.exit(main())
