"""A local GitHub (REST + GraphQL) for integration tests, backed by real git repositories.

Start it, point the bot's PyGithub at it, build state, act, then inspect what the bot did::

    from tests.github_emulator import GitHubEmulator

    with GitHubEmulator(tmp_path) as gh:                  # 127.0.0.1, ephemeral port, own thread
        repo = gh.create_repo("acme", "contracts", {"schemas/user.avsc": OLD})
        repo.commit("feature", {"schemas/user.avsc": NEW}, "Add field")   # branch made from main
        pull = gh.open_pull("acme", "contracts", "feature", "main", "Add field")
        auth = Auth.AppAuth(gh.app_id, gh.private_key).get_installation_auth(repo.installation_id)
        client = Github(base_url=gh.url, auth=auth, seconds_between_requests=0, seconds_between_writes=0)
        ...
        assert gh.check_runs("acme", "contracts", pull.head_sha)[0].conclusion == "failure"
        assert gh.violations == []

Base URLs: ``gh.url`` (github.com layout, GraphQL at /graphql) and ``gh.api_url`` (GHES layout
``/api/v3``, GraphQL at /api/graphql); response URLs and Link headers follow the one used.

Emulator (``GitHubEmulator(tmpdir, *, app_id=424242, app_slug="schema-review", token_ttl=3600,
check_responses=True)``):
  lifecycle   start() -> self, stop(), context manager; url, api_url, graphql_url
  the App     app_id, private_key (PEM), bot_login ("schema-review[bot]"), token_ttl (settable),
              installation_id(owner), issue_token(owner) -> str, expire_tokens()
  state       create_repo(owner, name, files, *, default_branch="main", message=...) -> Repo,
              repo(owner, name) -> Repo, open_pull(owner, name, head, base, title, *,
              user="octocat", body="", draft=False) -> PullRequest, pull(owner, name, number),
              merge_pull(pull, *, squash=False) -> merge sha (mergedAt: now, GitHub's clock),
              set_permission(owner, name, username, permission, role_name=None),
              set_team_member(org, team_slug, username, *, role="member", state="active"),
              grant_team(owner, name, team_slug) (the team may be asked to review),
              add_issue_comment(pull, body, *, user="octocat", user_type="User") -> IssueComment,
              set_rate_remaining(n), add_delivery(event, *, action, status_code, guid, redelivery,
              delivered_at) -> Delivery
  recording   calls, calls_to(method=None, path=None (regex), *, operation=None), clear_calls(),
              violations, response_violations, take_violations()
  inspectors  check_runs(owner, name, sha=None), reviews(owner, name, number=None),
              review_comments(owner, name, number=None) (.is_minimized), issue_comments(...),
              reactions(comment_id=None), statuses, redeliveries,
              requested_reviewers(owner, name, number) -> {"users": [...], "teams": [...]},
              issues(owner, name) -> [Issue] (issues share numbers with pull requests)
  faults      inject(method, path_regex, *, status=None, times=1, headers=None, delay=0.0,
              body=None) -> Fault, clear_faults()
  webhooks    deliver(app_url, event, payload, secret, *, delivery_id=None) -> requests.Response,
              pull_request_event(action, pull, *, sender=None, **top_level_keys),
              issue_comment_event(pull, body, user, *, action="created", user_type="User",
              comment=None), issue_comment_on_issue_event(issue, body, user, *, user_type="User",
              comment=None) (add_issue_comment takes an Issue too), check_run_event(action, run, *, identifier=None)
Repo: owner, name, full_name, id, installation_id, default_branch, git (GitStore),
  commit(branch, files, message="Update", *, author_date=None, base=None) -> sha
  (files: {path: str | bytes | None}, None deletes), sha(ref), read(ref, path) -> bytes | None.
PullRequest: number, head, base, title, user, head_sha, base_sha, merge_base, files(), commits(),
  merged, merged_at, merge_commit_sha.

Every REST request is routed through GitHub's OpenAPI subset (<repo>/../shared/github/) and
validated with openapi-core: an invalid request gets 400/422 and lands in ``violations``; a path
outside the subset gets 404 and a violation. The ``github`` fixture (fixtures.py) fails the test
on any violation.
"""
from .emulator import GitHubEmulator
from .faults import Fault
from .records import (Call, CheckRun, Delivery, Issue, IssueComment, Permission, Reaction, Review,
                      ReviewComment, Violation)
from .repos import PullRequest, Repo

__all__ = ["GitHubEmulator", "Fault", "Call", "CheckRun", "Delivery", "Issue", "IssueComment", "Permission",
           "Reaction", "Review", "ReviewComment", "Violation", "PullRequest", "Repo"]
