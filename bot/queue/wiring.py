"""Build the production dispatcher: GitHub client, handlers, give-up and delivery recovery wired in."""
from __future__ import annotations

import time
from typing import Callable

import rules

from bot.ambient.jobs import Job
from bot.queue.runtime import Runtime
from bot.config.settings import Settings
from bot.queue.dispatcher import QueueDispatcher


def build_dispatcher(settings: Settings, runtime: Runtime, *,
                     handle: Callable[[Job], None] | None = None) -> QueueDispatcher:
    from bot.review import review
    from bot.github.app import GitHubApp
    from bot.overrides.records import derive_key
    from bot.handlers import handle_job
    from bot.handlers.comment import CommandContext
    from bot.queue.recovery import recover_deliveries
    from bot.queue.giveup import give_up

    rules.budget.configure(seconds=runtime.file_budget)
    review.configure(pull_seconds=runtime.pull_budget)
    github = GitHubApp(settings, record_key=derive_key(settings.webhook_secret),
                       retries=runtime.request_retries, backoff=runtime.retry_backoff,
                       max_rate_wait=runtime.max_rate_wait, token_margin=runtime.token_margin)
    holder: list[QueueDispatcher] = []
    # Commands read the push log the queue keeps (which head a comment's author saw).
    commands = CommandContext(pushes=lambda pull: holder[0].ledger.pushes(pull),
                              recheck_interval=runtime.recheck_interval)
    if handle is None:
        handle = lambda job: handle_job(job, github=github, commands=commands)  # noqa: E731

    def recover() -> list[int]:
        queue = holder[0]
        return recover_deliveries(
            github.app_requester(), known=lambda guid: queue.ledger.get(guid) is not None,
            claim=lambda guid: queue.huey.put_if_empty(f"redelivered:{guid}", time.time()))

    dispatcher = QueueDispatcher(runtime, handle, give_up=lambda job, error: give_up(job, error, github=github),
                                 recover_deliveries=recover)
    holder.append(dispatcher)
    return dispatcher
