"""The `schema-review` command: `check` and `docs` are the rule engine's, `review` the App's dry
run, `lifecycle` the migrations a repository has in flight."""
from __future__ import annotations

import sys
from typing import Sequence

USAGE = ("usage: schema-review {check,docs,review,lifecycle} ...\n"
         "  check OLD NEW ...   compare two schema versions (see `schema-review check --help`)\n"
         "  docs                render the rules reference\n"
         "  review [--repo DIR --base REF --head REF]\n"
         "                      review a local git change as the App reviews a pull request\n"
         "  lifecycle [--repo DIR] [--output text|json]\n"
         "                      list the migrations in flight: deprecations, double-writes,\n"
         "                      optional fields pending promotion to required\n")
BOT_COMMANDS = ("review", "lifecycle")
RULE_COMMANDS = ("check", "docs")


def load_config(path: str):
    """`check --config FILE`: the App's `.github/schema-review.yml` reader, for the rule engine
    (rules/ never imports bot/, so the command that owns both hands the parsed result over)."""
    from rules import SchemaError
    from rules.cli import Configured

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

    return Configured(classify=classify, options=config.options(),
                      import_roots=config.import_roots)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in RULE_COMMANDS:
        from rules.cli import main as rules_main
        return rules_main(args, prog="schema-review", load_config=load_config)
    if args and args[0] in BOT_COMMANDS:
        from bot.local.main import main as review_main
        return review_main(args, prog="schema-review")
    stream = sys.stdout if args[:1] in (["-h"], ["--help"]) else sys.stderr
    stream.write(USAGE)
    return 0 if stream is sys.stdout else 2


if __name__ == "__main__":
    sys.exit(main())
