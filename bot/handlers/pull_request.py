"""A review delivery: check run in progress -> collect -> review -> complete -> comments."""
from __future__ import annotations

import logging
import time
from datetime import datetime, timezone

from ..collect import collect
from ..config import CONFIG_PATH, Config, parse_config
from ..configfile import ConfigError
from ..jobs import Job
from ..publish import publish_comments
from ..render.model import Conclusion
from ..review import review
from .target import review_target

log = logging.getLogger("schema_review.review")

CONFIG_INVALID = "Invalid configuration in {path}"
NO_PULL = "No open pull request carries this commit"
NO_PULL_SUMMARY = "schema-review compares a pull request's head with its base; this commit has none."
COULD_NOT_FINISH = "schema-review could not finish: {reason}"
COULD_NOT_FINISH_SUMMARY = ("The review stopped before it could judge this commit, so this check "
                            "neither passes nor fails it. Re-run the check to try again.")


def handle_review(job: Job, *, github, now=lambda: datetime.now(timezone.utc)) -> None:
    target = review_target(job.event, job.payload)
    if target is None:
        log.warning("payload lacks installation, repository or head", extra={"delivery": job.delivery_id})
        return
    started = time.monotonic()
    repo = github.repo(target.installation_id, target.repository)
    run = repo.start_check_run(target.head_sha)
    try:
        conclusion = _review(repo, run, target, now=now)
    except Exception as error:
        # Never leave the check in progress: a required check that never completes blocks the merge.
        repo.complete_check_run(run, conclusion=Conclusion.NEUTRAL.value,
                                title=COULD_NOT_FINISH.format(reason=type(error).__name__)[:255],
                                summary=COULD_NOT_FINISH_SUMMARY, text=None, annotations=[])
        raise
    log.info("reviewed", extra={"delivery": job.delivery_id, "repository": target.repository,
                                "sha": target.head_sha, "conclusion": conclusion,
                                "duration_ms": round((time.monotonic() - started) * 1000)})


def _review(repo, run, target, *, now) -> str:
    if target.pull_number is None:
        repo.complete_check_run(run, conclusion=Conclusion.NEUTRAL.value, title=NO_PULL,
                                summary=NO_PULL_SUMMARY, text=None, annotations=[])
        return Conclusion.NEUTRAL.value
    try:
        # Read from the default branch: a pull request must not relax its own gate.
        config = parse_config(repo.file_text(target.default_branch, CONFIG_PATH))
    except ConfigError as error:
        repo.complete_check_run(run, conclusion=Conclusion.FAILURE.value,
                                title=CONFIG_INVALID.format(path=CONFIG_PATH), summary=f"`{error}`",
                                text=None, annotations=[])
        return Conclusion.FAILURE.value
    pull = repo.pull(target.pull_number)
    changes = collect(repo, pull, config, base_sha=pull.base.sha, head_sha=target.head_sha,
                      base_ref=pull.base.ref)
    result = review(changes, config, now=now())
    repo.complete_check_run(run, conclusion=result.conclusion.value, title=result.title,
                            summary=result.summary, text=result.text or None,
                            annotations=list(result.annotations))
    publish_comments(repo, pull, result, head_sha=target.head_sha)
    return result.conclusion.value


__all__ = ["handle_review", "Config"]
