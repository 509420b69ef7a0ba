"""A /schema- command on a pull request: parse, check permission, record, re-run the verdict."""
from __future__ import annotations

import logging

from ..commands import Kind, parse
from ..configfile import ConfigError
from ..jobs import Job
from ..overrides import Record, RecordKind, errors, in_scope
from ..permissions import decide, level
from .help import help_text
from .pull_request import evaluate, load_config, review_head, utc_now
from .target import Target

log = logging.getLogger("schema_review.commands")

THUMBS_UP, THUMBS_DOWN, CONFUSED = "+1", "-1", "confused"
REFUSED = "@{user} I can't accept this override: {why}."
ACCEPTED = ("@{user} override accepted for {what}. The `schema-review` check now reflects it; "
            "`/schema-override revoke` withdraws it.\n\n> {reason}")
REVOKED = "@{user} overrides on this pull request are withdrawn; the check is being re-run."
UNKNOWN_SCOPE = ("@{user} nothing to override matches {items}. Name a rule ID or file path from "
                 "the failing `schema-review` check, or leave them out to cover every breaking change.")
NOTHING = "@{user} the head commit has no breaking change to override."
SYNTAX_REPLY = "@{user} {problem}"
RECHECKING = "@{user} re-running the review of {sha}."
CONFIG_BROKEN = "@{user} `.github/schema-review.yml` on the default branch is invalid: `{error}`"
EVERYTHING = "every breaking change ({count}) in {sha}"
SCOPED = "{count} breaking change(s) matching {items} in {sha}"


def handle_command(job: Job, *, github, now=utc_now) -> None:
    payload = job.payload
    issue, comment = payload["issue"], payload["comment"]
    user, number = comment["user"]["login"], issue["number"]
    repo = github.repo(payload["installation"]["id"], payload["repository"]["full_name"])
    default_branch = payload["repository"].get("default_branch") or "main"
    try:
        config = load_config(repo, default_branch)
    except ConfigError as error:
        repo.comment(number, CONFIG_BROKEN.format(user=user, error=error))
        return
    command = parse(comment.get("body", ""), min_reason_length=config.override.min_reason_length)
    if command is None:
        return
    log.info("command", extra={"delivery": job.delivery_id, "repository": repo.full_name,
                               "pull": number, "work": command.kind.value})
    if command.kind is Kind.INVALID:
        return _answer(repo, number, comment["id"], CONFUSED, SYNTAX_REPLY.format(user=user, problem=command.problem))
    if command.kind is Kind.HELP:
        return _answer(repo, number, comment["id"], THUMBS_UP, help_text(config.override))
    pull = repo.pull(number)
    target = Target(payload["installation"]["id"], repo.full_name, default_branch, pull.head.sha, number)
    if command.kind is Kind.RECHECK:
        _answer(repo, number, comment["id"], THUMBS_UP, RECHECKING.format(user=user, sha=pull.head.sha[:7]))
        review_head(github, target, now=now)
        return
    allowed = decide(user, author=pull.user.login, policy=config.override,
                     permission=level(*repo.permission(user)), in_team=lambda team: repo.in_team(team, user))
    if not allowed.allowed:
        return _answer(repo, number, comment["id"], THUMBS_DOWN, REFUSED.format(user=user, why=allowed.reason))
    record = Record(kind=RecordKind.REVOKE, user=user, at=now().strftime("%Y-%m-%d %H:%M UTC"),
                    comment=comment.get("html_url", ""))
    prepared = None
    if command.kind is Kind.REVOKE:
        reply = REVOKED.format(user=user)
    else:
        result = evaluate(repo, pull, config, head_sha=pull.head.sha, now=now)
        breaking = errors(result)
        chosen = [(fp, path, f) for fp, path, f in breaking if in_scope(command.scope, path, f)]
        unknown = [s for s in command.scope if not any(in_scope((s,), p, f) for _fp, p, f in breaking)]
        if not breaking:
            return _answer(repo, number, comment["id"], CONFUSED, NOTHING.format(user=user))
        if unknown:
            items = ", ".join(f"`{s}`" for s in unknown)
            return _answer(repo, number, comment["id"], CONFUSED, UNKNOWN_SCOPE.format(user=user, items=items))
        what = (SCOPED.format(count=len(chosen), items=", ".join(f"`{s}`" for s in command.scope), sha=pull.head.sha[:7])
                if command.scope else EVERYTHING.format(count=len(chosen), sha=pull.head.sha[:7]))
        record = Record(kind=RecordKind.OVERRIDE, user=user, at=record.at, comment=record.comment,
                        reason=command.reason, scope=command.scope,
                        fingerprints=tuple(dict.fromkeys(fp for fp, _p, _f in chosen)))
        reply = ACCEPTED.format(user=user, what=what, reason=command.reason.replace("\n", "\n> "))
        prepared = (pull, config, result)
    # The reply carries the record: it is the audit trail and the state the next review reads.
    _answer(repo, number, comment["id"], THUMBS_UP, reply + "\n\n" + record.marker())
    review_head(github, target, now=now, prepared=prepared)


def _answer(repo, number: int, comment_id: int, reaction: str, reply: str) -> None:
    repo.react(comment_id, reaction)
    repo.comment(number, reply)
