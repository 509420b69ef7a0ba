"""A review delivery: check run in progress -> evaluate (gather, review) -> overrides -> complete -> comments."""
from __future__ import annotations

import logging
import time
from typing import Callable, Sequence

from bot.gather.changes import blob_keys, schema_files, uses_unreviewed
from bot.config.config import CONFIG_PATH, Config
from bot.config.configfile import ConfigError
from bot.github.checks import LOOK_UP, Verdict
from bot.ambient.jobs import Job, Superseded, is_final, is_first_attempt
from bot.overrides.verdict import records_in, since_revoke, verdict
from bot.overrides.permissions import decide, level, uninvolved
from bot.handlers.confirmations import with_confirmations
from bot.github.contributions import of_pull
from bot.handlers.consumers import notify_consumers
from bot.handlers.publish import publish_comments
from bot.overrides.records import scope_of
from bot.ambient.stages import recording, stage
from bot.render.escape import code
from bot.render.model import Conclusion
from bot.review.review import ReviewResult
from bot.github.review_query import ReviewState, bodies_by
from bot.handlers.evaluate import config_from, config_ref, evaluate, evaluate_group, load_config, utc_now
from bot.handlers.target import Target, review_target

log = logging.getLogger("schema_review.review")

CONFIG_INVALID = "Invalid configuration in {path}"
NO_PULL = "No open pull request carries this commit"
NO_PULL_SUMMARY = "schema-review compares a pull request's head with its base; this commit has none."
COULD_NOT_FINISH = "schema-review could not finish: {reason}"
COULD_NOT_FINISH_SUMMARY = ("The review stopped before it could judge this commit, so the gate "
                            "fails closed: a commit that was not reviewed does not pass. Re-run "
                            "the check, or comment `/schema-review recheck`, to try again.")
SIBLING_FAILS = "#{number} (into {base}) with this head: {title}"
SIBLING_NOTE = ("> This commit is also the head of pull request #{number} into {base}, which fails "
                "this check; the check belongs to the commit, so it fails for every pull request "
                "with this head. What #{number} breaks:\n\n")
SUPERSEDED = "Superseded by a newer push"
SUPERSEDED_SUMMARY = ("A newer commit became the pull request's head before this one was reviewed; "
                      "the `schema-review` check on that commit is the one that gates the merge. "
                      "Re-run this check to review this commit anyway.")
STANDS = " (a later re-review could not finish"
VERDICT_STANDS = "{title}" + STANDS + ": {reason})"
STANDS_NOTE = "> A later re-review of this commit could not finish"
VERDICT_STANDS_NOTE = STANDS_NOTE + (" ({reason}); the verdict below, from the last review that "
                                     "did, stands.\n\n")
# Buttons cannot carry a reason, so this one only explains the command (label <= 20 characters).
# The App's push log of a pull request ("owner/name#number"), bot/github/pushers.py. Without one,
# no head is explained and every override needing an uninvolved overrider stops counting.
PushLog = Callable[[str], Sequence[tuple[str, ...]]]
NO_PUSH_LOG: PushLog = lambda pull: ()  # noqa: E731
OVERRIDE_ACTION = {"label": "Override…", "identifier": "override-help",
                   "description": "How to override, with a reason"}


def handle_review(job: Job, *, github, now=utc_now, pushes: PushLog = NO_PUSH_LOG) -> None:
    target = review_target(job.event, job.payload)
    if target is None:
        log.warning("payload lacks installation, repository or head", extra={"delivery": job.delivery_id})
        return
    started = time.monotonic()
    with recording() as stages:
        conclusion = review_head(github, target, now=now, pushes=pushes)
    log.info("reviewed", extra={"delivery": job.delivery_id, "repository": target.repository,
                                "sha": target.head_sha, "conclusion": conclusion,
                                "duration_ms": round((time.monotonic() - started) * 1000),
                                "stages": stages})


def review_head(github, target: Target, *, now=utc_now, prepared: tuple | None = None,
                pushes: PushLog = NO_PUSH_LOG) -> str:
    """Put the head's schema-review check in progress and complete it with a verdict.

    `prepared` is (pull, config, result) when the caller has just reviewed this head itself
    (a /schema-override command), consumers' confirmations counted: the files are not fetched
    and checked a second time. `pushes` reads the push log, which says who pushed what (an
    overrider must not have).
    """
    repo = github.repo(target.installation_id, target.repository)
    check = _Check(repo, target.head_sha)
    try:
        if prepared is not None:
            run, _before = check.start()
            return _conclude(github, repo, run, target, *prepared, gated=True, pushes=pushes)
        if target.pull_number is not None and target.group_base is None:
            return _review_pull(github, repo, check, target, now=now, pushes=pushes)
        run, before = check.start()
        return _review(github, repo, run, before, target, now=now, pushes=pushes)
    except Exception as error:
        if not is_final(error):
            raise  # the queue runs the job again; the check stays in progress meanwhile
        if isinstance(error, Superseded) and not check.started and (
                is_first_attempt() or not _in_progress(repo, target.head_sha)):
            raise  # replaced before its review put a check on it: the newer head's check gates
        # Never leave the check in progress, and never let an error pass the gate.
        run, before = check.start()
        if isinstance(error, Superseded) and not _failed(before):
            # A newer push is the pull request's head now. `cancelled`, never `neutral`: should
            # this commit be the head after all, it must not pass unreviewed.
            repo.complete_check_run(run, conclusion=Conclusion.CANCELLED.value, title=SUPERSEDED,
                                    summary=SUPERSEDED_SUMMARY, text=None, annotations=[])
        else:
            fail_closed(repo, run, before, reason=type(error).__name__)
        raise


class _Check:
    """The head's check run, set in progress once: by the review state query's knowledge of it,
    or (before that query, or without it) by looking it up."""

    def __init__(self, repo, head_sha: str):
        self._repo, self._head_sha, self._started = repo, head_sha, None

    @property
    def started(self) -> bool:
        return self._started is not None

    def start(self, known=LOOK_UP) -> tuple:
        if self._started is None:
            self._started = self._repo.start_check_run(self._head_sha, known=known)
        return self._started


def _in_progress(repo, head_sha: str) -> bool:
    """The head's check is in progress: an earlier attempt of this job started it and failed."""
    found = repo.find_check_run(head_sha)
    return found is not None and found.status != "completed"


def _failed(before: Verdict | None) -> bool:
    return before is not None and before.conclusion == Conclusion.FAILURE.value


def fail_closed(repo, run, before: Verdict | None, *, reason: str) -> str:
    """Complete a check whose review could not finish: the last real failure stands (an error
    never downgrades it); otherwise `failure`, since what was not reviewed does not pass."""
    if _failed(before):
        # Restated, not stacked: a second failed re-run replaces the first one's note.
        title = before.title.split(STANDS)[0]
        summary = before.summary
        if summary.startswith(STANDS_NOTE):
            summary = summary.partition("\n\n")[2]
        repo.complete_check_run(run, conclusion=before.conclusion,
                                title=VERDICT_STANDS.format(title=title, reason=reason),
                                summary=VERDICT_STANDS_NOTE.format(reason=reason) + summary,
                                text=before.text, annotations=[])
    else:
        repo.complete_check_run(run, conclusion=Conclusion.FAILURE.value,
                                title=COULD_NOT_FINISH.format(reason=reason),
                                summary=COULD_NOT_FINISH_SUMMARY, text=None, annotations=[])
    return Conclusion.FAILURE.value


def current_overrides(github, repo, pull, config: Config, *, conversation=None,
                      pushes: PushLog = NO_PUSH_LOG) -> tuple[list, list]:
    """Accepted overrides recorded in the App's own comments, re-checked against permission and
    against involvement: an overrider who has since pushed to or committed in the pull request
    no longer counts (`override.allow_committers` aside), as when the override was given.
    (counted records, [(record, why)] of those that no longer count). `conversation` is the
    pull request's comments when the review state query has them."""
    if conversation is None:
        conversation = repo.issue_comments(pull.number)
    bodies = bodies_by(conversation, github.bot_login())
    cache: dict[str, str] = {}  # why a user may no longer override; "" when they may
    found: list = []  # the pull request's contributions, asked for once and only if needed

    def contributions():
        if not found:
            found.append(of_pull(repo, pull, pushes(f"{repo.full_name}#{pull.number}")))
        return found[0]

    def why_not(user: str) -> str:
        if user not in cache:
            allowed = decide(user, author=pull.user.login, policy=config.override,
                             permission=level(*repo.permission(user)),
                             in_team=lambda team: repo.in_team(team, user))
            if allowed.allowed:
                allowed = uninvolved(user, author=pull.user.login, policy=config.override,
                                     contributions=contributions)
            cache[user] = allowed.reason if not allowed.allowed else ""
        return cache[user]

    # Only records sealed with the App's key for this very pull request count (bot/overrides/records.py).
    scope = scope_of(repo.full_name, pull.number)
    records = since_revoke(records_in(bodies, key=github.record_key, scope=scope))
    return ([r for r in records if not why_not(r.user)],
            [(r, why_not(r.user)) for r in records if why_not(r.user)])


def _review_pull(github, repo, check: _Check, target: Target, *, now, pushes: PushLog) -> str:
    """A pull request's head: the file listing, then one query for everything else it reads."""
    with stage("listing"):
        listing = repo.changed_files(target.pull_number)
    guess = github.last_config(repo.full_name) or Config()
    schemas = schema_files(listing, guess)
    wanted = blob_keys(schemas, base_sha=target.base_sha, head_sha=target.head_sha)
    with stage("read"):
        # The head's file list, which every review of a schema file lists (the users of Avro
        # and JSON Schema files; in every format, the files that may define a type twice,
        # bot/review/duplicate_types.py), and the users of a changed file it does not review.
        # A guess the config proves wrong costs the REST listing.
        state = repo.review_state(target.pull_number, head_sha=target.head_sha,
                                  config_ref=config_ref(target.default_branch), config_path=CONFIG_PATH,
                                  blobs=wanted, tree=bool(schemas) or uses_unreviewed(listing, guess))
    if state.pull is not None and state.pull.head.sha != target.head_sha:
        # GitHub says another commit is the head: a newer push whose delivery may arrive later
        # or came in the same second (equal timestamps order nothing).
        raise Superseded(f"the pull request's head is {state.pull.head.sha[:7]} now")
    run, before = check.start(known=state.run)
    if state.pull is None:
        return _no_pull(repo, run, before)
    try:
        config = config_from(repo, state.config.text if state.config else None)
    except ConfigError as error:
        return _config_invalid(repo, run, error)
    github.keep_config(repo.full_name, config)
    # Blobs fetched for a base that has moved since the event are not the base's: dropped.
    prefetched = {key: blob for key, blob in state.blobs.items()
                  if key[0] in (state.pull.base.sha, target.head_sha)}
    result = evaluate(repo, state.pull, config, head_sha=target.head_sha, now=now, listing=listing,
                      prefetched=prefetched, head_paths=state.tree)
    return _conclude(github, repo, run, target, state.pull, config, result, state=state, now=now,
                     pushes=pushes)


def _no_pull(repo, run, before: Verdict | None) -> str:
    if _failed(before):
        return fail_closed(repo, run, before, reason=NO_PULL.lower())
    repo.complete_check_run(run, conclusion=Conclusion.NEUTRAL.value, title=NO_PULL,
                            summary=NO_PULL_SUMMARY, text=None, annotations=[])
    return Conclusion.NEUTRAL.value


def _config_invalid(repo, run, error: ConfigError) -> str:
    repo.complete_check_run(run, conclusion=Conclusion.FAILURE.value,
                            title=CONFIG_INVALID.format(path=CONFIG_PATH), summary=code(str(error)),
                            text=None, annotations=[])
    return Conclusion.FAILURE.value


def _review(github, repo, run, before: Verdict | None, target: Target, *, now, pushes: PushLog) -> str:
    number, siblings = target.pull_number, None
    if number is None and target.group_base is None:
        # Check events from forks name no pull request: ask which open ones have this head.
        found = repo.pulls_for_commit(target.head_sha)
        number, siblings = (found[0], found[1:]) if found else (None, [])
    if number is None and target.group_base is None:
        return _no_pull(repo, run, before)
    try:
        config = load_config(repo, target.default_branch)
    except ConfigError as error:
        return _config_invalid(repo, run, error)
    if target.group_base is not None:
        result = evaluate_group(repo, config, base_sha=target.group_base, head_sha=target.head_sha, now=now)
        # The queued pull requests' overrides carry over: their breaking changes are the group's.
        # GitHub names the last one; the others are the open ones whose heads the group holds.
        queued: list[int] = []
        if result.conclusion is Conclusion.FAILURE:  # only then do overrides matter
            held = repo.compare_commits(target.group_base, target.head_sha)
            queued = list(dict.fromkeys(([number] if number else [])
                                        + [n for n, head in repo.open_pulls() if head in held]))
        pulls = [repo.pull(n) for n in queued]
        return _conclude(github, repo, run, target, pulls[0] if pulls else None, config, result,
                         group=pulls, pushes=pushes)
    pull = repo.pull(number)
    result = evaluate(repo, pull, config, head_sha=target.head_sha, now=now)
    return _conclude(github, repo, run, target, pull, config, result, siblings=siblings, now=now,
                     pushes=pushes)


def _conclude(github, repo, run, target: Target, pull, config: Config, result: ReviewResult, *,
              state: ReviewState | None = None, siblings: list[int] | None = None, now=utc_now,
              group: list | None = None, gated: bool = False,
              pushes: PushLog = NO_PUSH_LOG) -> str:
    """Apply the overrides, complete the check run, and post what is new (on pull requests:
    a merge group has no conversation to post in). `state` holds the conversation and the
    review threads when the review state query read them already.

    The check run belongs to the commit, and branch protection reads it for every pull request
    with that head: so it carries the worst verdict of all of them (`siblings`: the other open
    pull requests with this head; None: look them up). `gated`: the consumers' confirmations
    (bot/handlers/confirmations.py) are counted in `result` already."""
    if not gated:
        result = with_confirmations(github, repo, config, result, now=now)
    conclusion, title, summary = _overridden(github, repo, group if group is not None else [pull],
                                             config, result,
                                             conversation=state.conversation if state else None,
                                             pushes=pushes)
    in_group = target.group_base is not None
    if not in_group:
        if siblings is None:
            siblings = ([p.number for p in state.sharing_head(target.head_sha, besides=pull.number)]
                        if state is not None else
                        [n for n in repo.pulls_for_commit(target.head_sha) if n != pull.number])
        for number in siblings:
            other = repo.pull(number)
            found = _overridden(github, repo, [other], config, with_confirmations(
                github, repo, config, evaluate(repo, other, config, head_sha=target.head_sha, now=now),
                now=now), pushes=pushes)
            if found[0] is Conclusion.FAILURE and conclusion is not Conclusion.FAILURE:
                conclusion = Conclusion.FAILURE
                title = SIBLING_FAILS.format(number=number, base=other.base.ref, title=found[1])
                summary = SIBLING_NOTE.format(number=number, base=code(other.base.ref)) + found[2]
    with stage("publish"):
        return _publish(github, repo, run, target, pull, result, conclusion, title, summary,
                        in_group=in_group, state=state, config=config)


def _overridden(github, repo, pulls: list, config: Config, result: ReviewResult, *, conversation=None,
                pushes: PushLog = NO_PUSH_LOG):
    """(conclusion, title, summary) of a result once the overrides of its pull requests count
    (one, or a merge group's queued ones; `conversation` is the first one's, when known)."""
    pulls = [p for p in pulls if p is not None]
    if result.conclusion is not Conclusion.FAILURE or not pulls:  # only a failure is overridden
        return result.conclusion, result.title, result.summary
    found = [current_overrides(github, repo, pull, config, pushes=pushes,
                               conversation=conversation if index == 0 else None)
             for index, pull in enumerate(pulls)]
    return verdict(result, [r for counted, _lapsed in found for r in counted],
                   conclusion=config.override.conclusion,
                   lapsed=[item for _counted, lapsed in found for item in lapsed])


def _publish(github, repo, run, target: Target, pull, result: ReviewResult, conclusion: Conclusion,
             title: str, summary: str, *, in_group: bool, state: ReviewState | None,
             config: Config) -> str:
    repo.complete_check_run(run, conclusion=conclusion.value, title=title, summary=summary,
                            text=result.text or None, annotations=list(result.annotations),
                            actions=[OVERRIDE_ACTION] if conclusion is Conclusion.FAILURE and not in_group else [])
    if not in_group:
        publish_comments(repo, pull, result, head_sha=target.head_sha, bot_login=github.bot_login(),
                         threads=state.threads if state else None)
        notify_consumers(github, repo, pull, result, config, head_sha=target.head_sha)
    return conclusion.value


__all__ = ["handle_review", "review_head", "evaluate", "evaluate_group", "load_config",
           "current_overrides", "fail_closed"]
