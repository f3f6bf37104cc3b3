# SPDX-License-Identifier: GPL-2.0
"""A configuration's 95% intervals (bootstrap.py) and its ratios to
performance's median on the same kernel and workload, as summary.json
keys; which ratio judges a record (IOPS for a record with IOPS, else the
runtime); and the lab-fault flag: a governor that beats performance, the
governor that holds fmax, beyond the noise."""

from . import bootstrap
from .quantiles import median

LAB_FAULT_TEXT = "lab noise or a lab defect, not a result"


def ratio(a, b):
    """a / b; None when either is None or b is 0."""
    return a / b if a is not None and b else None


def runtime_keys(times, perf_times):
    """The runtime interval keys of a record: times are the config's
    successful runtimes, perf_times performance's of the same kernel and
    workload (pooled). Performance's own ratio is 1, its interval from
    resampling both sides alike (the spread of a ratio of no difference)."""
    ci = bootstrap.median_ci(times)
    perf = median(perf_times)
    return {"ci95_low_s": ci[0] if ci else None,
            "ci95_high_s": ci[1] if ci else None,
            "ratio_perf": ratio(median(times), perf),
            "ratio_perf_ci95": bootstrap.ratio_ci(times, perf_times) if perf else None}


def iops_keys(values, perf_values):
    """The IOPS interval keys of a record, as runtime_keys."""
    perf = median(perf_values)
    return {"iops_ci95": bootstrap.median_ci(values),
            "iops_ratio_perf_ci95": bootstrap.ratio_ci(values, perf_values) if perf else None}


def by_iops(rec):
    """A record with IOPS (fio) is judged by them, not by its runtime."""
    return rec.get("iops_median") is not None


def judged_ratio(rec):
    """(ratio to performance, its interval or None) that judges rec."""
    if by_iops(rec):
        return rec["iops_ratio_perf"], rec["iops_ratio_perf_ci95"]
    return rec["ratio_perf"], rec["ratio_perf_ci95"]


def is_lab_fault(rec):
    """Whether rec beats performance beyond its interval: a runtime ratio
    whose whole interval lies below 1, or an IOPS ratio whose whole
    interval lies above 1 (efficiency above 1 beyond the noise is the same
    condition). Performance itself, the reference, never is."""
    if rec["governor"] == "performance":
        return False
    _value, ci = judged_ratio(rec)
    if ci is None:
        return False
    return ci[0] > 1 if by_iops(rec) else ci[1] < 1


def fault_detail(rec):
    """What makes rec a lab fault, e.g. "its runtime is 0.91x performance's,
    95% interval 0.88-0.95, wholly below 1"."""
    value, ci = judged_ratio(rec)
    what, side = ("IOPS are", "above") if by_iops(rec) else ("runtime is", "below")
    return (f"its {what} {value:.2f}x performance's, 95% interval "
            f"{ci[0]:.2f}-{ci[1]:.2f}, wholly {side} 1")
