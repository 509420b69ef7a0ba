"""How many inputs each fuzz target ran: printed at the end of the session for the report."""
from __future__ import annotations

import os
from collections import Counter

from hypothesis import HealthCheck, settings

RAN: Counter = Counter()
# FUZZ_SCALE multiplies every target's example count (1 in CI; e.g. 50 for a long fuzz run).
SCALE = max(int(os.environ.get("FUZZ_SCALE", "1")), 1)


def fuzz_settings(examples: int, *, deadline_ms: int | None = None):
    return settings(max_examples=examples * SCALE, deadline=deadline_ms, derandomize=SCALE == 1,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])
