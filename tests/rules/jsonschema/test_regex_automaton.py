"""Pattern containment by automata, checked against the real ECMA-262 engine (regress)."""
import itertools
import time

import pytest
import regress

from rules.jsonschema import regex_automaton

# (narrow, wide): every string `narrow` finds a match in, `wide` does too.
CONTAINED = [
    ("^(?!.*(local|meta)).*$", "^(?!(?:meta|local)$).*$"),  # issue 19: a lookahead that widened
    ("Read|Write", "Read|Write|LS|NotebookRead"),
    ("^(Read|Write)(\\(.*\\))?$", "^(Read|Write|LS|NotebookRead)(\\(.*\\))?$"),
    ("^(?=a)\\w+$", "^\\w+$"), ("^a$", "a"), ("^[0-9a-f]{64}$", "^([0-9a-f]{64}|0{32})$"),
    ("^\\d{1,3}(\\.\\d{1,3}){3}$", "^[0-9.]+$"), ("^[a-z]+$", "^[a-z]*$"), ("^\\S+$", "^[^ ]+$"),
    ("(.*a){3}", "(.*a){2}"), ("^$", ""), ("^(a|aa|b)*c$", "^(a|b)*c$"),
]
# (accepting, rejecting): some string the first accepts and the second rejects.
ESCAPING = [
    ("^(?!(?:meta|local)$).*$", "^(?!.*(local|meta)).*$"), ("Read|Write|LS", "Read|Write"),
    ("^[a-z]+$", "^[0-9]+$"), ("^(?=a)\\w+$", "^(?=b)\\w+$"), ("a", "^a$"), ("", "^$"),
    ("^[a-z]*$", "^[a-z]+$"), ("^([0-9]{1,3}\\.){3}[0-9]{1,3}$", "^(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])){3}$"),
]
# Beyond the model: back-references, lookbehinds, word boundaries, a lookahead not at the start.
UNDECIDED = [("^(a)\\1$", "^(b)\\1$"), ("(?<=a)b", "b"), ("\\bfoo", "foo"), ("a(?!b)", "a")]
ALPHABET = "ab0 .-\n"  # strings over these, up to MAX_LENGTH, for the engine to judge
MAX_LENGTH = 4


def _find(pattern: str, text: str) -> bool:
    return regress.Regex(pattern).find(text) is not None


def _strings():
    for length in range(MAX_LENGTH + 1):
        for chars in itertools.product(ALPHABET, repeat=length):
            yield "".join(chars)


@pytest.mark.parametrize("narrow,wide", CONTAINED)
def test_containment_is_proven_and_the_engine_agrees(narrow, wide):
    assert regex_automaton.escape(frozenset([narrow]), frozenset([wide])).contained
    assert not [s for s in _strings() if _find(narrow, s) and not _find(wide, s)]


@pytest.mark.parametrize("accepting,rejecting", ESCAPING)
def test_a_witness_is_found_and_the_engine_confirms_it(accepting, rejecting):
    verdict = regex_automaton.escape(frozenset([accepting]), frozenset([rejecting]))
    assert not verdict.contained and verdict.witness is not None
    assert _find(accepting, verdict.witness) and not _find(rejecting, verdict.witness)


@pytest.mark.parametrize("accepting,rejecting", UNDECIDED)
def test_what_the_model_lacks_stays_undecided(accepting, rejecting):
    assert regex_automaton.escape(frozenset([accepting]), frozenset([rejecting])) == regex_automaton.UNDECIDED


def test_all_patterns_of_a_side_hold_together():
    # allOf: "^a" and "b$" together accept "ab..b"; "^ab" alone covers them both only with "b$".
    both = frozenset(["^a", "b$"])
    assert regex_automaton.escape(frozenset(["^a.*b$"]), both).contained
    verdict = regex_automaton.escape(both, frozenset(["^ab$"]))
    assert verdict.witness is not None and _find("^a", verdict.witness) and _find("b$", verdict.witness)


def test_work_is_bounded_on_hard_patterns():
    hard = [("^.{0,50}x.{0,50}$", "^.*x.*$"), (".*a.{30}", ".*a.{29}"), ("(a{100}){100}", "a"),
            ("^[a-z]{1,1000}$", "^[a-y]{1,1000}$")]
    start = time.perf_counter()
    for first, second in hard:
        regex_automaton.escape(frozenset([first]), frozenset([second]))
        regex_automaton.escape(frozenset([second]), frozenset([first]))
    assert time.perf_counter() - start < 3
