"""How long the hypothesis fuzz tests run: a short budget in the normal suite, longer with
`pytest --fuzz-long` or RULECRAFT_FUZZ_EXAMPLES=N (see docs/testing.md)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

ENV = "RULECRAFT_FUZZ_EXAMPLES"
LONG = 20  # --fuzz-long: this many times each test's normal number of examples


def fuzz_settings(examples: int):
    """Hypothesis settings for a fuzz test that runs `examples` cases in the normal suite."""
    wanted = os.environ.get(ENV, "")
    count = int(wanted) if wanted.isdigit() and int(wanted) > 0 else examples
    if os.environ.get("RULECRAFT_FUZZ_LONG") == "1" and not wanted:
        count = examples * LONG
    return settings(max_examples=count, deadline=None, derandomize=not wanted and count == examples,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])
