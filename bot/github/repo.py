"""The repository client the handlers and the gather stage use: every named operation, by what it serves."""
from __future__ import annotations

from bot.github.checks import CheckRuns
from bot.github.comments import Comments
from bot.github.issues import Issues
from bot.github.people import People
from bot.github.reads import RepoReads
from bot.github.reviewers import Reviewers


class RepoClient(RepoReads, CheckRuns, Comments, People, Reviewers, Issues):
    """Named operations on one repository, as the handlers need them."""
