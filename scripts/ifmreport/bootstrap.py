# SPDX-License-Identifier: GPL-2.0
"""Percentile-bootstrap confidence intervals of a median and of a ratio of
two medians. Deterministic: each call resamples with the random.Random it
is given, or with a new one seeded SEED, so the same values always give
the same interval and no global random state is touched. An interval is
[low, high], or None from fewer than MIN_VALUES values a side."""

import random

from .quantiles import median, percentile

SEED = 20261203
RESAMPLES = 2000
LEVEL = 0.95
MIN_VALUES = 2


def make_rng(rng=None):
    """rng, or a new random.Random seeded SEED."""
    return rng if rng is not None else random.Random(SEED)


def resampled_medians(values, rng, resamples=RESAMPLES):
    """The medians of RESAMPLES resamples of values, each drawn with
    replacement and as long as values."""
    n = len(values)
    return [median(rng.choices(values, k=n)) for _ in range(resamples)]


def percentile_interval(estimates, level=LEVEL):
    """[low, high]: the (1 - level) / 2 and (1 + level) / 2 percentiles of
    the bootstrap estimates (linear interpolation, as quantiles.percentile)."""
    tail = (1 - level) / 2
    return [percentile(estimates, tail), percentile(estimates, 1 - tail)]


def median_ci(values, rng=None, resamples=RESAMPLES, level=LEVEL):
    """The interval of the median of values; None from fewer than
    MIN_VALUES values."""
    if len(values) < MIN_VALUES:
        return None
    return percentile_interval(resampled_medians(values, make_rng(rng), resamples), level)


def ratio_ci(num, den, rng=None, resamples=RESAMPLES, level=LEVEL):
    """The interval of median(num) / median(den), num and den resampled
    independently (num first, from the same rng); None from fewer than
    MIN_VALUES values a side or when a resample's denominator median is 0
    (the ratio is undefined)."""
    if len(num) < MIN_VALUES or len(den) < MIN_VALUES:
        return None
    rng = make_rng(rng)
    tops = resampled_medians(num, rng, resamples)
    bottoms = resampled_medians(den, rng, resamples)
    if any(b == 0 for b in bottoms):
        return None
    return percentile_interval([t / b for t, b in zip(tops, bottoms)], level)
