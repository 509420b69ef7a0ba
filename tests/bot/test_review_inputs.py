"""review() is pure: what it reads, how it is cancelled and timed are handed in, so a test builds
one from plain values (no emulator, no queue)."""
import contextlib

import pytest

from bot.config.config import parse_config
from bot.review.review import Conclusion, FileStatus, review
from tests.bot.test_review import BASE, ID, LEVEL, NOW, avro, change

TRANSITIVE = parse_config("compatibility: backward_transitive\n", known_rules=frozenset())
OLDER = avro(ID)  # before `level` existed
WITH_LEVEL = avro(ID, LEVEL)  # `level` arrived without a default: a break with OLDER
NOTE = {"name": "note", "type": ["null", "string"], "default": None}
HISTORY = [("b" * 40, "2025-03-01T00:00:00+00:00", WITH_LEVEL), ("a" * 40, "2025-01-01T00:00:00+00:00", OLDER)]


class Reader:
    """A history reader that says which base paths the review asked for."""

    def __init__(self, history):
        self.history, self.asked = history, []

    def __call__(self, path):
        self.asked.append(path)
        return self.history


@pytest.mark.parametrize("changes, asked, conclusion", [
    # transitive: the changed file's history is read, once, by its base path
    ([change("user.avsc", WITH_LEVEL, avro(ID, LEVEL, NOTE))], ["user.avsc"], Conclusion.FAILURE),
    ([change("new.avsc", WITH_LEVEL, avro(ID, LEVEL, NOTE), status=FileStatus.RENAMED,
             previous_path="user.avsc")], ["user.avsc"], Conclusion.FAILURE),
    # an added file has no base-branch history to ask for
    ([change("added.avsc", None, BASE, status=FileStatus.ADDED)], [], Conclusion.SUCCESS),
    # a history the caller already gave is used as it is
    ([change("user.avsc", WITH_LEVEL, avro(ID, LEVEL, NOTE), history=HISTORY[:1])], [], Conclusion.SUCCESS),
])
def test_the_history_reader_is_asked_only_for_what_a_rule_reads(changes, asked, conclusion):
    reader = Reader(HISTORY)
    result = review(changes, TRANSITIVE, now=NOW, history_of=reader)
    assert (reader.asked, result.conclusion) == (asked, conclusion)


class Stop(Exception):
    pass


def test_the_checkpoint_handed_in_stops_the_review_between_files():
    asked = []

    def checkpoint():
        asked.append(len(asked))
        if len(asked) == 2:
            raise Stop
    changes = [change(f"s{i}.avsc", BASE, BASE) for i in range(3)]
    with pytest.raises(Stop):
        review(changes, parse_config(None), now=NOW, checkpoint=checkpoint)
    assert asked == [0, 1]


def test_the_stages_are_timed_by_the_callable_handed_in():
    names = []

    def timed(name):
        names.append(name)
        return contextlib.nullcontext()
    review([change("user.avsc", BASE, BASE)], parse_config(None), now=NOW, timed=timed)
    assert names == ["rules", "render"]
