"""The durable job queue: journal, dedupe, supersede, per-PR locks, retries, recovery."""
from .dispatcher import QueueDispatcher, make_huey

__all__ = ["QueueDispatcher", "make_huey"]
