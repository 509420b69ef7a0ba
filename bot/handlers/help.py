"""The text of `/schema-review help` and of the check run's "Override…" button."""
from __future__ import annotations

from bot.config.config import OverridePolicy
from bot.render.escape import code

HELP = """**schema-review commands** (comment on the pull request; the comment must start with the command)

| Command | Effect |
|---|---|
| `/schema-override <reason>` | Overrides every breaking change of the head commit: the `schema-review` check turns {conclusion}. |
| `/schema-override <RULE_ID or file path> ... -- <reason>` | Overrides only the named findings. |
| `/schema-override revoke` | Withdraws the overrides on this pull request; the check is judged again. |
| `/schema-review recheck` | Runs the review again on the head commit. |
| `/schema-review help` | Shows this help. |

**Who may override:** {who}. A reason of at least {minimum} characters (spaces and invisible
ones not counted) is required; it is recorded with
your name, the time and a link to your comment in the check's summary. An override covers the
breaking changes that were on the head when you wrote the comment, and follows them, not the
commit: a later push with the same findings stays overridden, a push that adds a new breaking change
fails again until that one is fixed or overridden too. Edited or deleted comments never count;
`recheck` runs at most once per {interval} seconds per pull request."""


def who_may(policy: OverridePolicy) -> str:
    parts = [f"people with at least `{policy.min_permission.value}` permission on the repository"]
    if policy.allow_users:
        # Code spans: naming them must not notify them (or a whole team) on every help reply.
        parts.append("the users " + ", ".join(code(u) for u in policy.allow_users))
    if policy.allow_teams:
        parts.append("members of " + ", ".join(code(t) for t in policy.allow_teams))
    text = " or ".join(parts)
    if not policy.allow_author:
        text += ", except on pull requests they opened themselves"
    if not policy.allow_committers:
        text += ", and never on a pull request with a commit they authored, committed or pushed"
    return text


def help_text(policy: OverridePolicy, *, recheck_interval: float = 60.0) -> str:
    return HELP.format(conclusion=policy.conclusion.value, who=who_may(policy),
                       minimum=policy.min_reason_length, interval=f"{recheck_interval:g}")
