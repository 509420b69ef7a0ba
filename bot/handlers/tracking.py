"""A merged pull request: open one tracking issue per migration it starts in a file with
`consumers:`, and close the tracking issue of each migration it completes or undoes.

A migration is one run: an element un-deprecated (or removed) and deprecated again is a new
migration, with a new issue, since consumers may have gone back to the old shape meanwhile; the
earlier issue is closed saying its confirmations no longer count (the gate ignores them anyway,
bot/review/confirmations.py). Idempotent: the App's own issues carry a sealed record naming their
migration (bot/overrides/confirmations.py), so a redelivered merge opens nothing twice and
closes nothing twice. Owners come only from the default branch's config.
"""
from __future__ import annotations

import logging
from typing import Callable

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
    undone = [(file.base_path, element) for file in result.files for element in file.withdrawn]
    if not started and not ended and not undone:
        return
    tracked = tracking_issues(github, repo)
    url, opened = str(merged.get("html_url") or ""), 0
    for key in undone:
        _close(repo, tracked.get(key), render.withdrawn, pull=pull.number)
    for file, migration in started:
        known = tracked.get((file.path, migration.element))
        if known is not None and known.pull == pull.number:
            continue  # tracked already: a redelivery
        if opened >= MAX_OPENED:
            log.warning("tracking issues not opened: over the limit per merge",
                        extra={"repository": repo.full_name, "pull": pull.number})
            break
        # An issue still open is an earlier run's, undone where the App did not see it (a push, a
        # merge while the config was broken). Closed before the new one is opened: a redelivery
        # after a failure in between still opens it.
        _close(repo, known, render.restarted, pull=pull.number)
        opened += 1
        tracking = Tracked(file.path, migration.element, migration.kind.value, pull.number,
                           since=migration.since.isoformat() if migration.since else "",
                           due=migration.due.isoformat() if migration.due else "",
                           replacement=migration.replacement or "",
                           started=str(merged.get("merged_at") or now().isoformat()))
        record = tracking.marker(key=github.record_key, repository=repo.full_name)
        repo.create_issue(render.title(tracking), render.body(tracking, owners=owners_of(config, file),
                                                              confirmed_by={}, pull_url=url, record=record))
    for migration in ended:
        _close(repo, tracked.get((migration.file, migration.element)), render.completed, pull=pull.number,
               reason="completed")


def _close(repo, known: Tracked | None, said: Callable[..., str], *, pull: int,
           reason: str = "not_planned") -> None:
    """Close an open tracking issue, saying why (`said(issue, pull=pull)`); once: a redelivery
    finds it closed. A migration undone is "not planned", one completed "completed"."""
    if known is not None and known.open:
        repo.comment(known.number, said(known, pull=pull))
        repo.update_issue(known.number, closed=True, reason=reason)


def refreshed_body(github, repo, tracking: Tracked, owners) -> str:
    """The issue's body with its checklist as the confirmations now stand (record unchanged)."""
    pull_url = tracking.url.rsplit("/issues/", 1)[0] + f"/pull/{tracking.pull}"
    return render.body(tracking, owners=owners, confirmed_by=confirmations_of(github, repo, tracking),
                       pull_url=pull_url, record=tracking.marker(key=github.record_key, repository=repo.full_name))
