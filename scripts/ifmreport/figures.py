# SPDX-License-Identifier: GPL-2.0
"""The figures: the TSVs feeding them (always written), gnuplot runs of the
plots/ scripts, and the headline, before/after, per-workload and
ground-truth figures of a report as Figure (base path and caption)."""

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import validation  # scripts/validation.py: the ground truth

from .intervals import by_iops
from .results import KERNELS, MISSED_EXCLUDE_PCT, ReportError, config_label, mhz_key, warn
from .stats import find, representative_run

FORMATS = ("png", "svg")
PLOTS_SRC = Path(__file__).resolve().parent.parent.parent / "plots"
GNUPLOT_TIMEOUT_S = 600
# Each kernel's colour in the headline figure, whichever kernels it shows.
KERNEL_COLOURS = {"baseline": "#8c8c8c", "patched": "#1f77b4"}


def slug(text):
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "x"


def config_slug(rec):
    io = "" if rec["io_is_busy"] is None else f"-io{rec['io_is_busy']}"
    return f"{rec['kernel']}-{rec['governor']}{io}"


def tsv_value(v):
    return "NaN" if v is None else f"{v:.6g}"


def write_runtime_tsv(path, records, wl):
    """The runtime figure's TSV: the kernels with a median runtime of this
    workload (runtime.gp cannot read a column of NaN only); False when
    there are none."""
    recs = [r for r in records if r["workload"] == wl]
    labels = list(dict.fromkeys(r["label"] for r in recs))
    kernels = [k for k in KERNELS
               if any(r["kernel"] == k and r["median_s"] is not None for r in recs)]
    lines = [f"# runtime of workload {wl}: median, p25, p75 over successful runs (s)",
             "config\t" + "\t".join(f"{k}\tp25\tp75" for k in kernels)]
    for label in labels:
        cells = [label]
        for k in kernels:
            rec = next((r for r in recs if r["kernel"] == k and r["label"] == label), None)
            cells += [tsv_value(rec and rec[key]) for key in ("median_s", "p25_s", "p75_s")]
        lines.append("\t".join(cells))
    path.write_text("\n".join(lines) + "\n")
    return bool(kernels)


def headline_key(records, wl):
    """The ratio the headline figure of a workload shows: iops_ratio_perf
    when any of its records has IOPS, else ratio_perf."""
    return ("iops_ratio_perf" if any(by_iops(r) for r in records if r["workload"] == wl)
            else "ratio_perf")


def headline_label(recs, label):
    """A config's row label, with the kernels where it is a lab fault."""
    faults = [r["kernel"] for r in recs if r["label"] == label and r["lab_fault"]]
    return f"{label} [lab fault: {', '.join(faults)}]" if faults else label


def write_headline_tsv(path, records, wl):
    """The headline figure's TSV: per config, per kernel with a ratio, the
    ratio to performance and its 95% interval; returns those kernels
    (none: no figure)."""
    key = headline_key(records, wl)
    recs = [r for r in records if r["workload"] == wl]
    labels = list(dict.fromkeys(r["label"] for r in recs))
    kernels = [k for k in KERNELS if any(r["kernel"] == k and r[key] is not None for r in recs)]
    lines = [f"# workload {wl}: {key}, the 95% bootstrap interval (low, high)",
             "config\t" + "\t".join(f"{k}\tlow\thigh" for k in kernels)]
    for label in labels:
        cells = [headline_label(recs, label)]
        for k in kernels:
            rec = next((r for r in recs if r["kernel"] == k and r["label"] == label), None)
            ci = (rec and rec[key + "_ci95"]) or [None, None]
            cells += [tsv_value(rec and rec[key]), tsv_value(ci[0]), tsv_value(ci[1])]
        lines.append("\t".join(cells))
    path.write_text("\n".join(lines) + "\n")
    return kernels


def ratio_what(key):
    """What a headline ratio is of: "IOPS" or "runtime"."""
    return "IOPS" if key == "iops_ratio_perf" else "runtime"


def headline_caption(wl, key):
    what = ratio_what(key)
    side = "above" if what == "IOPS" else "below"
    return (f"{wl}: median {what} / performance's median on the same kernel, per "
            "configuration, baseline beside patched; error bars: the 95% bootstrap interval "
            "(none from fewer than 2 runs); dashed line: performance. An interval wholly "
            f"{side} 1 is a lab fault, marked [lab fault: kernel].")


def write_tis_tsv(path, records, wl, model):
    recs = [r for r in records if r["workload"] == wl]
    khz = set(model.freqs_khz) if model else set()
    mhz = {mhz_key(k) for k in khz} | {m for r in recs for m in r["time_in_state"]}
    cols = sorted(mhz, key=float)
    lines = [f"# workload {wl}: share of the workload CPU's busy time at each P-state",
             "config\t" + "\t".join(cols)]
    for i, k in enumerate(KERNELS):
        rows = [r for r in recs if r["kernel"] == k and r["time_in_state"]]
        if i and rows and len(lines) > 2:
            lines.append("\t".join([""] + ["NaN"] * len(cols)))
        for r in rows:
            lines.append("\t".join([f"{k} {r['label']}"]
                                   + [f"{r['time_in_state'].get(c, 0.0):.6g}" for c in cols]))
    path.write_text("\n".join(lines) + "\n")
    return len(lines) > 2


def gp_str(text):
    return "'" + str(text).replace("'", "''") + "'"


def gnuplot(script, out, variables):
    """Run plots/SCRIPT with -e variables; ReportError on failure."""
    assign = "; ".join(f"{k}={gp_str(v) if isinstance(v, (str, Path)) else v}"
                       for k, v in variables.items())
    cmd = ["gnuplot", "-e", f"{assign}; out={gp_str(out)}", str(PLOTS_SRC / script)]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=GNUPLOT_TIMEOUT_S,
                             check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ReportError(f"gnuplot {script} for {out}: {e}") from e
    if res.returncode != 0 or not Path(out).is_file() or Path(out).stat().st_size == 0:
        err = [ln for ln in res.stderr.splitlines() if ln.strip()]
        raise ReportError(f"{PLOTS_SRC / script}: gnuplot failed for {out}: "
                          f"{err[-1] if err else 'exit ' + str(res.returncode)}")


@dataclass
class Figure:
    """One figure of the report: base path (no extension) and caption."""
    base: Path
    caption: str


def run_title(run, meta):
    rel = ((meta.get("kernels") or {}).get(run.kernel) or {}).get("release")
    kern = f"{run.kernel} ({rel})" if rel else run.kernel
    return (f"{kern}, {config_label(run.governor, run.io)}, {run.workload}: "
            f"run {run.repeat}, {run.runtime:.2f} s")


def excluded_note(run, samples):
    """A caption's note when a chart's run is one whose sampler missed more
    than MISSED_EXCLUDE_PCT % of its deadlines (chosen only when its config
    has no other run with samples), else ""."""
    s = samples[run.order]
    if not s.excluded:
        return ""
    return (f" Run {run.repeat} of {config_label(run.governor, run.io)} ({run.kernel}) is one "
            f"whose sampler missed {s.missed_pct:.2f}% of its deadlines (above "
            f"{MISSED_EXCLUDE_PCT:g}%), left out of the frequency and energy statistics: its "
            "configuration has no other run with samples.")


def headline(ctx, wl, formats):
    """The headline figure of one workload (its TSV always), or None."""
    base = ctx.plots / f"headline-{slug(wl)}"
    key = headline_key(ctx.records, wl)
    kernels = write_headline_tsv(base.with_suffix(".tsv"), ctx.records, wl)
    if not kernels or not formats:
        return None
    what = ratio_what(key)
    for fmt in formats:
        gnuplot("headline.gp", f"{base}.{fmt}", {
            "in": base.with_suffix(".tsv"), "title": f"{wl}: {what} / performance's",
            "ylabel": f"median {what} / performance's median",
            "colours": " ".join(KERNEL_COLOURS[k] for k in kernels)})
    return Figure(base, headline_caption(wl, key))


def before_after(ctx, wl, defaults, formats):
    """The before/after figure of one workload, or None."""
    recs = [find(ctx.records, wl, k, "ondemand", defaults[k]) for k in KERNELS]
    if not all(recs):
        return None
    runs = [representative_run(ctx.runs, ctx.samples, r) for r in recs]
    if not all(runs):
        warn(f"workload {wl}: no ondemand run with samples on both kernels; no before/after figure")
        return None
    base = ctx.plots / f"beforeafter-{slug(wl)}"
    title = f"{wl}: ondemand, baseline (top) vs patched (bottom)"
    for fmt in formats:
        gnuplot("beforeafter.gp", f"{base}.{fmt}", {
            "base": runs[0].samples, "patched": runs[1].samples, "title": title,
            "cpu": ctx.meta.get("workload_cpu", 0),
            "base_label": run_title(runs[0], ctx.meta),
            "patched_label": run_title(runs[1], ctx.meta)})
    return Figure(base, f"{title}. Top: {run_title(runs[0], ctx.meta)}; bottom: "
                        f"{run_title(runs[1], ctx.meta)} (the runs nearest each "
                        "configuration's median runtime); CPU "
                        f"{ctx.meta.get('workload_cpu', 0)}."
                        + "".join(excluded_note(r, ctx.samples) for r in runs))


def workload_figures(ctx, wl, formats):
    """Runtime, time-in-state and per-config time charts of one workload."""
    figs = []
    rt = ctx.plots / f"runtime-{slug(wl)}"
    has_rt = write_runtime_tsv(rt.with_suffix(".tsv"), ctx.records, wl)
    tis = ctx.plots / f"time-in-state-{slug(wl)}"
    has_tis = write_tis_tsv(tis.with_suffix(".tsv"), ctx.records, wl, ctx.model)
    if not formats:
        return figs
    if has_rt:
        for fmt in formats:
            gnuplot("runtime.gp", f"{rt}.{fmt}", {"in": rt.with_suffix(".tsv"),
                                                  "title": f"{wl}: runtime"})
        figs.append(Figure(rt, f"{wl}: median runtime per configuration, error bars p25..p75."))
    if has_tis:
        for fmt in formats:
            gnuplot("time-in-state.gp", f"{tis}.{fmt}", {
                "in": tis.with_suffix(".tsv"), "title": f"{wl}: time in state"})
        figs.append(Figure(tis, f"{wl}: share of the workload CPU's busy time at each P-state."))
    for rec in (r for r in ctx.records if r["workload"] == wl):
        run = representative_run(ctx.runs, ctx.samples, rec)
        if run is None:
            continue
        base = ctx.plots / f"timechart-{slug(wl)}-{config_slug(rec)}"
        for fmt in formats:
            gnuplot("timechart.gp", f"{base}.{fmt}", {"in": run.samples,
                                                      "title": run_title(run, ctx.meta)})
        figs.append(Figure(base, f"Time chart: {run_title(run, ctx.meta)}."
                                 + excluded_note(run, ctx.samples)))
    return figs


def chart_ranges(paths):
    """(xmax s, fmax MHz or None) shared by time charts of these TSVs."""
    tmax, fmax = 0.0, 0
    for p in paths:
        try:
            _meta, rows = validation.tt.read_sampler_tsv(str(p))
        except validation.tt.TraceError:
            continue
        for r in rows:
            tmax = max(tmax, r[0])
            if r[5]:
                fmax = max(fmax, r[5])
    return tmax, (fmax / 1000 * 1.1 if fmax else None)


def truth_figures(ctx, vrecs, formats):
    """{record name: [sampled Figure or None, trace Figure or None]} of the
    runs recorded with the sampler: the two time charts of one run."""
    out = {}
    if not formats:
        return out
    for r in vrecs:
        if not r["sampler"] or not r["plots"]["trace_tsv"]:
            continue
        paths = {k: ctx.rdir / v for k, v in r["plots"].items() if v}
        xmax, fmax = chart_ranges(paths.values())
        title = f"{r['kernel']}, {config_label(r['governor'], r['io_is_busy'])}, {r['workload']}"
        figs = []
        for key, label in (("sampler_tsv", "sampled (iowait-freqmon)"),
                           ("trace_tsv", "traced (perf, trace-timeline)")):
            if key not in paths:
                figs.append(None)
                continue
            base = ctx.plots / f"truth-{slug(r['name'])}-{key.split('_')[0]}"
            var = {"in": paths[key], "title": f"{title}: {label}"}
            if xmax > 0:
                var["xmax"] = xmax
            if fmax:
                var["fmax"] = fmax
            for fmt in formats:
                gnuplot("timechart.gp", f"{base}.{fmt}", var)
            figs.append(Figure(base, f"{title}: {label}."))
        out[r["name"]] = figs
    return out
