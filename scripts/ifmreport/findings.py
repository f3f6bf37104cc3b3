# SPDX-License-Identifier: GPL-2.0
"""The generated prose: number formatting and, per workload, the paragraph
comparing default ondemand on both kernels with performance and
powersave (efficiency, frequency, iowait, the energy of the workload's
CPUs and the p25-p75 verdict)."""

from .results import KERNELS
from .stats import find


MIN_VERDICT_RUNS = 3


def fnum(value, fmt, none="n/a"):
    return none if value is None else format(value, fmt)


def ratio(a, b):
    return a / b if a is not None and b else None


def kernel_sentence(rec, refs, default_note):
    """How ondemand on one kernel compares with performance/powersave."""
    wl, kernel = rec["workload"], rec["kernel"]
    perf = refs.get((wl, kernel, "performance"))
    ps = refs.get((wl, kernel, "powersave"))
    head = f"on the {kernel} kernel, {rec['label']}{default_note}"
    if perf is None:
        return f"{head} takes a median {rec['median_s']:.2f} s (no performance runs to compare with)"
    text = (f"{head} takes {ratio(rec['median_s'], perf):.2f}x performance's time "
            f"(median {rec['median_s']:.2f} s vs {perf:.2f} s")
    if ps is not None:
        text += f"; powersave {ratio(ps, perf):.2f}x"
    return text + ")"


def verdict(base, patched):
    """Sentence on whether patched ondemand is clearly faster, slower or not."""
    if patched["p75_s"] < base["p25_s"]:
        return ("The patched kernel's ondemand is faster: its p25-p75 runtime range "
                f"({patched['p25_s']:.2f}-{patched['p75_s']:.2f} s) lies below the "
                f"baseline's ({base['p25_s']:.2f}-{base['p75_s']:.2f} s).")
    if patched["p25_s"] > base["p75_s"]:
        return ("The patched kernel's ondemand is slower here: its p25-p75 runtime range "
                f"({patched['p25_s']:.2f}-{patched['p75_s']:.2f} s) lies above the "
                f"baseline's ({base['p25_s']:.2f}-{base['p75_s']:.2f} s).")
    return ("The fix makes no clear difference here: the p25-p75 runtime ranges overlap "
            f"(baseline {base['p25_s']:.2f}-{base['p75_s']:.2f} s, patched "
            f"{patched['p25_s']:.2f}-{patched['p75_s']:.2f} s).")


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
    perf = refs.get((wl, kernel, "performance"))
    what = (f"{ratio(other['median_s'], perf):.2f}x performance's time" if perf
            else f"a median {other['median_s']:.2f} s")
    return (f" With io_is_busy={other['io_is_busy']} set by hand, the {kernel} kernel's "
            f"ondemand takes {what} (efficiency {fnum(other['efficiency'], '.2f')}).")


def iops_sentence(rec, default_note):
    """How ondemand on one kernel compares with performance, by fio's IOPS."""
    text = (f"on the {rec['kernel']} kernel, {rec['label']}{default_note} does "
            f"{rec['iops_median']:.0f} IOPS (p25-p75 {rec['iops_p25']:.0f}-"
            f"{rec['iops_p75']:.0f})")
    if rec["iops_ratio_perf"] is not None:
        text += f", {rec['iops_ratio_perf']:.2f}x performance's"
    return text


def iops_verdict(base, patched):
    """Sentence on whether patched ondemand does clearly more I/O or not
    (no verdict from fewer than MIN_VERDICT_RUNS runs a side)."""
    if min(base["iops_runs"], patched["iops_runs"]) < MIN_VERDICT_RUNS:
        return (f"Too few runs with IOPS for a verdict ({base['iops_runs']} and "
                f"{patched['iops_runs']}; {MIN_VERDICT_RUNS} at least).")
    b = f"baseline {base['iops_p25']:.0f}-{base['iops_p75']:.0f}"
    p = f"patched {patched['iops_p25']:.0f}-{patched['iops_p75']:.0f}"
    if patched["iops_p25"] > base["iops_p75"]:
        return f"The patched kernel's ondemand does more I/O: the p25-p75 IOPS ranges ({b}, {p}) do not overlap."
    if patched["iops_p75"] < base["iops_p25"]:
        return f"The patched kernel's ondemand does less I/O here: the p25-p75 IOPS ranges ({b}, {p}) do not overlap."
    return f"The fix makes no clear difference here: the p25-p75 IOPS ranges overlap ({b}, {p})."


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
    if base.get("iops_median") is not None and pat.get("iops_median") is not None:
        return iops_finding(base, pat)
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
