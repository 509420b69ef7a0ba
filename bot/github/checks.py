"""The App's check run on a commit: find it (only the App's own), start it, complete it."""
from __future__ import annotations

from dataclasses import dataclass

from bot.github import review_query
from bot.github.calls import RepoBase, operation
from bot.render.markdown import clip, clip_title

CHECK_NAME = "schema-review"
LOOK_UP = object()  # start_check_run: the caller has not looked for the run
FAILURE = "failure"
# GitHub accepts at most 50 annotations per check-run request; more go in later PATCHes.
ANNOTATIONS_PER_REQUEST = 50


@dataclass(frozen=True)
class Verdict:
    """What a completed check run said before this pass set it in progress again."""

    conclusion: str
    title: str
    summary: str
    text: str | None


class CheckRuns(RepoBase):
    @operation("find_check_run")
    def find_check_run(self, head_sha: str):
        """The App's own run on the commit: a workflow or another App may name one the same."""
        for run in self._repo.get_commit(head_sha).get_check_runs(check_name=CHECK_NAME):
            if run.app and run.app.id == self.app_id and run.name == CHECK_NAME:
                return run
        return None

    def start_check_run(self, head_sha: str, *, known=LOOK_UP) -> tuple[int, Verdict | None]:
        """The head's schema-review run (its id), created once and reused on every later pass,
        and the verdict it carried before, so a pass that cannot finish never downgrades it.
        `known` is the run as the review state query found it (None: there is none yet).

        A `failure` is left showing while the head is reviewed again (not set in progress): it
        is the last real verdict, and a retry or a give-up later still finds it there.
        """
        if known is LOOK_UP:
            found = self.find_check_run(head_sha)
            known = None if found is None else review_query.RunInfo(
                id=found.id, status=found.status, conclusion=found.conclusion,
                title=getattr(found.output, "title", None) or "",
                summary=getattr(found.output, "summary", None) or "", text=getattr(found.output, "text", None))
        if known is None:
            return self._create_check_run(head_sha), None
        before = None
        if known.status == "completed" and known.conclusion:
            before = Verdict(known.conclusion, known.title, known.summary, known.text)
        if before is None or before.conclusion != FAILURE:
            self._edit_check_run(known.id, {"status": "in_progress"})
        return known.id, before

    @operation("create_check_run")
    def _create_check_run(self, head_sha: str) -> int:
        _headers, data = self._client.requester.requestJsonAndCheck(
            "POST", f"{self._repo.url}/check-runs",
            input={"name": CHECK_NAME, "head_sha": head_sha, "status": "in_progress"})
        return int(data["id"])

    @operation("edit_check_run")
    def _edit_check_run(self, run_id: int, fields: dict) -> None:
        self._client.requester.requestJsonAndCheck(
            "PATCH", f"{self._repo.url}/check-runs/{int(run_id)}", input=fields)

    def complete_check_run(self, run, *, conclusion: str, title: str, summary: str,
                           text: str | None, annotations: list[dict], actions: list[dict] | None = None):
        """`run` is the id start_check_run returned (or a PyGithub CheckRun)."""
        run_id = run if isinstance(run, int) else run.id
        batches = [annotations[i:i + ANNOTATIONS_PER_REQUEST]
                   for i in range(0, len(annotations), ANNOTATIONS_PER_REQUEST)] or [[]]
        # A rejected update would leave the verdict unwritten: every body is fitted here.
        output = {"title": clip_title(title), "summary": clip(summary)}
        if text:
            output["text"] = clip(text)
        # Annotations accumulate across updates; the last request completes the run.
        for batch in batches[:-1]:
            self._edit_check_run(run_id, {"output": {**output, "annotations": batch}})
        extra = {"actions": actions} if actions is not None else {}
        self._edit_check_run(run_id, {"status": "completed", "conclusion": conclusion,
                                      "output": {**output, "annotations": batches[-1]}, **extra})
