"""Pattern cover: proven for common shapes, never claimed wrongly, bounded on hard patterns."""
import time
import tracemalloc

import pytest

from rules.jsonschema import content, regex_cover

PROVEN = [("^(a|b)$", "^a$"), ("^.+$", "^[0-9a-zA-Z]+$"), ("a", "^a$"),
          (r"^([0-9a-f]{64}|0{32})$", r"^[0-9a-f]{64}$"), ("^[a-z]*$", "^[a-c]+$"),
          (r"^\d+$", "^[0-9]+$"), ("^a$|^b$", "^a$"), ("^a{1,5}$", "^a{2,3}$"), ("^ab?c$", "^ac$"),
          (r"^v[0-9]+(\.[0-9]+)*$", r"^v[0-9]+\.[0-9]+$"), ("^[^a]$", "^b$"), (r"^\S+$", "^[a-z]+$"),
          ("^(ab)+$", "^abab$"), ("", "anything")]
NOT_COVERED = [("^a$", "^(a|b)$"), ("^[0-9a-zA-Z]+$", "^.+$"), ("^a$", "a"), ("^[a-z]+$", "^[0-9]+$"),
               ("^a{2,3}$", "^a{1,5}$"), ("^[^a]$", "^a$"), (r"^(?:\w*:)?\w+$", r"^(?:\w*\|)?\w+$"),
               ("(?i)a", "a"), ("^$", "")]


@pytest.mark.parametrize("wide,narrow", PROVEN)
def test_superset_is_proven(wide, narrow):
    assert regex_cover.covers(wide, narrow)


@pytest.mark.parametrize("wide,narrow", NOT_COVERED)
def test_non_superset_is_never_claimed(wide, narrow):
    assert not regex_cover.covers(wide, narrow)


def test_a_sample_string_proves_non_cover_with_the_real_engine():
    assert content.escaping_sample(["^[a-z]+$"], ["^[0-9]+$"]) is not None
    assert content.escaping_sample(["^[a-z]+$"], ["^.+$"]) is None


def test_nested_repeats_stay_bounded():
    start = time.perf_counter()
    regex_cover.covers("(" * 200 + "a" + ")*" * 200, "(" * 100 + "a|b" + ")*" * 100)
    regex_cover.covers("^(a|aa|aaa|b|bb)*(a|aa)*(b|bb)*c$", "^(a|b|ab|ba)*(a|aa|b)*c$")
    assert time.perf_counter() - start < 2


# Patterns of a few bytes whose samples would be gigabytes: a sample's length is known (a repeat
# count times a length) before it is built, so none passes max_chars and none is allocated.
HUGE = "(a{50000}){50000}"
SHORT_ENOUGH = [  # pattern, max_chars, the samples drawn
    (f"^{HUGE}$", 20_000, None),  # None: TooLong, no sample fits
    (f"^(b|{HUGE})$", 20_000, ["b"]),  # the short alternative is still drawn
    (f"^x{HUGE}|^y$", 20_000, ["y"]),
    ("^(ab){3}c$", 7, ["abababc"]),
    ("^(ab){3}c$", 6, None),
    ("^[a-z]{5}(x|y{9})$", 6, ["aaaaax"]),
    (f"^({HUGE})*$", 20_000, [""]),  # an optional repeat is left out
    (f"^({HUGE})+$", 20_000, None),
]


@pytest.mark.parametrize("pattern, max_chars, expected", SHORT_ENOUGH)
def test_a_sample_longer_than_allowed_is_never_built(pattern, max_chars, expected):
    tracemalloc.start()
    try:
        if expected is None:
            with pytest.raises(regex_cover.TooLong):
                regex_cover.samples(pattern, max_chars=max_chars)
        else:
            assert regex_cover.samples(pattern, max_chars=max_chars)[:len(expected)] == expected
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024


def test_non_cover_is_not_claimed_from_a_sample_too_long_to_build():
    tracemalloc.start()
    try:
        assert content.escaping_sample({f"^{HUGE}$"}, {"^b"}) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024
