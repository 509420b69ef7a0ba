"""One GraphQL query for everything a review reads besides the file listing.

The pull request (head, base, author, changed-file count), the repository's config at the
default branch, the head's `schema-review` check run, the App's conversation comments (override
records) and review threads (fingerprints), the schema blobs at base and head, and (when asked)
the head's file list: a review of a push costs one query instead of seven REST and GraphQL
round trips. Long conversations and
thread lists are followed page by page (`more_query`), still in GraphQL.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from bot.github import tree_query
from bot.github.blobs import BLOB_FIELDS, Blob, blob_of, looked_up, lookup

PAGE = 100
BOT_SUFFIX = "[bot]"  # GraphQL spells a bot's login without it; REST (and this App) with it
CHECK_NAME = "schema-review"
COMMENT_FIELDS = "id databaseId body createdAt lastEditedAt author { __typename login }"
OPEN_PULLS = "pageInfo { hasNextPage endCursor } nodes { number headRefOid baseRefName }"
MORE_OPEN = """query($owner: String!, $name: String!, $after: String!) {{
  repository(owner: $owner, name: $name) {{
    open: pullRequests(states: OPEN, first: {page}, after: $after,
                       orderBy: {{field: UPDATED_AT, direction: DESC}}) {{ {open_pulls} }}
  }}
}}"""
QUERY = """query($owner: String!, $name: String!, $number: Int!, $head: GitObjectID!, $config: String!,
  $app: Int!, $check: String!{declarations}) {{
  repository(owner: $owner, name: $name) {{
    pullRequest(number: $number) {{
      number state headRefOid headRefName baseRefOid baseRefName changedFiles author {{ login }}
      comments(last: {page}) {{ pageInfo {{ hasPreviousPage startCursor }} nodes {{ {comment} }} }}
      reviewThreads(last: {page}) {{
        pageInfo {{ hasPreviousPage startCursor }} nodes {{ comments(first: 1) {{ nodes {{ {comment} }} }} }}
      }}
    }}
    open: pullRequests(states: OPEN, first: {page}, orderBy: {{field: UPDATED_AT, direction: DESC}}) {{
      {open_pulls}
    }}
    config: object(expression: $config) {{ {blob} }}
    head: object(oid: $head) {{
      ... on Commit {{
        checkSuites(first: 1, filterBy: {{appId: $app}}) {{
          nodes {{ checkRuns(first: 1, filterBy: {{checkName: $check}}) {{
            nodes {{ databaseId status conclusion title summary text }} }} }}
        }}
      }}
    }}
    {selections}
  }}
}}"""
MORE = """query($owner: String!, $name: String!, $number: Int!, $before: String!) {{
  repository(owner: $owner, name: $name) {{ pullRequest(number: $number) {{ {connection} }} }}
}}"""
MORE_CONVERSATION = ("comments(last: {page}, before: $before) {{ pageInfo {{ hasPreviousPage startCursor }} "
                     "nodes {{ {comment} }} }}")
MORE_THREADS = ("reviewThreads(last: {page}, before: $before) {{ pageInfo {{ hasPreviousPage startCursor }} "
                "nodes {{ comments(first: 1) {{ nodes {{ {comment} }} }} }} }}")


@dataclass(frozen=True)
class Side:
    sha: str
    ref: str


@dataclass(frozen=True)
class Author:
    login: str


@dataclass(frozen=True)
class PullInfo:
    """What the review needs of a pull request, shaped like PyGithub's (pull.head.sha, ...)."""

    number: int
    state: str  # open, closed, merged
    head: Side
    base: Side
    user: Author
    changed_files: int


@dataclass(frozen=True)
class Posted:
    """A comment as GraphQL lists it; a bot's login carries `[bot]`, as in REST."""

    id: int
    node_id: str
    body: str
    login: str
    is_bot: bool
    created_at: str
    edited: bool = False  # anyone with write access can edit any comment, the App's included


@dataclass(frozen=True)
class RunInfo:
    id: int
    status: str  # queued, in_progress, completed (REST's spelling)
    conclusion: str | None
    title: str
    summary: str
    text: str | None


@dataclass(frozen=True)
class OpenPull:
    number: int
    head_sha: str
    base_ref: str


@dataclass
class ReviewState:
    pull: PullInfo | None  # None: no such pull request
    config: Blob | None
    run: RunInfo | None
    conversation: list[Posted] = field(default_factory=list)  # oldest first
    threads: list[Posted] = field(default_factory=list)  # each review thread's first comment
    blobs: dict[tuple[str, str], Blob | None] = field(default_factory=dict)
    # Every open pull request's head: the check run belongs to a commit, and several pull
    # requests (to different bases, from forks too) can share one head.
    open_pulls: list[OpenPull] = field(default_factory=list)
    # The head's file paths, when asked for and whole (bot/github/tree_query.py); else None.
    tree: list[str] | None = None

    def sharing_head(self, head_sha: str, *, besides: int) -> list[OpenPull]:
        return [p for p in self.open_pulls if p.head_sha == head_sha and p.number != besides]


def bodies_by(comments: list[Posted], login: str) -> list[str]:
    """The bodies of the comments a given bot wrote and nobody edited since: the App reads its
    own records only, and an edited one may hold a record moved there from another comment
    (the App itself edits a reply only to withdraw its record)."""
    return [c.body for c in comments if c.is_bot and c.login == login and not c.edited]


def query(owner: str, name: str, number: int, *, head_sha: str, config: str, app_id: int,
          blobs: list[tuple[str, str]], tree: bool = False) -> tuple[str, dict]:
    """`tree`: also the head's file list (its root tree, bot/github/tree_query.py)."""
    variables = {"owner": owner, "name": name, "number": number, "head": head_sha, "config": config,
                 "app": app_id, "check": CHECK_NAME}
    declarations, selections = [], []
    if tree:
        variables["tree"] = f"{head_sha}:"  # the commit's root directory
        declarations.append(", $tree: String!")
        selections.append(f"tree: object(expression: $tree) {{ {tree_query.selection()} }}")
    for index, (ref, path) in enumerate(blobs):
        more, declared, selected = lookup(index, ref, path)  # variables, never spliced in
        variables.update(more)
        declarations += [f", {declaration}" for declaration in declared]
        selections += selected
    text = QUERY.format(declarations="".join(declarations), selections=" ".join(selections),
                        page=PAGE, comment=COMMENT_FIELDS, blob=BLOB_FIELDS, open_pulls=OPEN_PULLS)
    return text, variables


def more_query(owner: str, name: str, number: int, *, threads: bool, before: str) -> tuple[str, dict]:
    connection = (MORE_THREADS if threads else MORE_CONVERSATION).format(page=PAGE, comment=COMMENT_FIELDS)
    return (MORE.format(connection=connection),
            {"owner": owner, "name": name, "number": number, "before": before})


def parse(data: dict, blobs: list[tuple[str, str]], *, fetch_text, tree: bool = False) -> ReviewState:
    """The query's answer as a ReviewState; `fetch_text(oid)` reads a blob GraphQL truncated;
    `tree`: the head's file list was asked for."""
    repository = (data.get("data") or {}).get("repository") or {}
    node = repository.get("pullRequest")
    state = ReviewState(pull=_pull(node) if node else None,
                        config=blob_of(repository.get("config"), fetch_text=fetch_text),
                        run=_run(repository.get("head")))
    state.open_pulls = open_pulls(repository.get("open"))
    if node:
        state.conversation = _comments(node.get("comments"))
        state.threads = _thread_starts(node.get("reviewThreads"))
    for index, key in enumerate(blobs):
        state.blobs[key] = looked_up(repository, index, fetch_text=fetch_text)
    if tree:
        state.tree = tree_query.paths_of(repository.get("tree"))
    return state


def more_open_query(owner: str, name: str, *, after: str) -> tuple[str, dict]:
    return (MORE_OPEN.format(page=PAGE, open_pulls=OPEN_PULLS),
            {"owner": owner, "name": name, "after": after})


def open_pulls(connection: dict | None) -> list[OpenPull]:
    return [OpenPull(int(n["number"]), n.get("headRefOid") or "", n.get("baseRefName") or "")
            for n in (connection or {}).get("nodes") or [] if n]


def later_cursor(connection: dict | None) -> str | None:
    info = (connection or {}).get("pageInfo") or {}
    return info.get("endCursor") if info.get("hasNextPage") else None


def page_of(data: dict, *, threads: bool) -> tuple[list[Posted], str | None]:
    """One more page (older items) and the cursor before it, or None when it was the first."""
    node = (((data.get("data") or {}).get("repository") or {}).get("pullRequest") or {})
    connection = node.get("reviewThreads" if threads else "comments")
    items = _thread_starts(connection) if threads else _comments(connection)
    return items, earlier_cursor(connection)


def earlier_cursor(connection: dict | None) -> str | None:
    info = (connection or {}).get("pageInfo") or {}
    return info.get("startCursor") if info.get("hasPreviousPage") else None


def _pull(node: dict) -> PullInfo:
    return PullInfo(number=node["number"], state=str(node.get("state", "OPEN")).lower(),
                    head=Side(node["headRefOid"], node.get("headRefName") or ""),
                    base=Side(node["baseRefOid"], node.get("baseRefName") or ""),
                    user=Author(((node.get("author") or {}).get("login")) or ""),
                    changed_files=int(node.get("changedFiles") or 0))


def _posted(node: dict) -> Posted:
    author = node.get("author") or {}
    is_bot = author.get("__typename") == "Bot"
    login = author.get("login") or ""
    return Posted(id=int(node.get("databaseId") or 0), node_id=node.get("id") or "",
                  body=node.get("body") or "", login=login + BOT_SUFFIX if is_bot else login,
                  is_bot=is_bot, created_at=node.get("createdAt") or "",
                  edited=bool(node.get("lastEditedAt")))


def _comments(connection: dict | None) -> list[Posted]:
    return [_posted(n) for n in (connection or {}).get("nodes") or [] if n]


def _thread_starts(connection: dict | None) -> list[Posted]:
    out = []
    for thread in (connection or {}).get("nodes") or []:
        first = (((thread or {}).get("comments") or {}).get("nodes") or [None])[0]
        if first:
            out.append(_posted(first))
    return out


def _run(head: dict | None) -> RunInfo | None:
    for suite in (((head or {}).get("checkSuites") or {}).get("nodes") or []):
        for run in (((suite or {}).get("checkRuns") or {}).get("nodes") or []):
            if run and run.get("databaseId"):
                conclusion = run.get("conclusion")
                return RunInfo(id=int(run["databaseId"]), status=str(run.get("status", "")).lower(),
                               conclusion=conclusion.lower() if conclusion else None,
                               title=run.get("title") or "", summary=run.get("summary") or "",
                               text=run.get("text"))
    return None
