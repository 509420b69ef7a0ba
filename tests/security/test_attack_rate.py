"""Red team: one pull request spends the installation's GitHub rate limit.

An installation gets 5,000 requests an hour (15,000 at most) shared by every repository it
covers, and GitHub's secondary limits on content creation are far lower. Before 86476cd the
annotations (50 per PATCH) grew with the findings: `max_files` (300) x `MAX_FINDINGS` (2,000)
= 12,000 PATCHes for one push; main now caps them at one request (the first test holds).
Resolving comments is still one minimize and one edit per comment (the second test fails).
"""
from __future__ import annotations

import pytest

from tests.harness.flow import wait_for
from tests.integration.test_review_flow import open_pull, review_of
from tests.security.commands_flow import settle

AVRO = '{"type": "record", "name": "U", "fields": [\n  {"name": "id", "type": "string"}%s\n]}\n'
# A review of any size should cost a bounded number of requests (the check, its output, one review).
REQUEST_BUDGET = 60


@pytest.mark.parametrize("files", [2, 4])
def test_one_review_costs_a_bounded_number_of_github_requests(github, app_url, files):
    fields = "".join(f',\n  {{"name": "f{index:04}", "type": "int"}}' for index in range(2_000))
    paths = [f"schemas/u{index}.avsc" for index in range(files)]
    repo, pull = open_pull(github, {p: AVRO % "" for p in paths}, {p: AVRO % fields for p in paths})
    run = review_of(github, app_url, repo, pull)
    settle(github, timeout=300)
    assert run.conclusion == "failure"
    patches = github.calls_to("PATCH", r"/check-runs/")
    writes = [c for c in github.calls if c.method in ("POST", "PATCH", "PUT") and "access_tokens" not in c.path]
    assert len(writes) <= REQUEST_BUDGET, (
        f"{files * 2_000} findings cost {len(writes)} writes ({len(patches)} check-run PATCHes); "
        f"at max_files=300 that is ~{len(patches) * 300 // files:,} PATCHes for one pull request")


def test_resolving_many_comments_costs_a_bounded_number_of_requests(github, app_url):
    """Each comment whose finding went away is minimized (GraphQL) and edited (REST): a push
    that fixes every finding must still cost a bounded number of requests, and so must posting
    them (the author can break and fix again at will)."""
    fields = "".join(f',\n  {{"name": "f{index:04}", "type": "int"}}' for index in range(1_000))
    repo, pull = open_pull(github, {"schemas/u.avsc": AVRO % ""}, {"schemas/u.avsc": AVRO % fields})
    github.clear_calls()
    assert review_of(github, app_url, repo, pull).conclusion == "failure"
    wait_for(lambda: github.reviews(repo.owner, repo.name, pull.number), timeout=240, what="the App's review")
    settle(github, timeout=300)
    posted = github.review_comments(repo.owner, repo.name, pull.number)
    assert 0 < len(posted) <= 50  # the rest are in the check run's table
    (review,) = github.reviews(repo.owner, repo.name, pull.number)
    assert "950 more are listed in the check only" in review.body
    writes = [c for c in github.calls if c.method in ("POST", "PATCH", "PUT") and "access_tokens" not in c.path]
    assert len(writes) <= REQUEST_BUDGET, f"posting 1,000 findings cost {len(writes)} writes"
    github.clear_calls()
    repo.commit("feature", {"schemas/u.avsc": AVRO % ""}, "Fix it all")
    assert review_of(github, app_url, repo, pull, action="synchronize").conclusion == "success"
    settle(github, timeout=300)
    writes = [c for c in github.calls if c.method in ("POST", "PATCH", "PUT") and "access_tokens" not in c.path]
    assert len(writes) <= REQUEST_BUDGET, f"fixing 1,000 findings cost {len(writes)} writes"
