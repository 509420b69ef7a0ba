"""A pull request's (or merge group's) verdict: the config from the default branch, then gather
every read, then the pure review, timed and cancellable."""
from __future__ import annotations

from datetime import datetime, timezone

from bot.ambient.jobs import checkpoint
from bot.ambient.stages import stage
from bot.config.config import CONFIG_PATH, Config, parse_config
from bot.config.extends import with_base
from bot.gather.changes import collect
from bot.github.reads import PULL_FILES_LISTED
from bot.review.review import ReviewResult, review

UNLISTED_PULL = ("GitHub lists only the first {listed:,} of this pull request's {total:,} changed "
                 "files; the other {missing:,} were not reviewed")
UNLISTED_GROUP = ("GitHub lists only the first {listed:,} changed files of a comparison, and this "
                  "merge group changes at least that many; the rest were not reviewed")


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def config_ref(default_branch: str) -> str:
    """The default branch by its full ref: a tag named like the branch must not stand in for it."""
    return f"refs/heads/{default_branch}"


def load_config(repo, default_branch: str) -> Config:
    """The default branch's config: a pull request must not relax its own gate. Raises ConfigError."""
    return config_from(repo, repo.file_text(config_ref(default_branch), CONFIG_PATH))


def config_from(repo, text: str | None) -> Config:
    return parse_config(text, extend=lambda root: with_base(
        root, owner=repo.owner, name=repo.name, path=CONFIG_PATH,
        read_base=lambda full_name: repo.shared_file_text(full_name, CONFIG_PATH)))


def evaluate(repo, pull, config: Config, *, head_sha: str, now=utc_now, listing=None,
             prefetched=None, head_paths=None) -> ReviewResult:
    listing = repo.changed_files(pull) if listing is None else listing
    unlisted = None
    if len(listing) >= PULL_FILES_LISTED and pull.changed_files > len(listing):
        unlisted = UNLISTED_PULL.format(listed=len(listing), total=pull.changed_files,
                                        missing=pull.changed_files - len(listing))
    with stage("fetch"):
        gathered = collect(repo, listing, config, base_sha=pull.base.sha, head_sha=head_sha,
                           prefetched=prefetched or {}, head_paths=head_paths)
    return review(gathered.changes, config, now=now(), unlisted=unlisted, history_of=gathered.history_of,
                  checkpoint=checkpoint, timed=stage)


def evaluate_group(repo, config: Config, *, base_sha: str, head_sha: str, now=utc_now) -> ReviewResult:
    """A merge queue's group commit against the group's base: what the queue would merge."""
    listing, complete = repo.compare_files(base_sha, head_sha)
    unlisted = None if complete else UNLISTED_GROUP.format(listed=len(listing))
    gathered = collect(repo, listing, config, base_sha=base_sha, head_sha=head_sha)
    return review(gathered.changes, config, now=now(), unlisted=unlisted, history_of=gathered.history_of,
                  checkpoint=checkpoint, timed=stage)
