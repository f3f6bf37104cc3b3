# SPDX-License-Identifier: GPL-2.0
"""Adaptive repeats: which (kernel, workload, config) of a results folder
still need runs. The experiment asks between rounds:

    scripts/converged R --min-runs 3 --tol 0.02
    (or: PYTHONPATH=scripts python3 -m ifmreport.converge R ...)

and gets one TAB-separated line "kernel workload config" per config that
is not done, config named as the experiment names it (performance,
ondemand-io0, conservative, ...); no line when every config is done.

A config is done with at least MIN_RUNS values and a 95% interval
(bootstrap.py) within +-TOL of its estimate (high <= e x (1 + TOL) and
low >= e x (1 - TOL)): performance's median itself, any other config's
ratio to performance's median on the same kernel and workload. A workload
named fio-* or with fio's JSON is judged by IOPS (values: the successful
runs with IOPS), any other by runtime (values: the successful runs, those
whose sampler missed deadlines too). Reads runs.tsv, meta.json when there
(the workload order) and fio's JSON, never the sampler TSVs.

Exit status: 0 with the list, 2 on bad input (a message on stderr)."""

import argparse
import sys
from pathlib import Path

from . import bootstrap
from .intervals import ratio
from .quantiles import median
from .results import ReportError, load_all_iops, load_meta, load_runs
from .stats import ordered_configs

PROG = "converge"


def config_name(governor, io):
    """The experiment's name of a config: ondemand-io1, performance, ..."""
    return governor if io is None else f"{governor}-io{io}"


def within(interval, estimate, tol):
    """Whether interval [low, high] lies within +-tol of estimate."""
    if interval is None or estimate is None:
        return False
    return interval[0] >= estimate * (1 - tol) and interval[1] <= estimate * (1 + tol)


def config_values(runs, config, value):
    """value(run) of the config's successful runs, None values left out."""
    vals = (value(r) for r in runs if r.config == config and r.status == 0)
    return [v for v in vals if v is not None]


def is_done(values, perf_values, is_perf, min_runs, tol):
    """The rule of the module docstring for one config."""
    if len(values) < min_runs:
        return False
    if is_perf:
        return within(bootstrap.median_ci(values), median(values), tol)
    estimate = ratio(median(values), median(perf_values))
    if estimate is None:
        return False
    return within(bootstrap.ratio_ci(values, perf_values), estimate, tol)


def value_of(runs, iops, workload):
    """The per-run value a workload is judged by: IOPS for fio, runtime
    for any other."""
    if workload.startswith("fio-") or any(r.order in iops for r in runs
                                          if r.workload == workload):
        return lambda r: iops.get(r.order)
    return lambda r: r.runtime


def perf_values(runs, workload, kernel, value):
    """value of the successful performance runs of a workload and kernel,
    pooled whatever their io_is_busy."""
    vals = (value(r) for r in runs if r.status == 0 and r.governor == "performance"
            and (r.workload, r.kernel) == (workload, kernel))
    return [v for v in vals if v is not None]


def pending(runs, meta, iops, min_runs, tol):
    """[(kernel, workload, config name)] of the configs in runs.tsv that
    are not done, in report order."""
    out = []
    for config in ordered_configs(runs, meta):
        wl, kernel, gov, io = config
        value = value_of(runs, iops, wl)
        if not is_done(config_values(runs, config, value),
                       perf_values(runs, wl, kernel, value),
                       gov == "performance", min_runs, tol):
            out.append((kernel, wl, config_name(gov, io)))
    return out


def load(rdir):
    """(runs, meta, iops) of a results folder, ReportError when unusable;
    meta.json is optional (the experiment writes it at its end)."""
    if not rdir.is_dir():
        raise ReportError(f"{rdir}: not a directory")
    runs = load_runs(rdir)
    meta = load_meta(rdir) if (rdir / "meta.json").exists() else {}
    iops = load_all_iops(runs, on_warn=lambda msg: print(f"{PROG}: warning: {msg}",
                                                           file=sys.stderr))
    return runs, meta, iops


DESCRIPTION = """Which (kernel, workload, config) of a results directory still need
runs, for an experiment's adaptive repeats."""

EPILOG = """\
Prints one line per config of R/runs.tsv still needing runs, TAB-separated:
kernel workload config (config as the experiment names it: performance,
ondemand-io0, conservative, ...); none when all are done. A config is done
with at least --min-runs values and a 95% bootstrap interval within +-tol
of its estimate: performance's median, any other config's ratio to
performance's median (same kernel and workload); by IOPS for a fio
workload, else by runtime. Reads runs.tsv, meta.json when there and fio's
JSON, no sampler TSV (plots/README.md: scripts/converged).

Exit status: 0 with the list (maybe empty), 2 on bad input (a message on
stderr)."""


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="scripts/converged", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results", metavar="R", help="results directory (holds runs.tsv)")
    p.add_argument("--min-runs", type=int, default=3, metavar="N",
                   help="successful runs a config needs at least (default: 3)")
    p.add_argument("--tol", type=float, default=0.02, metavar="F",
                   help="relative half-width the 95%% interval must lie within (default: 0.02)")
    args = p.parse_args(argv)
    if args.min_runs < 1:
        p.error("--min-runs: at least 1")
    if not 0 <= args.tol < 1:
        p.error("--tol: from 0 to below 1")
    return args


def main(argv):
    args = parse_args(argv)
    try:
        runs, meta, iops = load(Path(args.results))
    except ReportError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    for kernel, wl, name in pending(runs, meta, iops, args.min_runs, args.tol):
        print(f"{kernel}\t{wl}\t{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
