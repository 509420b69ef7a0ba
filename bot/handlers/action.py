"""The check run's "Override…" button: buttons carry no reason, so it explains the command."""
from __future__ import annotations

from bot.config.configfile import ConfigError
from bot.ambient.jobs import Job
from bot.handlers.help import help_text
from bot.handlers.evaluate import load_config
from bot.handlers.target import review_target

PROMPT = "@{user} to override the `schema-review` check, comment with a reason:\n\n{help}"
NO_PULL = "the button was pressed on a commit that no open pull request carries"


def handle_action(job: Job, *, github) -> None:
    target = review_target("check_run", job.payload)
    if target is None or target.pull_number is None:
        return  # nowhere to answer: a commit outside any pull request
    repo = github.repo(target.installation_id, target.repository)
    try:
        policy = load_config(repo, target.default_branch).override
    except ConfigError:
        from bot.config.config import Config
        policy = Config().override
    user = (job.payload.get("sender") or {}).get("login", "")
    repo.comment(target.pull_number, PROMPT.format(user=user, help=help_text(policy)))
