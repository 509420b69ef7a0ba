"""Plain sentences about a finding: how bad it is, what breaks and for whom, what to do."""
from __future__ import annotations

from functools import lru_cache

from rules import Direction, Finding, Mode, Severity, all_specs

from bot.config.config import (CONSUMERS_MIGRATION, DEPRECATION_WINDOW, SCHEMA_FILE_REMOVED, SCHEMA_IDENTITY_DUPLICATED,
                               SCHEMA_INVALID, SCHEMA_NOT_REVIEWED, SCHEMA_REVIEW_BUDGET)
from bot.render.escape import code

LABELS = {Severity.ERROR: "Breaking change", Severity.WARNING: "Warning", Severity.INFO: "Note"}
# Who reads what, per direction: an error says they cannot; a warning (a break the rule could
# not confirm, one that loses values rather than fails, or a rule configured down to a warning)
# says they may, never "cannot read".
READERS = {
    Direction.BACKWARD: ("readers upgraded to the new schema", "the old one",
                         " (records already stored, messages still in flight)"),
    Direction.FORWARD: ("readers still on the old schema", "the new one",
                        " (consumers that have not been upgraded yet)"),
}
BREAKS = {direction: f"{who} cannot read data written with {other}{context}"
          for direction, (who, other, context) in READERS.items()}
MAY_BREAK = {direction: f"{who} may reject or misread some data written with {other}"
             for direction, (who, other, _context) in READERS.items()}
WHAT_BREAKS = "**What breaks:** {who}. {mode_note}"
WHAT_MAY_BREAK = "**What may break** (in the case the message above describes): {who}. {mode_note}"
MODE_WARNS = ("This is a warning, not a breaking change: the `{mode}` mode configured for this "
              "file does not fail the check on it.")
MODE_REQUIRES = "The `{mode}` mode configured for this file requires {required}."
FOUND_AGAINST = " Found against version {against} of the base branch, not the base itself."
MODE_IGNORES = ("The `{mode}` mode configured for this file does not require {direction} "
                "compatibility, so this is only a note.")
REQUIRED = {Mode.BACKWARD: "backward compatibility", Mode.FORWARD: "forward compatibility",
            Mode.FULL: "both backward and forward compatibility"}
TRANSITIVE = " against the last versions on the base branch too"
ADVISORY = ("**What breaks:** nothing by itself; this is advice that keeps future changes "
            "safe.")
NO_FIX = ("**What to do:** change the schema so the finding goes away, or, if every reader and "
          "writer is upgraded together, have a maintainer accept it with "
          "`/schema-override <reason>`.")
FIX = "**Fix:** {title}"
UNCHECKED = "**What breaks:** unknown: the file was not checked, so this check cannot pass on it."
# The bot's own rules are not about a reader/writer direction; they say who is hurt directly.
OWN_RULES = {
    SCHEMA_INVALID: ("**What breaks:** everything that loads this file: code generation, schema "
                     "registration and every reader and writer built from it."),
    SCHEMA_FILE_REMOVED: ("**What breaks:** every reader and writer that still loads this schema; "
                          "data written with it can no longer be decoded from this repository."),
    DEPRECATION_WINDOW: ("**What breaks:** consumers that were told the field would go but have "
                         "not had the full deprecation window to stop reading it."),
    SCHEMA_REVIEW_BUDGET: UNCHECKED,
    SCHEMA_NOT_REVIEWED: UNCHECKED,
    CONSUMERS_MIGRATION: ("**What breaks:** the consumers named, who have not confirmed in the "
                          "migration's tracking issue that they no longer read the old element."),
    SCHEMA_IDENTITY_DUPLICATED: ("**What breaks:** unknown: the second definition of the type was "
                                 "compared with nothing, and readers resolving the name may get "
                                 "either one."),
}
OWN_ADVICE = {
    CONSUMERS_MIGRATION: ("**What to do:** wait until each consumer named has commented "
                          "`/schema-migrated` in the tracking issue (the check runs again then), "
                          "or have a maintainer accept it with `/schema-override <reason>`."),
    SCHEMA_INVALID: "**What to do:** correct the schema at the line shown; nothing else was checked.",
    SCHEMA_FILE_REMOVED: ("**What to do:** keep the file until nothing reads or writes it, or "
                          "move it (a rename is not a removal)."),
    DEPRECATION_WINDOW: ("**What to do:** keep the field, deprecated, until the window has "
                         "passed, then delete it and reserve it."),
    SCHEMA_REVIEW_BUDGET: ("**What to do:** simplify the schema (patterns that backtrack, such as "
                           "`(a+)+`, are the usual cause), or have a maintainer accept it with "
                           "`/schema-override <reason>`."),
    SCHEMA_IDENTITY_DUPLICATED: ("**What to do:** define the type in one file only (to move it, "
                                 "remove it from the other), or give the new one another name."),
    SCHEMA_NOT_REVIEWED: ("**What to do:** split the pull request, or bring the file within the "
                          "limits shown; or have a maintainer accept it unreviewed with "
                          "`/schema-override <reason>`."),
}


def label(severity: Severity) -> str:
    return LABELS[severity]


def what_breaks(finding: Finding, *, mode: Mode, transitive: bool = False) -> str:
    """Who is hurt by the change, in the directions the file's mode checks."""
    if finding.rule in OWN_RULES:
        return OWN_RULES[finding.rule]
    breaks = finding.breaks or frozenset()
    impact = _impacts().get(finding.rule)
    warned = finding.severity is Severity.WARNING and bool(breaks & mode.directions)
    name = mode.value + ("_transitive" if transitive else "")
    if impact:  # the rule's own account: its harm is not a plain read failure
        if warned:
            return WHAT_MAY_BREAK.format(who=impact[0].upper() + impact[1:].rstrip("."),
                                         mode_note=MODE_WARNS.format(mode=name))
        checked = breaks & mode.directions
        note = MODE_REQUIRES.format(mode=mode.value, required=REQUIRED[mode]) if checked else ""
        return WHAT_BREAKS.format(who=impact[0].upper() + impact[1:], mode_note=note).rstrip()
    if not breaks:
        return ADVISORY
    checked = sorted(breaks & mode.directions, key=lambda d: d.value)
    if warned:
        who = "; and ".join(MAY_BREAK[d] for d in checked)
        return WHAT_MAY_BREAK.format(who=who[0].upper() + who[1:],
                                     mode_note=MODE_WARNS.format(mode=name))
    if not checked:
        direction = sorted(breaks, key=lambda d: d.value)[0]
        who = BREAKS[direction]
        return WHAT_BREAKS.format(who=who[0].upper() + who[1:],
                                  mode_note=MODE_IGNORES.format(mode=mode.value,
                                                                direction=direction.value))
    who = "; and ".join(BREAKS[d] for d in checked)
    required = REQUIRED[mode] + (TRANSITIVE if transitive else "")
    found = FOUND_AGAINST.format(against=code(finding.against)) if finding.against else ""
    return WHAT_BREAKS.format(who=who[0].upper() + who[1:],
                              mode_note=MODE_REQUIRES.format(mode=name, required=required) + found)


@lru_cache(maxsize=1)
def _impacts() -> dict[str, str]:
    return {rule: spec.impact for rule, spec in all_specs().items() if spec.impact}


def what_to_do(finding: Finding) -> str:
    """Advice for a finding without a mechanical fix; empty when none is needed."""
    if finding.rule in OWN_ADVICE:
        return OWN_ADVICE[finding.rule]
    return NO_FIX if finding.severity is Severity.ERROR else ""
