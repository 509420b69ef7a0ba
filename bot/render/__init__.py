"""Turning a review into what GitHub shows: check-run output, review comments, terminal text."""
