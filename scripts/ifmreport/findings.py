# SPDX-License-Identifier: GPL-2.0
"""The generated prose: number formatting and, per workload, the paragraph
comparing default ondemand on both kernels with performance and
powersave (efficiency, frequency, iowait, the energy of the workload's
CPUs and the verdict from the 95% intervals of their ratios to
performance). A configuration flagged as a lab fault (intervals.py) is
named as one and never stated as a result."""

from .intervals import LAB_FAULT_TEXT, fault_detail, ratio
from .results import KERNELS
from .stats import find


MIN_VERDICT_RUNS = 3


def fnum(value, fmt, none="n/a"):
    return none if value is None else format(value, fmt)


def fci(ci, fmt=".2f"):
    """An interval [low, high] as "low-high", "n/a" for None."""
    return "n/a" if ci is None else f"{ci[0]:{fmt}}-{ci[1]:{fmt}}"


def kernel_sentence(rec, refs, default_note):
    """How ondemand on one kernel compares with performance/powersave."""
    wl, kernel = rec["workload"], rec["kernel"]
    perf = refs.get((wl, kernel, "performance"))
    ps = refs.get((wl, kernel, "powersave"))
    head = f"on the {kernel} kernel, {rec['label']}{default_note}"
    if perf is None:
        return f"{head} takes a median {rec['median_s']:.2f} s (no performance runs to compare with)"
    if not perf:
        return f"{head} takes a median {rec['median_s']:.2f} s (performance's median is 0: no ratio)"
    text = (f"{head} takes {ratio(rec['median_s'], perf):.2f}x performance's time "
            f"(median {rec['median_s']:.2f} s vs {perf:.2f} s")
    if ps is not None:
        text += f"; powersave {ratio(ps, perf):.2f}x"
    return text + ")"


def ratio_text(rec, key="ratio_perf"):
    """A ratio to performance and its interval, e.g. "1.09x (0.97-1.24)"."""
    if rec[key] is None:
        return "n/a"
    return f"{rec[key]:.2f}x ({fci(rec[key + '_ci95'])})"


def interval_verdict(base, patched, key, better, worse):
    """Sentence from the 95% intervals of KEY (ratio_perf or
    iops_ratio_perf) of both kernels' ondemand: patched BETTER when its
    interval lies wholly on the better side of the baseline's (lower
    runtime ratio, higher IOPS ratio), WORSE when wholly on the other, else
    no clear difference, saying then where each interval lies against 1
    (performance's speed)."""
    b, p = base[key + "_ci95"], patched[key + "_ci95"]
    what = "runtime" if key == "ratio_perf" else "IOPS"
    both = f"baseline {ratio_text(base, key)}, patched {ratio_text(patched, key)}"
    if b is None or p is None:
        return (f"No verdict: no 95% interval of the {what} relative to performance on "
                f"both kernels ({both}; an interval needs 2 successful runs of the configuration "
                "and of performance, and performance's median above 0).")
    lower = p[1] < b[0]
    if lower or p[0] > b[1]:
        gain = lower == (key == "ratio_perf")
        return (f"The patched kernel's ondemand {better if gain else worse}: the 95% intervals "
                f"of the {what} relative to performance do not overlap ({both}).")
    return (f"The fix makes no clear difference here: the 95% intervals of the {what} "
            f"relative to performance overlap ({both}). Each against performance, the "
            f"baseline's interval {against_perf(b, key)}, the patched kernel's "
            f"{against_perf(p, key)}.")


def against_perf(ci, key):
    """Where a 95% interval of a ratio to performance lies against 1."""
    if ci[0] <= 1 <= ci[1]:
        return "contains 1 (not told apart from performance)"
    above = ci[0] > 1
    if key == "ratio_perf":
        return "lies above 1 (slower)" if above else "lies below 1 (faster)"
    return "lies above 1 (more I/O)" if above else "lies below 1 (less I/O)"


def verdict(base, patched):
    """Sentence on whether patched ondemand is clearly faster, slower or not."""
    return interval_verdict(base, patched, "ratio_perf", "is faster", "is slower here")


def fault_sentence(recs):
    """The sentence naming the lab faults among recs, or ""."""
    faults = [r for r in recs if r["lab_fault"]]
    if not faults:
        return ""
    return ("Lab fault: " + "; ".join(f"the {r['kernel']} kernel's {r['label']} beats "
                                      f"performance ({fault_detail(r)})" for r in faults)
            + f": {LAB_FAULT_TEXT}.")


def change(a, b, fmt, unit=""):
    text = f"{fnum(a, fmt)} -> {fnum(b, fmt)}{unit}"
    if a and b is not None:
        text += f" ({(b - a) / a * 100:+.1f}%)"
    return text


def other_io_sentence(records, refs, wl, kernel, io):
    """Ondemand with the non-default io_is_busy on one kernel, if run."""
    other = find(records, wl, kernel, "ondemand", 1 - io if io in (0, 1) else ...)
    if other is None or other["io_is_busy"] == io or not other["runs"]:
        return ""
    head = f" With io_is_busy={other['io_is_busy']} set by hand, the {kernel} kernel's ondemand"
    if other["lab_fault"]:
        return f"{head} beats performance ({fault_detail(other)}): a lab fault, {LAB_FAULT_TEXT}."
    perf = refs.get((wl, kernel, "performance"))
    what = (f"{ratio(other['median_s'], perf):.2f}x performance's time" if perf
            else f"a median {other['median_s']:.2f} s")
    return f"{head} takes {what} (efficiency {fnum(other['efficiency'], '.2f')})."


def iops_sentence(rec, default_note):
    """How ondemand on one kernel compares with performance, by fio's IOPS."""
    text = (f"on the {rec['kernel']} kernel, {rec['label']}{default_note} does "
            f"{rec['iops_median']:.0f} IOPS (p25-p75 {rec['iops_p25']:.0f}-"
            f"{rec['iops_p75']:.0f})")
    if rec["iops_ratio_perf"] is not None:
        text += (f", {rec['iops_ratio_perf']:.2f}x performance's (95% interval "
                 f"{fci(rec['iops_ratio_perf_ci95'])})")
    return text


def iops_verdict(base, patched):
    """Sentence on whether patched ondemand does clearly more I/O or not
    (no verdict from fewer than MIN_VERDICT_RUNS runs a side)."""
    if min(base["iops_runs"], patched["iops_runs"]) < MIN_VERDICT_RUNS:
        return (f"Too few runs with IOPS for a verdict ({base['iops_runs']} and "
                f"{patched['iops_runs']}; {MIN_VERDICT_RUNS} at least).")
    return interval_verdict(base, patched, "iops_ratio_perf", "does more I/O",
                            "does less I/O here")


def iops_finding(base, pat):
    """The paragraph for a fio workload: fio runs for a fixed time, so its
    IOPS and the energy per I/O are the result, not the runtime."""
    first = iops_sentence(base, " (its default)")
    return (first[0].upper() + first[1:] + "; "
            + iops_sentence(pat, " (its default)") + ". "
            + f"Governor efficiency by IOPS {fnum(base['efficiency'], '.2f')} -> "
            + f"{fnum(pat['efficiency'], '.2f')}"
            + f", mean busy frequency {change(base['mean_busy_mhz'], pat['mean_busy_mhz'], '.0f', ' MHz')}"
            + ", modelled energy of the workload's CPUs per I/O "
            + f"{change(base['energy_per_io_mj'], pat['energy_per_io_mj'], '.3f', ' mJ')}. "
            + iops_verdict(base, pat))


def lab_fault_finding(base, pat):
    """The paragraph when either kernel's default ondemand is a lab fault:
    what was flagged, no comparison and no verdict."""
    return ("No comparison for this workload. " + fault_sentence((base, pat))
            + " No verdict is drawn from it.")


def runtime_finding(records, refs, wl, defaults, base, pat):
    """The paragraph of a workload judged by its runtime."""
    text = (kernel_sentence(base, refs, " (its default)").capitalize() + "; "
            + kernel_sentence(pat, refs, " (its default)") + ". "
            + f"Governor efficiency {fnum(base['efficiency'], '.2f')} -> {fnum(pat['efficiency'], '.2f')}"
            + f", mean busy frequency {change(base['mean_busy_mhz'], pat['mean_busy_mhz'], '.0f', ' MHz')}"
            + f", iowait share {fnum(base['iowait_share'], '.1%')} -> {fnum(pat['iowait_share'], '.1%')}"
            + ", modelled energy of the workload's CPUs "
            + f"{change(base['energy_j'], pat['energy_j'], '.2f', ' J')}. "
            + verdict(base, pat))
    for k in KERNELS:
        text += other_io_sentence(records, refs, wl, k, defaults[k])
    return text


def finding(records, refs, wl, defaults):
    """One generated paragraph comparing default ondemand on both kernels."""
    ods = {k: find(records, wl, k, "ondemand", defaults[k]) for k in KERNELS}
    missing = [k for k in KERNELS if not ods[k] or not ods[k]["runs"]]
    if missing:
        return ("No comparison for this workload: no successful runs of "
                + " or ".join(f"the {k} kernel's ondemand with io_is_busy="
                              f"{'absent' if defaults[k] is None else defaults[k]}"
                              for k in missing) + ".")
    base, pat = ods["baseline"], ods["patched"]
    if base["lab_fault"] or pat["lab_fault"]:
        return lab_fault_finding(base, pat)
    if base.get("iops_median") is not None and pat.get("iops_median") is not None:
        return iops_finding(base, pat)
    return runtime_finding(records, refs, wl, defaults, base, pat)
