"""The rule ids the App reports itself (not the engine), and the check's conclusions: names the
config file may set, shared by the config, its schema and the renderers."""
from __future__ import annotations

import enum

# `rules:` may set the severity of these.
SCHEMA_INVALID = "SCHEMA_INVALID"
SCHEMA_FILE_REMOVED = "SCHEMA_FILE_REMOVED"
DEPRECATION_WINDOW = "SCHEMA_DEPRECATION_WINDOW"
# Not configurable (the gate fails closed): a file whose review ran out of its time or memory,
# and a schema file that was not reviewed at all (too many, too large, binary, unreadable base,
# or beyond GitHub's file listing).
SCHEMA_REVIEW_BUDGET = "SCHEMA_REVIEW_BUDGET"
SCHEMA_NOT_REVIEWED = "SCHEMA_NOT_REVIEWED"
# Not configurable either: a type an added or changed file defines that another file of the head
# defines too (bot/review/duplicate_types.py); the second definition would be compared with nothing.
SCHEMA_IDENTITY_DUPLICATED = "SCHEMA_IDENTITY_DUPLICATED"
# Not configurable either: a change completing a migration (a deprecated field removed, an
# optional one made required) of a file with `consumers:`, judged by who confirmed they moved
# (bot/review/confirmations.py): an error before the window, a warning after, a note once all have.
CONSUMERS_MIGRATION = "SCHEMA_CONSUMERS_MIGRATION"
BOT_RULES = frozenset({SCHEMA_INVALID, SCHEMA_FILE_REMOVED, DEPRECATION_WINDOW})


class Conclusion(enum.StrEnum):
    """The check run's conclusion (the subset of GitHub's values this App uses)."""

    SUCCESS = "success"
    FAILURE = "failure"
    NEUTRAL = "neutral"
    CANCELLED = "cancelled"  # a superseded head: not a pass for branch protection, unlike neutral
