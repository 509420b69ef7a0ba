"""Turning a review into what GitHub shows: check-run output, review comments, terminal text.
No I/O: may import lifecycle, config and ambient, never review, github, gather, queue, web or handlers."""
