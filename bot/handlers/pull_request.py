"""A review delivery: check run in progress -> collect -> review -> overrides -> complete -> comments."""
from __future__ import annotations

import logging
import time
from datetime import datetime, timezone

from ..collect import collect
from ..config import CONFIG_PATH, Config, parse_config
from ..configfile import ConfigError
from ..extends import with_base
from ..jobs import Job, is_final
from ..overrides import active, records_in, verdict
from ..permissions import decide, level
from ..publish import publish_comments
from ..records import scope_of
from ..render.escape import code
from ..render.model import Conclusion
from ..review import ReviewResult, review
from .target import Target, review_target

log = logging.getLogger("schema_review.review")

CONFIG_INVALID = "Invalid configuration in {path}"
NO_PULL = "No open pull request carries this commit"
NO_PULL_SUMMARY = "schema-review compares a pull request's head with its base; this commit has none."
COULD_NOT_FINISH = "schema-review could not finish: {reason}"
COULD_NOT_FINISH_SUMMARY = ("The review stopped before it could judge this commit, so this check "
                            "neither passes nor fails it. Re-run the check to try again.")
# Buttons cannot carry a reason, so this one only explains the command (label <= 20 characters).
OVERRIDE_ACTION = {"label": "Override…", "identifier": "override-help",
                   "description": "How to override, with a reason"}


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def handle_review(job: Job, *, github, now=utc_now) -> None:
    target = review_target(job.event, job.payload)
    if target is None:
        log.warning("payload lacks installation, repository or head", extra={"delivery": job.delivery_id})
        return
    started = time.monotonic()
    conclusion = review_head(github, target, now=now)
    log.info("reviewed", extra={"delivery": job.delivery_id, "repository": target.repository,
                                "sha": target.head_sha, "conclusion": conclusion,
                                "duration_ms": round((time.monotonic() - started) * 1000)})


def review_head(github, target: Target, *, now=utc_now, prepared: tuple | None = None) -> str:
    """Put the head's schema-review check in progress and complete it with a verdict.

    `prepared` is (pull, config, result) when the caller has just reviewed this head itself
    (a /schema-override command): the files are not fetched and checked a second time.
    """
    repo = github.repo(target.installation_id, target.repository)
    run = repo.start_check_run(target.head_sha)
    try:
        if prepared is not None:
            return _conclude(github, repo, run, target, *prepared)
        return _review(github, repo, run, target, now=now)
    except Exception as error:
        if not is_final(error):
            raise  # the queue runs the job again; the check stays in progress meanwhile
        # Never leave the check in progress: a required check that never completes blocks the merge.
        repo.complete_check_run(run, conclusion=Conclusion.NEUTRAL.value,
                                title=COULD_NOT_FINISH.format(reason=type(error).__name__)[:255],
                                summary=COULD_NOT_FINISH_SUMMARY, text=None, annotations=[])
        raise


def load_config(repo, default_branch: str) -> Config:
    """The default branch's config: a pull request must not relax its own gate. Raises ConfigError."""
    return parse_config(repo.file_text(default_branch, CONFIG_PATH), extend=lambda root: with_base(
        root, owner=repo.owner, name=repo.name, path=CONFIG_PATH,
        read_base=lambda full_name: repo.shared_file_text(full_name, CONFIG_PATH)))


def evaluate(repo, pull, config: Config, *, head_sha: str, now=utc_now) -> ReviewResult:
    changes = collect(repo, pull, config, base_sha=pull.base.sha, head_sha=head_sha, base_ref=pull.base.ref)
    return review(changes, config, now=now())


def current_overrides(github, repo, pull, config: Config) -> list:
    """Accepted overrides recorded in the App's own comments, re-checked against permission."""
    login = github.bot_login()
    bodies = [c.body for c in repo.issue_comments(pull.number)
              if c.user is not None and c.user.type == "Bot" and c.user.login == login]
    cache: dict[str, bool] = {}

    def still_allowed(user: str) -> bool:
        if user not in cache:
            cache[user] = decide(user, author=pull.user.login, policy=config.override,
                                 permission=level(*repo.permission(user)),
                                 in_team=lambda team: repo.in_team(team, user)).allowed
        return cache[user]

    # Only records sealed with the App's key for this very pull request count (bot/records.py).
    scope = scope_of(repo.full_name, pull.number)
    return active(records_in(bodies, key=github.record_key, scope=scope), still_allowed=still_allowed)


def _review(github, repo, run, target: Target, *, now) -> str:
    if target.pull_number is None:
        repo.complete_check_run(run, conclusion=Conclusion.NEUTRAL.value, title=NO_PULL,
                                summary=NO_PULL_SUMMARY, text=None, annotations=[])
        return Conclusion.NEUTRAL.value
    try:
        config = load_config(repo, target.default_branch)
    except ConfigError as error:
        repo.complete_check_run(run, conclusion=Conclusion.FAILURE.value,
                                title=CONFIG_INVALID.format(path=CONFIG_PATH), summary=code(str(error)),
                                text=None, annotations=[])
        return Conclusion.FAILURE.value
    pull = repo.pull(target.pull_number)
    result = evaluate(repo, pull, config, head_sha=target.head_sha, now=now)
    return _conclude(github, repo, run, target, pull, config, result)


def _conclude(github, repo, run, target: Target, pull, config: Config, result: ReviewResult) -> str:
    """Apply the overrides, complete the check run, and post what is new."""
    conclusion, title, summary = result.conclusion, result.title, result.summary
    if conclusion is Conclusion.FAILURE:  # only a failing verdict has anything to override
        overrides = current_overrides(github, repo, pull, config)
        conclusion, title, summary = verdict(result, overrides, conclusion=config.override.conclusion)
    repo.complete_check_run(run, conclusion=conclusion.value, title=title, summary=summary,
                            text=result.text or None, annotations=list(result.annotations),
                            actions=[OVERRIDE_ACTION] if conclusion is Conclusion.FAILURE else [])
    publish_comments(repo, pull, result, head_sha=target.head_sha, bot_login=github.bot_login())
    return conclusion.value


__all__ = ["handle_review", "review_head", "evaluate", "load_config", "current_overrides"]
