"""/schema-override and revoke: bound to the head its author saw, recorded in a sealed reply."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from bot.overrides.commands import Command as Parsed, Kind
from bot.config.config import Config
from bot.github.contributions import of_pull
from bot.overrides.verdict import Record, RecordKind, errors, in_scope, records_in
from bot.overrides.records import MARKER_PATTERN
from bot.overrides.permissions import decide, level, uninvolved
from bot.render.escape import code, quote
from bot.overrides.seen import Seen, parse_time, seen_at
from bot.handlers.confirmations import with_confirmations
from bot.handlers.evaluate import evaluate
from bot.handlers.pull_request import PushLog, review_head
from bot.handlers.target import Target

THUMBS_UP, THUMBS_DOWN, CONFUSED = "+1", "-1", "confused"
REFUSED = "@{user} I can't accept this override: {why}."
ACCEPTED = ("@{user} override accepted for {what}. The `schema-review` check now reflects it; "
            "`/schema-override revoke` withdraws it.{moved}\n\n{reason}")
MOVED = ("\n\nThe head moved since you wrote the command: it was {seen} then and is {sha} now. "
         "The override covers only breaking changes already present on {seen}; {count} added since "
         "are not covered (comment again to override them).")
WITHDRAWN = "\n\n_Withdrawn by @{user}'s `/schema-override revoke`._"
REVOKED = "@{user} overrides on this pull request are withdrawn; the check is being re-run."
UNKNOWN_SCOPE = ("@{user} nothing to override matches {items}. Name a rule ID or file path from "
                 "the failing `schema-review` check, or leave them out to cover every breaking change.")
NOTHING = "@{user} the head commit has no breaking change to override."
NOTHING_SEEN = ("@{user} the head moved since you wrote the command (it was {seen}, it is {sha} now), "
                "and none of its breaking changes were there when you wrote it. Comment again to "
                "override what is there now.")
UNKNOWN_HEAD = ("@{user} the head moved since you wrote the command, and I have no record of the "
                "commit you saw. Comment again to override what is there now ({sha}).")
EVERYTHING = "every breaking change ({count}) in {sha}"
SCOPED = "{count} breaking change(s) matching {items} in {sha}"
# A reason is echoed in the reply and kept in its record; both must stay far below GitHub's limit.
MAX_REASON = 2000
# The record lists what it covers (about 25 characters each once sealed): bounded, so the reply
# always fits GitHub's 65,536 characters.
MAX_COVERED = 1500
TOO_MANY = ("@{user} this would override {count:,} breaking changes at once, more than one record "
            "can hold ({limit:,}). Override by rule ID or file path in several commands, or fix "
            "some first.")


@dataclass(frozen=True)
class Command:
    """Where a command applies: the pull request, its author's comment as GitHub has it, config."""

    repo: object
    pull: object
    user: str
    comment: dict
    config: Config
    scope: str  # what the App's records are bound to (bot/overrides/records.py)
    target: Target
    # Fetches the comment again: still there, unedited? Asked once more right before recording.
    still_as_sent: Callable[[], bool] = lambda: True


def answer(repo, number: int, comment_id: int, reaction: str, reply: str) -> None:
    """One reaction and one reply per command, never more."""
    repo.react(comment_id, reaction)
    repo.comment(number, reply)


def handle_override(github, where: Command, command: Parsed, *, push_log: PushLog, now) -> None:
    """`push_log` reads the App's push log of a pull request (this one's, and for the check it
    completes, those of other pull requests with the same head)."""
    repo, pull, user, comment_id = where.repo, where.pull, where.user, where.comment["id"]
    pushes = push_log(f"{repo.full_name}#{pull.number}")
    allowed = decide(user, author=pull.user.login, policy=where.config.override,
                     permission=level(*repo.permission(user)), in_team=lambda team: repo.in_team(team, user))
    if allowed.allowed and command.kind is Kind.OVERRIDE:  # a revoke only makes the gate stricter
        # Whoever pushed the head(s) the override is bound to must be known; a later push it
        # does not cover may still be on its way.
        seen = seen_at(pushes, written=parse_time(where.comment["created_at"]), current=pull.head.sha)
        allowed = uninvolved(user, author=pull.user.login, policy=where.config.override,
                             contributions=lambda: of_pull(repo, pull, pushes, heads=seen.heads))
    if not allowed.allowed:
        return answer(repo, pull.number, comment_id, THUMBS_DOWN, REFUSED.format(user=user, why=allowed.reason))
    record = Record(kind=RecordKind.REVOKE, user=user, at=where.comment["created_at"],
                    comment=where.comment.get("html_url", ""))
    prepared = None
    if command.kind is Kind.REVOKE:
        reply = REVOKED.format(user=user)
    else:
        outcome = _override(github, where, command, pushes=pushes, now=now)
        if isinstance(outcome, Refusal):
            return answer(repo, pull.number, comment_id, CONFUSED, outcome.reply)
        record, reply, prepared = outcome.record, outcome.reply, outcome.prepared
    if not where.still_as_sent():
        return  # edited or deleted while the review ran: what it said then no longer counts
    # The reply carries the record: the audit trail, and the state the next review reads.
    marker = record.marker(key=github.record_key, scope=where.scope)
    answer(repo, pull.number, comment_id, THUMBS_UP, reply + "\n\n" + marker)
    if command.kind is Kind.REVOKE:
        _withdraw(github, repo, pull.number, scope=where.scope, user=user)
    review_head(github, where.target, now=now, prepared=prepared, pushes=push_log)


def _withdraw(github, repo, number: int, *, scope: str, user: str) -> None:
    """Strike the records of the overrides a revoke withdrew from the App's replies. An edited
    reply never counts again (bodies_by), so deleting the revoke reply brings nothing back."""
    login = github.bot_login()
    for comment in repo.issue_comments(number):
        if not (comment.is_bot and comment.login == login) or comment.edited:
            continue
        found = records_in([comment.body], key=github.record_key, scope=scope)
        if found and found[0].kind is RecordKind.OVERRIDE:
            repo.edit_comment(comment.id, MARKER_PATTERN.sub("", comment.body).rstrip()
                              + WITHDRAWN.format(user=user))


@dataclass(frozen=True)
class Accepted:
    record: Record
    reply: str
    prepared: tuple  # (pull, config, result): the head just reviewed, not fetched a second time


@dataclass(frozen=True)
class Refusal:
    reply: str


def _override(github, where: Command, command: Parsed, *, pushes, now) -> Accepted | Refusal:
    """What an override command amounts to on the head its author saw."""
    repo, pull, user, config = where.repo, where.pull, where.user, where.config
    sha = pull.head.sha
    seen = seen_at(pushes, written=parse_time(where.comment["created_at"]), current=sha)
    if not seen.known:
        return Refusal(UNKNOWN_HEAD.format(user=user, sha=code(sha[:7])))
    # What the check shows: the consumers' confirmations counted, so their errors can be overridden too.
    result = with_confirmations(github, repo, config, evaluate(repo, pull, config, head_sha=sha, now=now), now=now)
    breaking = errors(result)
    if not breaking:
        return Refusal(NOTHING.format(user=user))
    unknown = [s for s in command.scope if not any(in_scope((s,), p, f) for _fp, p, f in breaking)]
    if unknown:
        return Refusal(UNKNOWN_SCOPE.format(user=user, items=", ".join(code(s) for s in unknown)))
    chosen = [(fp, path, f) for fp, path, f in breaking if in_scope(command.scope, path, f)]
    if seen.moved:
        then = _seen_fingerprints(repo, pull, config, seen, now=now)
        chosen = [item for item in chosen if item[0] in then]
        if not chosen:
            return Refusal(NOTHING_SEEN.format(user=user, seen=code(seen.heads[-1][:7]), sha=code(sha[:7])))
    head = code(sha[:7])
    what = (SCOPED.format(count=len(chosen), items=", ".join(code(s) for s in command.scope), sha=head)
            if command.scope else EVERYTHING.format(count=len(chosen), sha=head))
    reason = command.reason if len(command.reason) <= MAX_REASON else command.reason[:MAX_REASON] + "…"
    fingerprints = tuple(dict.fromkeys(fp for fp, _p, _f in chosen))
    if len(fingerprints) > MAX_COVERED:
        return Refusal(TOO_MANY.format(user=user, count=len(fingerprints), limit=MAX_COVERED))
    record = Record(kind=RecordKind.OVERRIDE, user=user, at=where.comment["created_at"],
                    comment=where.comment.get("html_url", ""), reason=reason, scope=command.scope,
                    fingerprints=fingerprints, head=seen.heads[-1])
    moved = ""
    if seen.moved:
        left = len({fp for fp, _p, _f in breaking if in_scope(command.scope, _p, _f)} - set(fingerprints))
        moved = MOVED.format(seen=code(seen.heads[-1][:7]), sha=head, count=left)
    reply = ACCEPTED.format(user=user, what=what, moved=moved, reason=quote(reason))
    return Accepted(record, reply, (pull, config, result))


def _seen_fingerprints(repo, pull, config: Config, seen: Seen, *, now) -> set[str]:
    """Breaking changes every possibly-seen head had (a head no longer readable had none)."""
    common: set[str] | None = None
    for sha in seen.heads:
        found = {fp for fp, _p, _f in errors(evaluate(repo, pull, config, head_sha=sha, now=now))}
        common = found if common is None else common & found
    return common or set()
