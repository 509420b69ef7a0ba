"""A /schema- command on a pull request: who may ask, is the comment still as sent, then act."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable, Sequence

from bot.overrides.commands import Kind, parse
from bot.github.review_query import bodies_by
from bot.config.config import Permission
from bot.config.configfile import ConfigError
from bot.ambient.jobs import Job
from bot.overrides.verdict import Record, RecordKind, records_in
from bot.overrides.permissions import level
from bot.overrides.records import scope_of
from bot.render.escape import code
from bot.overrides.seen import parse_time
from bot.handlers.help import help_text
from bot.handlers.override import Command, answer, handle_override
from bot.handlers.evaluate import load_config, utc_now
from bot.handlers.pull_request import review_head
from bot.handlers.target import Target

log = logging.getLogger("schema_review.commands")

THUMBS_UP, CONFUSED, THROTTLED = "+1", "confused", "eyes"
SYNTAX_REPLY = "@{user} {problem}"
RECHECKING = "@{user} re-running the review of {sha}."
CONFIG_BROKEN = "@{user} `.github/schema-review.yml` on the default branch is invalid: {error}"
# Seconds between two `/schema-review recheck` runs on one pull request (SCHEMA_REVIEW_RECHECK_INTERVAL).
RECHECK_INTERVAL = 60.0


@dataclass(frozen=True)
class CommandContext:
    """What commands need from the App besides GitHub: its push log and its limits."""

    pushes: Callable[[str], Sequence[tuple[str, ...]]] = lambda pull: ()
    recheck_interval: float = RECHECK_INTERVAL


def handle_command(job: Job, *, github, context: CommandContext = CommandContext(), now=utc_now) -> None:
    payload = job.payload
    issue, sent = payload["issue"], payload["comment"]
    user, number = sent["user"]["login"], issue["number"]
    repo = github.repo(payload["installation"]["id"], payload["repository"]["full_name"])
    permission = level(*repo.permission(user))
    if permission is None or permission.rank < Permission.READ.rank:
        # No reply, no reaction: people who cannot read the repository get nothing out of the App.
        return log.info("command ignored: no read access", extra={"delivery": job.delivery_id})
    comment = repo.issue_comment(sent["id"])
    if not _as_sent(comment, sent, user):
        # Deleted or edited since it was sent: only what the comment says now, unedited, counts.
        return log.info("command ignored: comment deleted or edited", extra={"delivery": job.delivery_id})
    default_branch = payload["repository"].get("default_branch") or "main"
    try:
        config = load_config(repo, default_branch)
    except ConfigError as error:
        repo.comment(number, CONFIG_BROKEN.format(user=user, error=code(str(error))))
        return
    command = parse(comment.get("body") or "", min_reason_length=config.override.min_reason_length)
    if command is None:
        return
    log.info("command", extra={"delivery": job.delivery_id, "repository": repo.full_name,
                               "pull": number, "work": command.kind.value})
    if command.kind is Kind.INVALID:
        return answer(repo, number, sent["id"], CONFUSED, SYNTAX_REPLY.format(user=user, problem=command.problem))
    if command.kind is Kind.HELP:
        return answer(repo, number, sent["id"], THUMBS_UP, help_text(config.override, recheck_interval=context.recheck_interval))
    pull = repo.pull(number)
    target = Target(payload["installation"]["id"], repo.full_name, default_branch, pull.head.sha, number)
    where = Command(repo=repo, pull=pull, user=user, comment=comment, config=config,
                    scope=scope_of(repo.full_name, number), target=target,
                    still_as_sent=lambda: _as_sent(repo.issue_comment(sent["id"]), sent, user))
    if command.kind is Kind.RECHECK:
        return _recheck(github, where, interval=context.recheck_interval, now=now, pushes=context.pushes)
    handle_override(github, where, command, push_log=context.pushes, now=now)


def _as_sent(comment: dict | None, sent: dict, user: str) -> bool:
    """The comment still exists, by the same person, with the text the delivery carried, unedited."""
    if comment is None or (comment.get("user") or {}).get("login") != user:
        return False
    if comment.get("body") != sent.get("body"):
        return False
    return comment.get("updated_at") in (None, comment.get("created_at"))


def _recheck(github, where: Command, *, interval: float, now, pushes) -> None:
    """At most one review per `interval` seconds per pull request, however many ask for it."""
    written = parse_time(where.comment["created_at"])
    bodies = bodies_by(where.repo.issue_comments(where.pull.number), github.bot_login())
    earlier = [r for r in records_in(bodies, key=github.record_key, scope=where.scope)
               if r.kind is RecordKind.RECHECK]
    last = parse_time(earlier[-1].at) if earlier else None
    if written is not None and last is not None and (written - last).total_seconds() < interval:
        # A reaction only: a flood of rechecks must not turn into a flood of replies.
        where.repo.react(where.comment["id"], THROTTLED)
        return
    record = Record(kind=RecordKind.RECHECK, user=where.user, at=where.comment["created_at"],
                    comment=where.comment.get("html_url", ""))
    reply = RECHECKING.format(user=where.user, sha=where.pull.head.sha[:7])
    answer(where.repo, where.pull.number, where.comment["id"], THUMBS_UP,
           reply + "\n\n" + record.marker(key=github.record_key, scope=where.scope))
    review_head(github, where.target, now=now, pushes=pushes)
