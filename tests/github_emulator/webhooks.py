"""Signed webhook deliveries, and payloads built from GitHub's official examples.

The examples are read at test time from <repo>/../shared/github/webhook-examples/ (never copied
into the repository) and patched with the emulator's repository, pull, sha and installation.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from functools import lru_cache
from typing import TYPE_CHECKING

import requests

from tests.shared import shared_path

from . import shapes, shapes_pulls
from .handlers_issues import issue_shape as shapes_pulls_issue
from .records import CheckRun, Delivery, Issue, IssueComment
from .repos import PullRequest, Repo
from .spec import SHARED_GITHUB

if TYPE_CHECKING:
    from .emulator import GitHubEmulator

EXAMPLES = SHARED_GITHUB / "webhook-examples"
USER_AGENT = "GitHub-Hookshot/emulator"
PULL_EXAMPLES = {"edited": "pull_request.edited.base_changed.derived.json"}


@lru_cache(maxsize=None)
def _example_text(name: str) -> str:
    return shared_path("github", "webhook-examples", name).read_text()


def example(name: str) -> dict:
    """A fresh copy of one official example payload."""
    return json.loads(_example_text(name))


def sign(body: bytes, secret: str) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def deliver(emulator: "GitHubEmulator", app_url: str, event: str, payload: dict, secret: str, *,
            delivery_id: str | None = None) -> requests.Response:
    """POST `payload` to the App like GitHub does, and list it under GET /app/hook/deliveries."""
    body = json.dumps(payload).encode()
    guid = delivery_id or str(uuid.uuid4())
    headers = {"X-GitHub-Event": event, "X-GitHub-Delivery": guid,
               "X-Hub-Signature-256": sign(body, secret),
               "X-Hub-Signature": "sha1=" + hmac.new(secret.encode(), body, hashlib.sha1).hexdigest(),
               "User-Agent": USER_AGENT, "Content-Type": "application/json",
               "X-GitHub-Hook-Installation-Target-Type": "integration",
               "X-GitHub-Hook-Installation-Target-ID": str(emulator.app_id)}
    response = requests.post(app_url, data=body, headers=headers, timeout=30)
    state = emulator.state
    with state.lock:
        state.deliveries.append(Delivery(
            state.next_id(), guid, event, payload.get("action"), response.status_code, state.now(),
            installation_id=(payload.get("installation") or {}).get("id"),
            repository_id=(payload.get("repository") or {}).get("id")))
    return response


def _user(api: str, target: dict, login: str, kind: str = "User") -> dict:
    target.update({k: v for k, v in shapes.user(api, login, kind).items() if k in target or k == "type"})
    return target


def _repository(api: str, target: dict, repo: Repo) -> None:
    target.update(id=repo.id, node_id=f"R_emu{repo.id}", name=repo.name, full_name=repo.full_name,
                  default_branch=repo.default_branch, private=True, url=f"{api}/repos/{repo.full_name}",
                  html_url=f"{api}/{repo.full_name}")
    _user(api, target["owner"], repo.owner, shapes.account(api, repo.owner)["type"])


def _common(emulator: "GitHubEmulator", payload: dict, repo: Repo, sender: str, kind: str = "User") -> None:
    api = emulator.url
    _repository(api, payload["repository"], repo)
    payload["installation"] = {"id": repo.installation_id, "node_id": f"MDIz_emu{repo.installation_id}"}
    _user(api, payload["sender"], sender, kind)
    if "organization" in payload:
        payload["organization"].update(login=repo.owner, id=shapes.user_id(repo.owner))


def _pull_side(api: str, target: dict, pull: PullRequest, ref: str, sha: str) -> None:
    target.update(ref=ref, sha=sha, label=f"{pull.repo.owner}:{ref}")
    _repository(api, target["repo"], pull.repo)
    _user(api, target["user"], pull.repo.owner)


def pull_request_event(emulator: "GitHubEmulator", action: str, pull: PullRequest, *,
                       sender: str | None = None, **extra) -> dict:
    """A pull_request webhook payload for `pull` (`extra` keys are set at the top level)."""
    name = PULL_EXAMPLES.get(action, f"pull_request.{action}.json")
    payload = example(name if (EXAMPLES / name).is_file() else "pull_request.opened.json")
    api, repo = emulator.url, pull.repo
    payload.update(action=action, number=pull.number)
    pr = payload["pull_request"]
    pr.update(number=pull.number, id=pull.id, node_id=f"PR_emu{pull.id}", title=pull.title,
              body=pull.body or None, state=pull.state, draft=pull.draft,
              url=f"{api}/repos/{repo.full_name}/pulls/{pull.number}",
              html_url=f"{api}/{repo.full_name}/pull/{pull.number}",
              updated_at=emulator.state.now())  # as on GitHub: the time of the push or action
    _user(api, pr["user"], pull.user)
    _pull_side(api, pr["head"], pull, pull.head, pull.head_sha)
    _pull_side(api, pr["base"], pull, pull.base, pull.base_sha)
    pr.update(merged=pull.merged, merged_at=pull.merged_at, merge_commit_sha=pull.merge_commit_sha)
    if action == "synchronize":
        parents = repo.git.info(pull.head_sha).parents
        payload.update(after=pull.head_sha, before=extra.pop("before", parents[0] if parents else None))
    _common(emulator, payload, repo, sender or pull.user)
    payload.update(extra)
    return payload


def issue_comment_event(emulator: "GitHubEmulator", pull: PullRequest, body: str, user: str, *,
                        action: str = "created", user_type: str = "User",
                        comment: IssueComment | None = None) -> dict:
    """An issue_comment webhook on `pull`; "created" also adds the comment to the emulator."""
    payload = example(f"issue_comment.{action}.on_pull_request.derived.json")
    api, repo = emulator.url, pull.repo
    if comment is None:
        comment = emulator.add_issue_comment(pull, body, user=user, user_type=user_type)
    elif action == "edited":
        payload["changes"] = {"body": {"from": comment.body}}
        comment.body = body
    issue = payload["issue"]
    issue.update(number=pull.number, title=pull.title, body=pull.body or None, state=pull.state,
                 url=f"{api}/repos/{repo.full_name}/issues/{pull.number}",
                 html_url=f"{api}/{repo.full_name}/pull/{pull.number}")
    issue["pull_request"].update(url=f"{api}/repos/{repo.full_name}/pulls/{pull.number}",
                                 html_url=issue["html_url"])
    _user(api, issue["user"], pull.user)
    # The same comment as GET /repos/{owner}/{repo}/issues/comments/{id} shows it.
    shown = shapes_pulls.issue_comment(api, comment)
    payload["comment"].update(id=comment.id, node_id=comment.node_id, body=body,
                              created_at=comment.created_at, updated_at=comment.updated_at,
                              url=shown["url"], html_url=shown["html_url"], issue_url=issue["url"])
    _user(api, payload["comment"]["user"], user, user_type)
    _common(emulator, payload, repo, user, user_type)
    return payload


def issue_comment_on_issue_event(emulator: "GitHubEmulator", issue: Issue, body: str, user: str, *,
                                 user_type: str = "User", comment: IssueComment | None = None) -> dict:
    """An issue_comment.created webhook on an issue that is not a pull request; the comment is
    added to the emulator unless given."""
    payload = example("issue_comment.created.json")
    api, repo = emulator.url, emulator.state.repo_by_key(issue.repo)
    if comment is None:
        comment = emulator.add_issue_comment(issue, body, user=user, user_type=user_type)
    shown_issue = shapes_pulls_issue(api, issue)
    payload["issue"].update({k: v for k, v in shown_issue.items() if k != "user"})
    payload["issue"].pop("pull_request", None)
    _user(api, payload["issue"]["user"], issue.user, issue.user_type)
    shown = shapes_pulls.issue_comment(api, comment)
    payload["comment"].update(id=comment.id, node_id=comment.node_id, body=comment.body,
                              created_at=comment.created_at, updated_at=comment.updated_at,
                              url=shown["url"], html_url=shown["html_url"], issue_url=shown_issue["url"])
    _user(api, payload["comment"]["user"], user, user_type)
    _common(emulator, payload, repo, user, user_type)
    return payload


def merge_group_event(emulator: "GitHubEmulator", repo: Repo, pull: PullRequest, *, base_sha: str,
                      head_sha: str, action: str = "checks_requested") -> dict:
    """A merge queue's group for `pull`: `head_sha` (base plus the pull request) on `base_sha`."""
    payload = example("merge_group.checks_requested.json")
    payload["action"] = action
    info = repo.git.info(head_sha)
    payload["merge_group"].update(
        head_sha=head_sha, base_sha=base_sha, base_ref=f"refs/heads/{pull.base}",
        head_ref=f"refs/heads/gh-readonly-queue/{pull.base}/pr-{pull.number}-{pull.head_sha}")
    payload["merge_group"]["head_commit"].update(id=head_sha, tree_id=info.tree, message=info.message)
    _common(emulator, payload, repo, pull.user)
    return payload


def check_run_event(emulator: "GitHubEmulator", action: str, run: CheckRun, *,
                    identifier: str | None = None) -> dict:
    """A check_run webhook for one of the App's runs (requested_action carries `identifier`)."""
    name = f"check_run.{action}.json"
    payload = example(name if (EXAMPLES / name).is_file() else "check_run.rerequested.json")
    payload["action"] = action
    api, repo = emulator.url, emulator.state.repo_by_key(run.repo)
    body = payload["check_run"]
    body.update(id=run.id, node_id=f"CR_emu{run.id}", head_sha=run.head_sha, name=run.name,
                status=run.status, conclusion=run.conclusion, external_id=run.external_id or "",
                url=f"{api}/repos/{repo.full_name}/check-runs/{run.id}")
    slug = emulator.state.app_slug
    body["app"].update(id=emulator.app_id, slug=slug, name=slug, node_id=f"A_emu{emulator.app_id}")
    _user(api, body["app"]["owner"], repo.owner, shapes.account(api, repo.owner)["type"])
    body["check_suite"].update(head_sha=run.head_sha)
    body["pull_requests"] = [
        {"id": p.id, "number": p.number, "url": f"{api}/repos/{repo.full_name}/pulls/{p.number}",
         "head": {"ref": p.head, "sha": p.head_sha, "repo": {"id": repo.id, "name": repo.name, "url": ""}},
         "base": {"ref": p.base, "sha": p.base_sha, "repo": {"id": repo.id, "name": repo.name, "url": ""}}}
        for (key, _), p in emulator.state.pulls.items()
        if key == repo.full_name.lower() and p.state == "open" and p.head_sha == run.head_sha]
    if action == "requested_action":
        payload["requested_action"] = {"identifier": identifier or ""}
    _common(emulator, payload, repo, "octocat")
    return payload
