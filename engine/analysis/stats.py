"""Paired differences and their 95% confidence intervals (Student's t)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)
_Z95 = 1.959964


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with `df` degrees of freedom.

    >>> t95(10), round(t95(1000), 3)
    (2.228, 1.962)
    """
    if df < 1:
        return math.inf
    if df <= len(_T95):
        return _T95[df - 1]
    z = _Z95  # Cornish-Fisher expansion: within 0.001 of the exact value above 30
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


@dataclass(frozen=True)
class Paired:
    """The mean of paired differences `b - a` with its 95% confidence interval."""

    diff: float
    low: float
    high: float
    n: int

    @property
    def significant(self) -> bool:
        """Whether the interval excludes zero."""
        return self.low > 0 or self.high < 0

    def as_dict(self, digits: int = 4) -> dict:
        return {
            "diff": round(self.diff, digits),
            "ci95": [_finite(self.low, digits), _finite(self.high, digits)],
            "significant": self.significant,
        }


def paired(a: Sequence[float], b: Sequence[float]) -> Paired:
    """Paired comparison of two samples over the same games (same seeds)."""
    diffs = [y - x for x, y in zip(a, b)]
    n = len(diffs)
    d = mean(diffs)
    if n < 2:
        return Paired(d, -math.inf, math.inf, n)  # one game says nothing about spread
    var = sum((x - d) ** 2 for x in diffs) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    low, high = d - half, d + half
    if _is_rate(a) and _is_rate(b):  # a difference of two rates lies within [-1, 1]
        low, high = max(low, -1.0), min(high, 1.0)
    return Paired(d, low, high, n)


def _is_rate(values: Sequence[float]) -> bool:
    """Whether every value is 0 or 1 (an event that happened or not: its mean is a rate)."""
    return all(v == 0 or v == 1 for v in values)


def _finite(value: float, digits: int) -> float | None:
    return round(value, digits) if math.isfinite(value) else None
