"""The durable job queue: journal, dedupe, supersede, per-PR locks, retries, recovery, the worker
process. May import handlers and every layer below it, never web."""
from bot.queue.dispatcher import QueueDispatcher, make_huey

__all__ = ["QueueDispatcher", "make_huey"]
