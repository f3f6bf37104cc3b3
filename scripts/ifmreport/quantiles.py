# SPDX-License-Identifier: GPL-2.0
"""Percentiles and medians of a list of numbers (numpy's default rule),
a leaf module: stats, bootstrap and intervals use them."""

import math


def percentile(values, q):
    """Linear interpolation between closest ranks (numpy's default)."""
    v = sorted(values)
    pos = (len(v) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def median(values):
    """The 50th percentile, or None of no values."""
    return percentile(values, 0.5) if values else None
