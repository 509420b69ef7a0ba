"""`/schema-migrated` in a migration's tracking issue: a consumer says they have moved (or, with
`revoke`, that they have not after all).

Only the App's own tracking issues are answered, and a closed one (its migration completed or
undone) only to say so: a confirmation there counts for nothing. A confirmation counts for the
owners listed for the file in the default branch's config that the commenter answers for: their
own `@login`, or a team GitHub says they are an active member of. The App records it, sealed, in
its reply (an edited or pasted record counts for nothing), ticks the issue's checklist, and
re-runs the checks of the open pull requests that change the file.
"""
from __future__ import annotations

import logging

from github import GithubException

from bot.ambient.jobs import Job, Superseded
from bot.config.config import Permission
from bot.config.configfile import ConfigError
from bot.config.consumers import split_owner
from bot.handlers.comment import CONFIG_BROKEN, _as_sent
from bot.handlers.confirmations import confirmations_of
from bot.handlers.events import MIGRATED_COMMAND
from bot.handlers.evaluate import load_config, utc_now
from bot.handlers.override import answer
from bot.handlers.pull_request import review_head
from bot.handlers.target import Target
from bot.handlers.tracking import refreshed_body
from bot.overrides.confirmations import CONFIRMED, WITHDRAWN, Confirmation, Tracked, tracking_of
from bot.overrides.permissions import level
from bot.render import tracking as render
from bot.render.escape import code
from bot.review.confirmations import split

log = logging.getLogger("schema_review.migrated")

COMMAND = MIGRATED_COMMAND
THUMBS_UP, THUMBS_DOWN, CONFUSED = "+1", "-1", "confused"
# Open pull requests looked through for the tracking issue's file (the most recently updated first).
MAX_PULLS_RECHECKED = 30


def parse(body: str) -> str | None:
    """CONFIRMED, WITHDRAWN, or None when the comment is not a well-formed `/schema-migrated`."""
    words = (body or "").strip().split(None, 2)
    if not words or words[0] != COMMAND:
        return None
    if len(words) == 1:
        return CONFIRMED
    return WITHDRAWN if len(words) == 2 and words[1].lower() == "revoke" else None


def handle_migrated(job: Job, *, github, now=utc_now) -> None:
    payload = job.payload
    sent, number = payload["comment"], int(payload["issue"]["number"])
    user = sent["user"]["login"]
    repo = github.repo(payload["installation"]["id"], payload["repository"]["full_name"])
    if github.record_key is None:
        return
    login = github.bot_login()
    tracking = tracking_of(repo.issue(number), key=github.record_key, repository=repo.full_name, login=login)
    if tracking is None:
        return log.info("not a tracking issue", extra={"delivery": job.delivery_id})
    permission = level(*repo.permission(user))
    if permission is None or permission.rank < Permission.READ.rank:
        return log.info("command ignored: no read access", extra={"delivery": job.delivery_id})
    if not _as_sent(repo.issue_comment(sent["id"]), sent, user):
        return log.info("command ignored: comment deleted or edited", extra={"delivery": job.delivery_id})
    if not tracking.open:  # completed or undone: a confirmation here would count for nothing
        return answer(repo, number, sent["id"], CONFUSED, render.CLOSED.format(user=user))
    default_branch = payload["repository"].get("default_branch") or "main"
    try:
        config = load_config(repo, default_branch)
    except ConfigError as error:
        return repo.comment(number, CONFIG_BROKEN.format(user=user, error=code(str(error))))
    kind = parse(sent.get("body") or "")
    if kind is None:
        return answer(repo, number, sent["id"], CONFUSED, render.SYNTAX.format(user=user))
    owners = tuple(dict.fromkeys(o for c in config.consumers_of(tracking.file) for o in c.owners))
    standing = confirmations_of(github, repo, tracking)
    if kind == CONFIRMED:
        mine = tuple(o for o in owners if answers_for(repo, o, user))
        if not mine:
            return answer(repo, number, sent["id"], THUMBS_DOWN, render.REFUSED.format(
                user=user, file=code(tracking.file), owners=render.owners_list(owners)))
        _done, waiting = split(owners, {**standing, **dict.fromkeys(mine, user)})
        rest = render.STILL_WAITING.format(owners=render.owners_list(waiting)) if waiting else render.EVERYONE
        reply = render.ACCEPTED.format(user=user, owners=render.owners_list(mine), rest=rest)
    else:
        mine = tuple(o for o, who in standing.items() if who.lower() == user.lower())
        if not mine:
            return answer(repo, number, sent["id"], CONFUSED, render.NOTHING_TO_REVOKE.format(user=user))
        reply = render.REVOKED.format(user=user, owners=render.owners_list(mine))
    if not _as_sent(repo.issue_comment(sent["id"]), sent, user):
        return  # edited or deleted meanwhile: what it said then no longer counts
    record = Confirmation(kind, user, mine, sent.get("created_at") or "", sent.get("html_url") or "")
    answer(repo, number, sent["id"], THUMBS_UP,
           reply + "\n\n" + record.marker(key=github.record_key, repository=repo.full_name, number=number))
    repo.update_issue(number, body=refreshed_body(github, repo, tracking, owners))
    recheck(github, repo, tracking, installation=payload["installation"]["id"],
            default_branch=default_branch, now=now)


def answers_for(repo, owner: str, user: str) -> bool:
    """Whether `user` is the listed `@login`, or an active member of the listed `@org/team`
    (GitHub is asked; a team the App cannot see has no members it can vouch for)."""
    login, team = split_owner(owner)
    if team is None:
        return login.lower() == user.lower()
    try:
        return repo.in_team(f"{login}/{team}", user)
    except GithubException as error:
        if error.status != 403:
            raise
        return False  # another organisation's team, hidden from the App: no member it can vouch for


def recheck(github, repo, tracking: Tracked, *, installation: int, default_branch: str, now) -> None:
    """Review again the open pull requests that change the tracking issue's file. One that cannot
    be reviewed now keeps its check (review_head fails it closed) and does not undo the
    confirmation already recorded: the next push or `/schema-review recheck` reviews it."""
    for number, head in repo.open_pulls()[:MAX_PULLS_RECHECKED]:
        if not any(tracking.file in (f.filename, getattr(f, "previous_filename", None))
                   for f in repo.changed_files(number)):
            continue
        try:
            review_head(github, Target(installation, repo.full_name, default_branch, head, number), now=now)
        except (GithubException, Superseded) as error:
            log.warning("re-review after a confirmation failed", extra={
                "repository": repo.full_name, "pull": number, "error": type(error).__name__})
