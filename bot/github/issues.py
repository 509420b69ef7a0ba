"""Issues that are not pull requests: the App's tracking issues, one per migration."""
from __future__ import annotations

from dataclasses import dataclass

from bot.github.calls import RepoBase, operation
from bot.render.markdown import clip

MAX_PAGES = 10  # a thousand issues by the App: older ones are not looked through


@dataclass(frozen=True)
class IssueView:
    number: int
    body: str
    state: str  # open or closed
    url: str  # html_url
    author: str
    author_type: str


def _view(data: dict) -> IssueView:
    author = data.get("user") or {}
    return IssueView(int(data["number"]), data.get("body") or "", str(data.get("state") or ""),
                     str(data.get("html_url") or ""), str(author.get("login") or ""),
                     str(author.get("type") or ""))


class Issues(RepoBase):
    @operation("own_issues", reads=True)
    def own_issues(self, login: str) -> list[IssueView]:
        """Every issue (open or closed, never a pull request) the App (`login`) opened, newest first."""
        url, out = f"{self._repo.url}/issues", []
        for page in range(1, MAX_PAGES + 1):
            _headers, data = self._client.requester.requestJsonAndCheck(
                "GET", url, parameters={"state": "all", "creator": login, "per_page": 100, "page": page})
            out += [_view(item) for item in data if not item.get("pull_request")
                    and (item.get("user") or {}).get("login") == login]
            if len(data) < 100:
                break
        return out

    @operation("issue", reads=True)
    def issue(self, number: int) -> IssueView | None:
        """One issue as GitHub has it now; None for a pull request or one that is not there."""
        data = self._get_json(f"{self._repo.url}/issues/{int(number)}")
        return None if data is None or data.get("pull_request") else _view(data)

    @operation("create_issue")
    def create_issue(self, title: str, body: str) -> IssueView:
        _headers, data = self._client.requester.requestJsonAndCheck(
            "POST", f"{self._repo.url}/issues", input={"title": title[:250], "body": clip(body)})
        return _view(data)

    @operation("update_issue")
    def update_issue(self, number: int, *, body: str | None = None, closed: bool = False,
                     reason: str = "completed") -> None:
        """`reason`: why GitHub shows it closed, "completed" or "not_planned" (a migration undone)."""
        changes: dict = {} if body is None else {"body": clip(body)}
        if closed:
            changes.update(state="closed", state_reason=reason)
        self._client.requester.requestJsonAndCheck("PATCH", f"{self._repo.url}/issues/{int(number)}",
                                                   input=changes)
