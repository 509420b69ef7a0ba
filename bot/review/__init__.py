"""The pure judgment over a gathered snapshot: pairing and moves, the rule calls, the verdict.
No I/O: may import render, lifecycle, config and ambient, never github, gather, queue, web or handlers."""
