"""The compact real-history sample: our verdicts are the adjudicated ones, the peers' are as recorded.

Each entry of sample/expected.json is one consecutive pair of a public repository's schema file
(tests.realhistory.keep copied it), judged in each run (buf category or Avro mode). `expected`
is the adjudicated truth; where it differs from `ours` the entry names a pending fix, and the
test then holds today's verdict, so that the fix must update the entry (and the report).
"""
import json
from pathlib import Path

import pytest

from tests.realhistory import ours, peers

SAMPLE = Path(__file__).parent / "sample"
ENTRIES = json.loads((SAMPLE / "expected.json").read_text())
RUNS = [(entry, run) for entry in ENTRIES for run in entry["runs"]]


def _id(item) -> str:
    entry, run = item
    return f"{entry['format']}-{entry['case']}-{run}"


def _trees(entry) -> tuple[Path, Path]:
    case = SAMPLE / entry["repo"].replace("/", "+") / entry["case"]
    return case / "old", case / "new"


@pytest.mark.parametrize("item", RUNS, ids=_id)
def test_our_verdict_is_the_adjudicated_one(item):
    entry, run = item
    old, new = _trees(entry)
    got = ours.verdict(entry["format"], old, new, entry["file"], entry["root"], run=run)
    want = entry["runs"][run]
    assert not got.error.startswith(ours.CRASH), got.error
    if want.get("pending"):
        assert got.compatible == want["ours"]["compatible"], (
            f"fixed ({want['pending']})? set ours to the expected verdict and drop pending")
        return
    assert got.compatible == want["expected"]["compatible"], (got.rules, got.error)
    assert list(got.rules) == want["ours"]["rules"]


@pytest.mark.parametrize("item", [i for i in RUNS if i[0]["format"] != "jsonschema"], ids=_id)
def test_the_peer_verdict_is_as_recorded(item, tmp_path):
    entry, run = item
    old, new = _trees(entry)
    if entry["format"] == "protobuf":
        got = peers.buf(old / entry["root"], new / entry["root"], entry["file"], run, cache=tmp_path)
    else:
        got = peers.avro(old / entry["file"], new / entry["file"], run)
    recorded = entry["runs"][run]["peer"]
    assert (got.compatible, list(got.rules)) == (recorded["compatible"], recorded["rules"])


def test_every_pending_entry_disagrees_and_every_other_agrees_with_the_truth():
    for entry, run in RUNS:
        want = entry["runs"][run]
        differs = want["ours"]["compatible"] != want["expected"]["compatible"]
        assert differs == bool(want.get("pending")), (entry["case"], run)
