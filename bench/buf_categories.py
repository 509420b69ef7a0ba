"""How often our protobuf verdicts match `buf breaking`, per buf category, on the seeded mutations.

    python bench/buf_categories.py

The mutations and rule groups of tests/rules/protobuf/test_differential.py, run through the buf
CLI in the venv under each of WIRE, WIRE_JSON, PACKAGE and FILE, and through the engine under the
same category (full mode). Prints, per category, the mutations whose rule groups are identical
and the kinds of the rest (each explained in the test's EXPLAINED). A report, never asserted.
"""
from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.model import Mode  # noqa: E402
from tests.rules.protobuf import test_differential as differential  # noqa: E402
from tests.rules.protobuf.support import check, source  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for category, selected in differential.CATEGORIES.items():
            found = differential._run_buf(category, Path(tmp))
            same, rest = 0, Counter()
            for mutation in differential.MUTATIONS:
                report = check(source(mutation.old, path=f"{mutation.name}.proto"),
                               source(mutation.new, path=f"{mutation.name}.proto"),
                               categories=selected, mode=Mode.FULL)
                ours = differential._groups({f.rule for f in report.findings},
                                            differential.GROUP_OF_OURS)
                if ours == differential._buf_groups(found[mutation.name]):
                    same += 1
                else:
                    rest[mutation.kind] += 1
            total = len(differential.MUTATIONS)
            print(f"{category}: {same}/{total} identical; explained differences: "
                  + (", ".join(f"{kind} x{n}" for kind, n in sorted(rest.items())) or "none"))


if __name__ == "__main__":
    main()
