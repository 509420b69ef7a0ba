"""Checks endpoints: check runs with accumulating annotations, suites, commit statuses."""
from __future__ import annotations

from . import shapes_pulls as sp
from .ops import DOCS, NOT_FOUND, ApiError, Ctx, Reply, operation, paginate, require
from .records import CheckRun

NO_SHA = "No commit found for SHA: {sha}"
NO_CONCLUSION = "Invalid request.\n\n\"conclusion\" wasn't supplied."
CHECKS_DOC = f"{DOCS}/checks/runs"


def _json(ctx: Ctx, run: CheckRun) -> dict:
    return sp.check_run(ctx.api, run, app_id=ctx.state.creds.app_id, slug=ctx.state.app_slug)


def _apply(ctx: Ctx, run: CheckRun) -> None:
    """Fields of a create/update body onto the run; annotations append like on GitHub."""
    for key in ("name", "details_url", "external_id", "started_at", "completed_at"):
        if key in ctx.body:
            setattr(run, key, ctx.body[key])
    if "status" in ctx.body:
        run.status = ctx.body["status"]
    if ctx.body.get("conclusion"):
        # Giving a conclusion completes the run, whatever status says.
        run.conclusion, run.status = ctx.body["conclusion"], "completed"
        run.completed_at = run.completed_at or ctx.state.now()
    require(run.status != "completed" or run.conclusion, 422, NO_CONCLUSION, doc=CHECKS_DOC)
    output = ctx.body.get("output") or {}
    run.output.update({k: output[k] for k in ("title", "summary", "text") if k in output})
    run.annotations += [dict(a) for a in output.get("annotations", [])]
    if "actions" in ctx.body:
        run.actions = list(ctx.body["actions"])


def _run(ctx: Ctx, owner: str, repo: str, check_run_id) -> CheckRun:
    found = ctx.repo(owner, repo)
    run = ctx.state.check_runs.get(int(check_run_id))
    if run is None or run.repo != found.full_name:
        raise ApiError(404, NOT_FOUND, doc=f"{CHECKS_DOC}#get-a-check-run")
    return run


@operation("checks/create")
def create(ctx: Ctx, owner: str, repo: str) -> Reply:
    found = ctx.repo(owner, repo)
    sha = ctx.body.get("head_sha", "")
    require(found.git.object_type(sha) == "commit", 422, NO_SHA.format(sha=sha), doc=CHECKS_DOC)
    run = CheckRun(ctx.state.next_id(), found.full_name, ctx.body["name"], found.git.resolve(sha),
                   started_at=ctx.state.now())
    _apply(ctx, run)
    ctx.state.check_runs[run.id] = run
    return Reply(201, _json(ctx, run))


@operation("checks/update")
def update(ctx: Ctx, owner: str, repo: str, check_run_id) -> Reply:
    run = _run(ctx, owner, repo, check_run_id)
    _apply(ctx, run)
    run.updates += 1
    return Reply(200, _json(ctx, run))


@operation("checks/get")
def get(ctx: Ctx, owner: str, repo: str, check_run_id) -> Reply:
    return Reply(200, _json(ctx, _run(ctx, owner, repo, check_run_id)))


@operation("checks/list-annotations")
def annotations(ctx: Ctx, owner: str, repo: str, check_run_id) -> Reply:
    run = _run(ctx, owner, repo, check_run_id)
    return paginate(ctx, [sp.annotation(a) for a in run.annotations])


@operation("checks/rerequest-run")
def rerequest(ctx: Ctx, owner: str, repo: str, check_run_id) -> Reply:
    _run(ctx, owner, repo, check_run_id)
    return Reply(201, {})


@operation("checks/list-for-ref")
def list_for_ref(ctx: Ctx, owner: str, repo: str, ref: str) -> Reply:
    found = ctx.repo(owner, repo)
    sha = found.git.resolve(ref)
    require(sha is not None, 422, NO_SHA.format(sha=ref), doc=CHECKS_DOC)
    runs = [r for r in ctx.state.check_runs.values() if r.repo == found.full_name and r.head_sha == sha
            and ctx.query.get("check_name") in (None, r.name)
            and ctx.query.get("status") in (None, r.status)]
    if ctx.query.get("filter", "latest") == "latest":
        latest = {r.name: r for r in sorted(runs, key=lambda r: r.id)}
        runs = list(latest.values())
    page = paginate(ctx, sorted(runs, key=lambda r: r.id, reverse=True))
    page.body = {"total_count": len(runs), "check_runs": [_json(ctx, r) for r in page.body]}
    return page


@operation("checks/list-suites-for-ref")
def list_suites(ctx: Ctx, owner: str, repo: str, ref: str) -> Reply:
    ctx.repo(owner, repo)
    return Reply(200, {"total_count": 0, "check_suites": []})


@operation("repos/create-commit-status")
def create_status(ctx: Ctx, owner: str, repo: str, sha: str) -> Reply:
    found = ctx.repo(owner, repo)
    require(found.git.object_type(sha) == "commit", 422, NO_SHA.format(sha=sha))
    status = {"id": ctx.state.next_id(), "sha": sha, "repo": found.full_name, **ctx.body,
              "created_at": ctx.state.now()}
    ctx.state.statuses.append(status)
    body = {"id": status["id"], "node_id": f"SC_emu{status['id']}", "state": ctx.body["state"],
            "description": ctx.body.get("description"), "target_url": ctx.body.get("target_url"),
            "context": ctx.body.get("context", "default"), "created_at": status["created_at"],
            "updated_at": status["created_at"], "avatar_url": None,
            "url": f"{ctx.api}/repos/{found.full_name}/statuses/{sha}"}
    return Reply(201, body)
