"""`python -m bot.worker` (the Procfile's worker): the queue's worker process, bot/queue/worker.py."""
import sys

from bot.queue.worker import main

if __name__ == "__main__":
    sys.exit(main())
