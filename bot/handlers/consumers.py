"""Ask a file's consumers to review a pull request that deprecates, removes, renames or breaks
what they read: once per head, never the author, never someone the App asked before.

What the App asked is kept in its own review bodies, sealed like override records
(bot/overrides/records.py): an edited or pasted record is not the App's and counts for nothing.
A consumer GitHub will not request (not a collaborator, a team without access, another
organisation's team) is named in the review instead: it never fails the review.
"""
from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field

from github import GithubException

from bot.config.config import Config
from bot.config.consumers import split_owner
from bot.overrides.records import scope_of, seal, unseal
from bot.render import consumers as render
from bot.render.model import Notice
from bot.review.notices import notices, owners_of
from bot.review.review import ReviewResult

log = logging.getLogger("schema_review.consumers")

RECORD_KIND = "consumers"
# Review requests per push: GitHub notifies each one, and its secondary limits count them.
MAX_REQUESTS = 15
REFUSED = ("GitHub would not request a review (not a collaborator, or a team without access to "
           "this repository)")
OTHER_ORGANISATION = "a team of another organisation cannot be asked to review here"
OVER_LIMIT = f"not asked: at most {MAX_REQUESTS} review requests are made per pull request"
# Changes remembered (as short digests) in the sealed record: it must stay far below GitHub's
# body limit however large the pull request; changes past these count as told.
ROWS_KEPT = 500
# GitHub's answers for a reviewer it cannot request; anything else is GitHub failing, not a refusal.
CANNOT_REQUEST = (403, 404, 422)


@dataclass
class Earlier:
    """What the App's earlier consumer reviews of this pull request recorded."""

    heads: set[str] = field(default_factory=set)
    asked: dict[str, None] = field(default_factory=dict)
    refused: set[str] = field(default_factory=set)
    rows: set[str] = field(default_factory=set)


def notify_consumers(github, repo, pull, result: ReviewResult, config: Config, *, head_sha: str) -> None:
    """Request the reviews and post the table; a GitHub failure here is logged, never the verdict's."""
    found = notices(result.files, config)
    if not found or github.record_key is None:
        return  # no consumers, nothing they are told about, or no key to remember them by: not one call
    try:
        _notify(github, repo, pull, found, head_sha=head_sha)
    except GithubException as error:
        log.warning("consumers not notified", extra={"repository": repo.full_name, "pull": pull.number,
                                                     "status": error.status})


def _notify(github, repo, pull, found: list[Notice], *, head_sha: str) -> None:
    login, scope = github.bot_login(), scope_of(repo.full_name, pull.number)
    earlier = _earlier(repo.own_reviews(pull.number, login), key=github.record_key, scope=scope)
    if head_sha in earlier.heads:
        return
    rows = {_digest(notice) for notice in found[:ROWS_KEPT]}
    author = (pull.user.login or "").lower()
    wanted = [o for o in owners_of(found) if o.lstrip("@").lower() != author]
    fresh = [o for o in wanted if o not in earlier.asked and o not in earlier.refused]
    if not fresh and rows <= earlier.rows:
        return  # nobody new to ask, nothing new to tell
    asked, refused = _request(repo, pull.number, fresh)
    before = [o for o in earlier.asked if o in wanted]
    if not (asked or refused or before):
        return  # the author is the only consumer: a table would tell them of their own change
    record = seal({"kind": RECORD_KIND, "head": head_sha, "asked": [*earlier.asked, *asked],
                   "refused": sorted(earlier.refused | set(refused)), "rows": _kept(rows, earlier.rows)},
                  key=github.record_key, scope=scope)
    repo.create_review(pull, head_sha=head_sha, comments=[],
                       body=render.body(found, asked=asked, before=before, refused=refused, record=record))


def _earlier(bodies: list[str], *, key: bytes, scope: str) -> Earlier:
    out = Earlier()
    for body in bodies:
        data = unseal(body, key=key, scope=scope)
        if not data or data.get("kind") != RECORD_KIND:
            continue
        out.heads.add(str(data.get("head", "")))
        out.asked.update(dict.fromkeys(map(str, data.get("asked") or ())))
        out.refused.update(map(str, data.get("refused") or ()))
        out.rows.update(map(str, data.get("rows") or ()))
    return out


def _request(repo, number: int, owners: list[str]) -> tuple[list[str], dict[str, str]]:
    """(asked, refused with why): all in one request, then one by one if GitHub refuses it."""
    refused: dict[str, str] = {}
    candidates = []
    for owner in owners:
        org, team = split_owner(owner)
        if team is not None and org.lower() != repo.owner.lower():
            refused[owner] = OTHER_ORGANISATION
        elif len(candidates) >= MAX_REQUESTS:
            refused[owner] = OVER_LIMIT
        else:
            candidates.append(owner)
    if not candidates:
        return [], refused
    if _asked(repo, number, candidates):
        return candidates, refused
    if len(candidates) == 1:
        return [], {**refused, candidates[0]: REFUSED}
    asked = []
    for owner in candidates:
        if _asked(repo, number, [owner]):
            asked.append(owner)
        else:
            refused[owner] = REFUSED
    return asked, refused


def _asked(repo, number: int, owners: list[str]) -> bool:
    users = [split_owner(o)[0] for o in owners if split_owner(o)[1] is None]
    teams = [split_owner(o)[1] for o in owners if split_owner(o)[1] is not None]
    try:
        repo.request_reviewers(number, users=users, teams=teams)
    except GithubException as error:
        if error.status not in CANNOT_REQUEST:
            raise
        return False
    return True


def _kept(current: set[str], before: set[str]) -> list[str]:
    """The digests the record keeps: this push's first, then earlier ones, ROWS_KEPT in all."""
    return (sorted(current) + sorted(before - current))[:ROWS_KEPT]


def _digest(notice: Notice) -> str:
    return hashlib.sha256("\0".join(notice.key).encode("utf-8")).hexdigest()[:10]
