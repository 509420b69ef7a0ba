"""Read the migrations' tracking issues and their confirmations, and let the gate judge with them
(bot/review/confirmations.py). Nothing is read unless a changed file has `consumers:` and a
migration in flight or ending; a repository without `consumers:` is never asked anything."""
from __future__ import annotations

from bot.config.config import Config
from bot.github.review_query import bodies_by
from bot.handlers.evaluate import utc_now
from bot.overrides.confirmations import Tracked, confirmed, tracked_in
from bot.review.confirmations import gate
from bot.review.result import result_of
from bot.review.review import ReviewResult


def with_confirmations(github, repo, config: Config, result: ReviewResult, *, now=utc_now) -> ReviewResult:
    if not config.consumers or github.record_key is None:
        return result
    wanted = {(m.file, m.element) for file in result.files for m in file.ended}
    wanted |= {(file.path, m.element) for file in result.files if config.consumers_of(file.path)
               for m in file.migrations}
    if not wanted:
        return result
    tracked = tracking_issues(github, repo)
    confirmations = {key: confirmations_of(github, repo, tracking)
                     for key, tracking in tracked.items() if key in wanted}
    return result_of(gate(result.files, config, tracked, confirmations, today=now().date()))


def tracking_issues(github, repo) -> dict[tuple[str, str], Tracked]:
    login = github.bot_login()
    return tracked_in(repo.own_issues(login), key=github.record_key, repository=repo.full_name, login=login)


def confirmations_of(github, repo, tracking: Tracked) -> dict[str, str]:
    bodies = bodies_by(repo.issue_comments(tracking.number), github.bot_login())
    return confirmed(bodies, key=github.record_key, repository=repo.full_name, number=tracking.number)
