# SPDX-License-Identifier: GPL-2.0
"""The command line: parsing the arguments and making every output of a
results folder in order (summary.json, validation.json, the figures,
report.md and report.html); main() maps ReportError to exit status 1."""

import argparse
import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import validation  # scripts/validation.py: the ground truth

from .blocks import build_blocks, truth_blocks
from .figures import FORMATS, before_after, headline, truth_figures, workload_figures
from .render import render_html, render_md
from .results import (KERNELS, PROG, ReportError, load_all_iops, load_all_samples,
                      load_meta, load_runs, od_default, power_model, warn)
from .stats import reference_medians, summarize

DESCRIPTION = """Summarise an experiment's results directory: summary.json,
validation.json (the ground truth, scripts/validation.py), report.md, a
self-contained report.html and the gnuplot figures (plots/README.md
describes the input files, every formula and the figures)."""

USAGE_EPILOG = """\
Reads R/meta.json, R/runs.tsv, the sampler TSVs it names, fio's JSON
beside a fio run's TSV (rN.fio.json beside rN.tsv) and the runs recorded
under perf (R/perf/NAME/run.json; a perf.data needs perf, a
*.perf-script.txt beside or instead of it does not); writes R/summary.json,
R/validation.json, R/report.md, R/report.html and R/plots/ (the TSVs
feeding the figures always, the figures unless --no-plots).

Exit status: 0 on success (warnings, e.g. an unreadable samples file or
fio JSON, go to stderr), 1 on an error (a one-line message naming the file
and line), 2 on bad usage."""


@dataclass
class Context:
    """Everything the outputs are made from."""
    rdir: Path
    meta: dict
    runs: list
    model: object
    samples: dict
    records: list
    refs: dict
    defaults: dict
    plots: Path


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="scripts/report", description=DESCRIPTION, epilog=USAGE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--no-plots", action="store_true",
                   help="write the plot TSVs but run no gnuplot (no figures)")
    p.add_argument("--formats", default="png", metavar="LIST",
                   help="figure formats, comma-separated from png,svg (default: png); "
                        "report.html embeds PNG when made, else SVG (data URIs)")
    p.add_argument("results", metavar="R", help="results directory (holds meta.json, runs.tsv)")
    args = p.parse_args(argv)
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        p.error(f"--formats: '{args.formats}': choose from {','.join(FORMATS)}")
    args.formats = list(dict.fromkeys(formats))
    return args


def write_json(path, data):
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def report(args):
    rdir = Path(args.results)
    if not rdir.is_dir():
        raise ReportError(f"{rdir}: not a directory")
    if not args.no_plots and shutil.which("gnuplot") is None:
        raise ReportError("gnuplot not found (install gnuplot-nox), or pass --no-plots")
    meta = load_meta(rdir)
    runs = load_runs(rdir)
    model = power_model(meta)
    samples = load_all_samples(runs, model)
    records = summarize(runs, samples, meta, load_all_iops(runs))
    ctx = Context(rdir, meta, runs, model, samples, records, reference_medians(runs),
                  {k: od_default(meta, k) for k in KERNELS}, rdir / "plots")
    write_json(rdir / "summary.json", records)
    ctx.plots.mkdir(exist_ok=True)
    vrecs = validation.validate(rdir, ctx.plots, warn=warn)
    write_json(rdir / "validation.json", vrecs)
    formats = [] if args.no_plots else args.formats
    workloads = list(dict.fromkeys(r["workload"] for r in records))
    figures = {}
    top = {"headline": {wl: headline(ctx, wl, formats) for wl in workloads},
           "before_after": None}
    for i, wl in enumerate(workloads):
        ba = before_after(ctx, wl, ctx.defaults, formats) if formats else None
        if i == 0:
            top["before_after"] = ba
        figures[wl] = ([ba] if ba and i else []) + workload_figures(ctx, wl, formats)
    truth = truth_figures(ctx, vrecs, formats)
    blocks = build_blocks(ctx, workloads, figures, top, truth_blocks(ctx, vrecs, truth))
    (rdir / "report.md").write_text(render_md(blocks, rdir, formats), encoding="utf-8")
    (rdir / "report.html").write_text(render_html(blocks, formats), encoding="utf-8")
    print(f"{PROG}: wrote {rdir}/summary.json, validation.json, report.md, report.html"
          + ("" if args.no_plots else f", plots/ ({','.join(formats)})"))


def main(argv):
    args = parse_args(argv)
    try:
        report(args)
    except ReportError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    return 0
