"""The App manifest asks for every permission the code uses (GitHub refuses the rest with 403).

A permission missing from `app.yml` fails only on real GitHub, where the emulator is not there to
forgive it: team membership, for one, needs the organization permission `members: read`, without
which `override.allow_teams` silently admits nobody. Each GitHub operation in bot/github/ is
listed here with the permission GitHub's REST reference gives for it; a new operation fails this
test until it is listed, and the manifest must grant each at least at that level.
"""
from __future__ import annotations

import ast

import pytest
import yaml

from tests.shared import REPO

# operation name in bot/github/ -> (permission, level), from GitHub's "permissions required
# for GitHub Apps" reference. Conversation comments on a pull request are issue comments.
REQUIRED = {
    "pull": ("pull_requests", "read"),
    "changed_files": ("pull_requests", "read"),
    "open_pulls": ("pull_requests", "read"),  # fork re-runs, shared heads, merge groups' pull requests
    "compare_commits": ("contents", "read"),  # the commits a merge group holds
    "compare_files": ("contents", "read"),  # a merge group's files against its base
    "blobs": ("contents", "read"),  # GraphQL object(expression:) on the repository
    "shared_file": ("contents", "read"),  # GET /repos/{o}/{r} (metadata) + a blob of another installed repo
    # GraphQL Commit.history(path:) for many files at once; also associatedPullRequests' mergedAt
    # (pull_requests read, as review_state)
    "histories": ("contents", "read"),
    "tree": ("contents", "read"),  # a commit's file list: where a named type or `$id` is defined
    "pull_commits": ("pull_requests", "read"),  # who wrote the commits an override would cover
    "find_check_run": ("checks", "read"),
    "create_check_run": ("checks", "write"),
    "edit_check_run": ("checks", "write"),
    # One GraphQL query: the pull request, its comments and review threads, the head's check
    # runs, the config and schema blobs.
    "review_state": ("pull_requests", "read"),
    "review_comments": ("pull_requests", "read"),
    "edit_review_comment": ("pull_requests", "write"),
    "create_review": ("pull_requests", "write"),
    "create_file_comment": ("pull_requests", "write"),
    "issue_comments": ("issues", "read"),
    "issue_comment": ("issues", "read"),
    "comment": ("issues", "write"),
    "edit_comment": ("issues", "write"),  # a revoke strikes the records of the overrides it withdraws
    "react": ("issues", "write"),
    "permission": ("metadata", "read"),
    "in_team": ("members", "read"),
    "minimize": ("pull_requests", "write"),
    "request_reviewers": ("pull_requests", "write"),  # `consumers:` asked to review (users and teams)
    "own_reviews": ("pull_requests", "read"),  # who the App asked before (its sealed consumer records)
    # Migrations' tracking issues (bot/github/issues.py): opened, found again, read, ticked and closed.
    "create_issue": ("issues", "write"),
    "own_issues": ("issues", "read"),
    "issue": ("issues", "read"),
    "update_issue": ("issues", "write"),
}
# Calls outside the named operations: creating the check run, and the events the App handles.
ALSO = {("checks", "write")}
EVENTS = {"pull_request", "issue_comment", "check_run", "check_suite", "merge_group"}
LEVELS = {"read": 1, "write": 2, "admin": 3}


def operations() -> set[str]:
    """Every @_operation("name") in bot/github/."""
    found = set()
    for module in sorted((REPO / "bot" / "github").glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "operation":
                found.add(node.args[0].value)
    return found


def manifest() -> dict:
    return yaml.safe_load((REPO / "app.yml").read_text())


def test_every_github_operation_is_listed_with_its_permission():
    unlisted = operations() - set(REQUIRED)
    assert not unlisted, f"add the permission of {sorted(unlisted)} to REQUIRED (and to app.yml)"


@pytest.mark.parametrize("permission, level", sorted(set(REQUIRED.values()) | ALSO))
def test_the_manifest_grants_each_permission_the_code_uses(permission, level):
    granted = manifest()["default_permissions"]
    assert LEVELS.get(granted.get(permission, ""), 0) >= LEVELS[level], (permission, level, granted)


def test_team_membership_needs_members_read():
    assert manifest()["default_permissions"].get("members") in ("read", "write")


def test_the_manifest_subscribes_to_the_events_the_app_handles():
    assert EVENTS <= set(manifest()["default_events"])
