"""The slice of GitHub's GraphQL API the bot uses: one query for a pull request's review state
(the pull request, its conversation and review threads, the head's check runs, blobs), a file's
history with the pull requests that merged each commit, and minimizeComment. Field names and types follow GitHub's public schema."""
from __future__ import annotations

from graphql import GraphQLError, build_schema, graphql_sync

from . import review_state
from .ops import Ctx

# GitHub cuts Blob.text somewhere around 512 KB and says so with isTruncated (the exact limit
# is undocumented); byteSize always reports the whole blob.
BLOB_TEXT_LIMIT = 512 * 1024
# git's own binary test: a NUL byte in the first 8000 bytes.
BINARY_SNIFF = 8000
REPO_NOT_FOUND = "Could not resolve to a Repository with the name '{owner}/{name}'."
NODE_NOT_FOUND = "Could not resolve to a node with the global id of '{id}'."

SDL = """
scalar GitObjectID
scalar DateTime
interface Node { id: ID! }
interface Actor { login: String! }
type User implements Actor & Node { id: ID! login: String! }
type Bot implements Actor & Node { id: ID! login: String! }
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
type IssueCommentConnection { totalCount: Int! pageInfo: PageInfo! nodes: [IssueComment] }
type PullRequestReviewCommentConnection {
  totalCount: Int! pageInfo: PageInfo! nodes: [PullRequestReviewComment]
}
type PullRequestReviewThread implements Node {
  id: ID!
  comments(first: Int, last: Int, after: String, before: String): PullRequestReviewCommentConnection!
}
type PullRequestReviewThreadConnection {
  totalCount: Int! pageInfo: PageInfo! nodes: [PullRequestReviewThread]
}
enum PullRequestState { OPEN CLOSED MERGED }
type PullRequest implements Node {
  id: ID! number: Int! state: PullRequestState! title: String! merged: Boolean! mergedAt: DateTime
  headRefOid: GitObjectID! baseRefOid: GitObjectID! headRefName: String! baseRefName: String!
  changedFiles: Int! author: Actor mergeCommit: Commit
  comments(first: Int, last: Int, after: String, before: String): IssueCommentConnection!
  reviewThreads(first: Int, last: Int, after: String, before: String): PullRequestReviewThreadConnection!
}
enum CheckStatusState { REQUESTED QUEUED IN_PROGRESS COMPLETED WAITING PENDING }
enum CheckConclusionState {
  ACTION_REQUIRED TIMED_OUT CANCELLED FAILURE SUCCESS NEUTRAL SKIPPED STARTUP_FAILURE STALE
}
enum CheckRunType { ALL LATEST }
input CheckSuiteFilter { appId: Int checkName: String }
input CheckRunFilter { checkType: CheckRunType appId: Int checkName: String status: CheckStatusState }
type App implements Node { id: ID! databaseId: Int slug: String! }
type CheckRun implements Node {
  id: ID! databaseId: Int name: String! status: CheckStatusState! conclusion: CheckConclusionState
  title: String summary: String text: String
}
type CheckRunConnection { totalCount: Int! pageInfo: PageInfo! nodes: [CheckRun] }
type CheckSuite implements Node {
  id: ID! app: App
  checkRuns(first: Int, last: Int, after: String, before: String, filterBy: CheckRunFilter): CheckRunConnection
}
type CheckSuiteConnection { totalCount: Int! pageInfo: PageInfo! nodes: [CheckSuite] }
interface GitObject { id: ID! oid: GitObjectID! abbreviatedOid: String! }
type Blob implements Node & GitObject {
  id: ID! oid: GitObjectID! abbreviatedOid: String!
  text: String byteSize: Int! isBinary: Boolean isTruncated: Boolean!
}
type Tree implements Node & GitObject {
  id: ID! oid: GitObjectID! abbreviatedOid: String! entries: [TreeEntry!]
}
type TreeEntry {
  name: String! path: String type: String! mode: Int! oid: GitObjectID! object: GitObject
}
type Commit implements Node & GitObject {
  id: ID! oid: GitObjectID! abbreviatedOid: String! message: String! committedDate: DateTime!
  checkSuites(first: Int, last: Int, after: String, before: String, filterBy: CheckSuiteFilter): CheckSuiteConnection
  history(first: Int, path: String): CommitHistoryConnection!
  associatedPullRequests(first: Int, last: Int, after: String, before: String,
                         orderBy: PullRequestOrder = {field: CREATED_AT, direction: ASC}): PullRequestConnection
  file(path: String!): TreeEntry
  parents(first: Int): CommitConnection!
}
type CommitConnection { totalCount: Int! nodes: [Commit] }
enum PullRequestOrderField { CREATED_AT UPDATED_AT }
input PullRequestOrder { field: PullRequestOrderField! direction: OrderDirection! }
type CommitHistoryConnection { totalCount: Int! pageInfo: PageInfo! nodes: [Commit] }
type Repository implements Node {
  id: ID! name: String! nameWithOwner: String!
  object(expression: String, oid: GitObjectID): GitObject
  pullRequest(number: Int!): PullRequest
  pullRequests(states: [PullRequestState!], first: Int, last: Int, after: String, before: String,
               orderBy: IssueOrder): PullRequestConnection!
}
enum IssueOrderField { CREATED_AT UPDATED_AT COMMENTS }
enum OrderDirection { ASC DESC }
input IssueOrder { field: IssueOrderField! direction: OrderDirection! }
type PullRequestConnection { totalCount: Int! pageInfo: PageInfo! nodes: [PullRequest] }
interface Minimizable { isMinimized: Boolean! minimizedReason: String viewerCanMinimize: Boolean! }
type PullRequestReviewComment implements Node & Minimizable {
  id: ID! databaseId: Int body: String! isMinimized: Boolean! minimizedReason: String
  viewerCanMinimize: Boolean! author: Actor createdAt: DateTime! lastEditedAt: DateTime path: String!
}
type IssueComment implements Node & Minimizable {
  id: ID! databaseId: Int body: String! isMinimized: Boolean! minimizedReason: String
  viewerCanMinimize: Boolean! author: Actor createdAt: DateTime! lastEditedAt: DateTime
}
type RateLimit { cost: Int! limit: Int! remaining: Int! used: Int! resetAt: String! nodeCount: Int! }
type Query {
  repository(owner: String!, name: String!, followRenames: Boolean): Repository
  node(id: ID!): Node
  rateLimit(dryRun: Boolean): RateLimit
}
enum ReportedContentClassifiers { SPAM ABUSE OFF_TOPIC OUTDATED DUPLICATE RESOLVED }
input MinimizeCommentInput { subjectId: ID! classifier: ReportedContentClassifiers! clientMutationId: String }
type MinimizeCommentPayload { clientMutationId: String minimizedComment: Minimizable }
input UnminimizeCommentInput { subjectId: ID! clientMutationId: String }
type UnminimizeCommentPayload { clientMutationId: String unminimizedComment: Minimizable }
type Mutation {
  minimizeComment(input: MinimizeCommentInput!): MinimizeCommentPayload
  unminimizeComment(input: UnminimizeCommentInput!): UnminimizeCommentPayload
}
"""


class NotFound(GraphQLError):
    """GitHub marks these errors with "type": "NOT_FOUND" next to the message."""


def _typename(value, *_):
    return value["__typename"]


def _build():
    schema = build_schema(SDL)
    for name in ("Node", "GitObject", "Minimizable", "Actor"):
        schema.get_type(name).resolve_type = _typename
    query, mutation = schema.query_type.fields, schema.mutation_type.fields
    query["repository"].resolve = _repository
    query["node"].resolve = lambda _, info, id: _comment(info.context, id)
    query["rateLimit"].resolve = lambda _, info, **__: {
        "cost": 1, "limit": 5000, "remaining": info.context.state.rate_remaining,
        "used": 5000 - info.context.state.rate_remaining, "resetAt": "2030-01-01T00:00:00Z", "nodeCount": 0}
    schema.get_type("Repository").fields["object"].resolve = _object
    schema.get_type("Repository").fields["pullRequest"].resolve = review_state.pull_request
    schema.get_type("Repository").fields["pullRequests"].resolve = review_state.pull_requests
    schema.get_type("PullRequest").fields["comments"].resolve = review_state.conversation
    schema.get_type("PullRequest").fields["reviewThreads"].resolve = review_state.threads
    schema.get_type("PullRequestReviewThread").fields["comments"].resolve = review_state.thread_comments
    schema.get_type("Commit").fields["checkSuites"].resolve = review_state.check_suites
    schema.get_type("Commit").fields["history"].resolve = _history
    schema.get_type("Commit").fields["associatedPullRequests"].resolve = review_state.associated_pull_requests
    schema.get_type("Commit").fields["file"].resolve = _file
    schema.get_type("Commit").fields["parents"].resolve = _parents
    schema.get_type("PullRequest").fields["mergeCommit"].resolve = _merge_commit
    schema.get_type("Tree").fields["entries"].resolve = _entries
    schema.get_type("CheckSuite").fields["checkRuns"].resolve = review_state.check_runs
    mutation["minimizeComment"].resolve = _minimize
    mutation["unminimizeComment"].resolve = _unminimize
    return schema


def _repository(_, info, owner, name, **__):
    repo = info.context.state.repo(owner, name)
    token = info.context.token
    if repo is None or (token and repo.installation_id != token.installation_id):
        raise NotFound(REPO_NOT_FOUND.format(owner=owner, name=name))
    return {"__typename": "Repository", "id": f"R_emu{repo.id}", "name": repo.name,
            "nameWithOwner": repo.full_name, "_repo": repo}


def _object(parent, info, expression=None, oid=None):
    repo = parent["_repo"]
    git = repo.git
    ref, colon, path = (expression or oid or "").partition(":")
    commit = git.resolve(ref)
    if commit is None:
        return None
    path = path.strip("/")
    if not colon:
        return _commit(repo, commit)
    if not path:  # "<rev>:" is the commit's root directory, as in git
        return _tree(repo, git.info(commit).tree, "")
    entry = git.entry(commit, path)
    if entry is None:
        return None
    return _blob(repo, entry.sha) if entry.type == "blob" else _tree(repo, entry.sha, path)


def _blob(repo, sha: str) -> dict:
    data = repo.git.blob(sha)
    binary = b"\0" in data[:BINARY_SNIFF]
    text = None if binary else data[:BLOB_TEXT_LIMIT].decode("utf-8", errors="ignore")
    return {"__typename": "Blob", "id": f"B_emu{sha}", "oid": sha, "abbreviatedOid": sha[:7],
            "text": text, "byteSize": len(data), "isBinary": binary,
            "isTruncated": not binary and len(data) > BLOB_TEXT_LIMIT}


def _tree(repo, sha: str, path: str) -> dict:
    """A directory; `path` (from the repository's root) is where its entries' paths start."""
    return {"__typename": "Tree", "id": f"T_emu{sha}", "oid": sha, "abbreviatedOid": sha[:7],
            "_repo": repo, "_path": path}


def _entries(tree, _info):
    """The directory's entries in git's order; `path` is from the repository's root, `mode`
    the octal git mode as a number, and a submodule's commit is no object of this repository."""
    repo = tree["_repo"]
    return [_entry(repo, e.sha, e.type, e.mode, e.path,
                   f"{tree['_path']}/{e.path}" if tree["_path"] else e.path)
            for e in repo.git.list_tree(tree["oid"])]


def _entry(repo, sha: str, kind: str, mode: str, name: str, path: str) -> dict:
    target = {"blob": lambda _i: _blob(repo, sha), "tree": lambda _i: _tree(repo, sha, path)}.get(kind)
    return {"name": name, "path": path, "type": kind, "mode": int(mode, 8), "oid": sha,
            "object": target}


def _file(commit, _info, path):
    """The tree entry at `path` in the commit (a symbolic link's mode is 0o120000, its object
    the blob holding the target's path, as in git); null when there is none."""
    repo, path = commit["_repo"], path.strip("/")
    entry = repo.git.entry(commit["oid"], path) if path else None
    if entry is None:
        return None
    return _entry(repo, entry.sha, entry.type, entry.mode, path.rsplit("/", 1)[-1], path)


def _commit(repo, sha: str) -> dict:
    info = repo.git.info(sha)
    return {"__typename": "Commit", "id": f"C_emu{sha}", "oid": sha, "abbreviatedOid": sha[:7],
            "message": info.message, "committedDate": info.committer_date, "_repo": repo}


def _history(commit, _info, first=None, path=None):
    """The commits reachable from this one, newest first, that touched `path` (GitHub caps a
    page at 100)."""
    shas = commit["_repo"].git.log(commit["oid"], path=path or None)
    page = shas[:min(first or 100, 100)]
    return {"totalCount": len(shas), "nodes": [_commit(commit["_repo"], sha) for sha in page],
            "pageInfo": {"hasNextPage": len(shas) > len(page), "hasPreviousPage": False,
                         "startCursor": None, "endCursor": None}}


def _parents(commit, _info, first=None):
    parents = commit["_repo"].git.info(commit["oid"]).parents
    page = parents[:min(first or 100, 100)]
    return {"totalCount": len(parents), "nodes": [_commit(commit["_repo"], sha) for sha in page]}


def _merge_commit(pull, _info):
    pr = pull["_pr"]
    return _commit(pr.repo, pr.merge_commit_sha) if pr.merge_commit_sha else None


def _comment(ctx: Ctx, node_id: str):
    for kind, store in (("PullRequestReviewComment", ctx.state.review_comments),
                        ("IssueComment", ctx.state.issue_comments)):
        for item in store.values():
            if item.node_id == node_id:
                return review_state.comment(kind, item)
    raise NotFound(NODE_NOT_FOUND.format(id=node_id))


def _minimize(_, info, input):
    item = _comment(info.context, input["subjectId"])["_item"]
    # minimizedReason comes back lower-case and dashed ("off-topic"), unlike the enum input.
    item.minimized_reason = input["classifier"].lower().replace("_", "-")
    return {"clientMutationId": input.get("clientMutationId"),
            "minimizedComment": _comment(info.context, input["subjectId"])}


def _unminimize(_, info, input):
    item = _comment(info.context, input["subjectId"])["_item"]
    item.minimized_reason = None
    return {"clientMutationId": input.get("clientMutationId"),
            "unminimizedComment": _comment(info.context, input["subjectId"])}


SCHEMA = _build()


def execute(ctx: Ctx, payload) -> dict:
    """A GraphQL response body (always HTTP 200 on GitHub, problems go in `errors`)."""
    if not isinstance(payload, dict) or not isinstance(payload.get("query"), str):
        return {"errors": [{"message": "A query attribute must be specified and must be a string."}]}
    result = graphql_sync(SCHEMA, payload["query"], context_value=ctx,
                          variable_values=payload.get("variables"),
                          operation_name=payload.get("operationName"))
    out: dict = {}
    if result.data is not None or not result.errors:
        out["data"] = result.data
    if result.errors:
        out["errors"] = [_error(e) for e in result.errors]
    return out


def _error(error: GraphQLError) -> dict:
    body = error.formatted
    if isinstance(error.original_error, NotFound) or isinstance(error, NotFound):
        body["type"] = "NOT_FOUND"
    return body
