"""The command line: `schema-review review|lifecycle|check`, the Action and the pre-commit hook,
reviewing a git checkout. May import gather, review, render, lifecycle, github (blob kinds), config."""
