"""Who people are to a repository, as GitHub says: permission, team membership, who made the commits."""
from __future__ import annotations

from urllib.parse import quote

from bot.github.calls import RepoBase, operation
from bot.github.contributions import PULL_COMMITS_LISTED


class People(RepoBase):
    @operation("permission")
    def permission(self, username: str) -> tuple[str | None, str | None]:
        """(permission, role_name) of a user on this repository: the real access, not association."""
        _headers, data = self._client.requester.requestJsonAndCheck(
            "GET", f"{self._repo.url}/collaborators/{quote(username)}/permission")
        return data.get("permission"), data.get("role_name")

    @operation("in_team")
    def in_team(self, team: str, username: str) -> bool:
        """`org/slug` or a slug of the repository owner's organisation; an active membership."""
        org, _, slug = team.rpartition("/")
        data = self._get_json(f"/orgs/{quote(org or self.owner)}/teams/{quote(slug)}/memberships/{quote(username)}")
        return data is not None and data.get("state") == "active"

    @operation("pull_commits", reads=True)
    def pull_commits(self, number: int) -> list[tuple[str, str | None, str | None]]:
        """(sha, author login, committer login) of the pull request's commits, oldest first, a
        page of 100 a request (GitHub lists 250 at most); None where GitHub links the commit's
        email to no account."""
        url, out = f"{self._repo.url}/pulls/{int(number)}/commits", []
        for page in range(1, -(-PULL_COMMITS_LISTED // 100) + 1):
            _headers, data = self._client.requester.requestJsonAndCheck(
                "GET", url, parameters={"per_page": 100, "page": page})
            out += [(item["sha"], (item.get("author") or {}).get("login"),
                     (item.get("committer") or {}).get("login")) for item in data]
            if len(data) < 100:
                break
        return out
