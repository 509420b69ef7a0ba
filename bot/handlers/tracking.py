"""A merged pull request: open one tracking issue per migration it starts in a file with
`consumers:`, and close the tracking issue of each migration it completes.

Idempotent: the App's own issues carry a sealed record naming their migration
(bot/overrides/confirmations.py), so a redelivered merge opens nothing twice and closes nothing
twice. Owners come only from the default branch's config.
"""
from __future__ import annotations

import logging

from bot.ambient.jobs import Job
from bot.config.configfile import ConfigError
from bot.handlers.confirmations import confirmations_of, tracking_issues
from bot.handlers.evaluate import evaluate, load_config, utc_now
from bot.overrides.confirmations import Tracked
from bot.render import tracking as render
from bot.review.confirmations import owners_of

log = logging.getLogger("schema_review.tracking")

# Issues opened per merge: GitHub's secondary limits count content creation, and a pull request
# deprecating hundreds of fields must not flood the repository. A migration left without an issue
# cannot be confirmed, so ending it early stays an error a maintainer may override.
MAX_OPENED = 25


def handle_merged(job: Job, *, github, now=utc_now) -> None:
    payload = job.payload
    merged = payload.get("pull_request") or {}
    repo = github.repo(payload["installation"]["id"], payload["repository"]["full_name"])
    try:
        config = load_config(repo, payload["repository"].get("default_branch") or "main")
    except ConfigError:
        return log.info("merge not tracked: the config is invalid", extra={"delivery": job.delivery_id})
    if not config.consumers or github.record_key is None:
        return  # no consumers, or no key to seal records with: not one call more
    pull = repo.pull(int(merged["number"]))
    result = evaluate(repo, pull, config, head_sha=pull.head.sha, now=now)
    started = [(file, m) for file in result.files if file.reviewed and owners_of(config, file)
               for m in file.migrations if m.new]
    ended = [m for file in result.files for m in file.ended]
    if not started and not ended:
        return
    tracked = tracking_issues(github, repo)
    url, opened = str(merged.get("html_url") or ""), 0
    for file, migration in started:
        known = tracked.get((file.path, migration.element))
        if known is not None and (known.open or known.pull == pull.number):
            continue  # tracked already (a redelivery, or a migration restarted while one is open)
        if opened >= MAX_OPENED:
            log.warning("tracking issues not opened: over the limit per merge",
                        extra={"repository": repo.full_name, "pull": pull.number})
            break
        opened += 1
        tracking = Tracked(file.path, migration.element, migration.kind.value, pull.number,
                           since=migration.since.isoformat() if migration.since else "",
                           due=migration.due.isoformat() if migration.due else "",
                           replacement=migration.replacement or "")
        record = tracking.marker(key=github.record_key, repository=repo.full_name)
        repo.create_issue(render.title(tracking), render.body(tracking, owners=owners_of(config, file),
                                                              confirmed_by={}, pull_url=url, record=record))
    for migration in ended:
        known = tracked.get((migration.file, migration.element))
        if known is not None and known.open:
            repo.comment(known.number, render.completed(known, pull=pull.number))
            repo.update_issue(known.number, closed=True)


def refreshed_body(github, repo, tracking: Tracked, owners) -> str:
    """The issue's body with its checklist as the confirmations now stand (record unchanged)."""
    pull_url = tracking.url.rsplit("/issues/", 1)[0] + f"/pull/{tracking.pull}"
    return render.body(tracking, owners=owners, confirmed_by=confirmations_of(github, repo, tracking),
                       pull_url=pull_url, record=tracking.marker(key=github.record_key, repository=repo.full_name))
