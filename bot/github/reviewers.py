"""Review requests: asking users and teams to review a pull request, and the App's own reviews."""
from __future__ import annotations

from bot.github.calls import RepoBase, operation

MAX_PAGES = 10  # a thousand reviews: more on one pull request is not a conversation the App keeps up


class Reviewers(RepoBase):
    @operation("request_reviewers")
    def request_reviewers(self, number: int, *, users: list[str], teams: list[str]) -> None:
        """POST .../requested_reviewers: logins without `@`, team slugs of the repository's
        organisation. GitHub refuses the whole request (422) if one of them cannot review."""
        self._client.requester.requestJsonAndCheck(
            "POST", f"{self._repo.url}/pulls/{int(number)}/requested_reviewers",
            input={"reviewers": list(users), "team_reviewers": list(teams)})

    @operation("own_reviews")
    def own_reviews(self, number: int, login: str) -> list[str]:
        """The bodies of the pull request's reviews that the App (`login`) wrote, oldest first.
        Not a cancellable read: it runs after the check is complete, which a newer push must
        not turn into `cancelled`."""
        url, out = f"{self._repo.url}/pulls/{int(number)}/reviews", []
        for page in range(1, MAX_PAGES + 1):
            _headers, data = self._client.requester.requestJsonAndCheck(
                "GET", url, parameters={"per_page": 100, "page": page})
            out += [item.get("body") or "" for item in data
                    if (item.get("user") or {}).get("login") == login and (item.get("user") or {}).get("type") == "Bot"]
            if len(data) < 100:
                break
        return out
