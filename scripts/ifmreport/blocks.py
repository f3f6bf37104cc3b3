# SPDX-License-Identifier: GPL-2.0
"""The content of a report as a list of blocks, which render.py turns into
Markdown and HTML: the headline (each workload's ratios to performance and
the lab faults), the run's metadata, per workload the finding, table (with
fio's IOPS when the workload has them, lab faults marked), the runs whose
sampler missed deadlines and figures, the ground-truth section, notes and
the failed runs. The blocks:
  ("h1"|"h2"|"h3"|"p", text)  ("ul", [text...])  ("links", [(text, href)...])
  ("table", header, rows)     ("fig", Figure, collapsed)
  ("figrow", [Figure or None, ...])   figures side by side"""

from .bootstrap import RESAMPLES
from .findings import fault_sentence, fci, finding, fnum
from .intervals import LAB_FAULT_TEXT, fault_detail
from .results import (GOVERNORS, KERNELS, MISSED_EXCLUDE_PCT, MISSED_FLAG_PCT,
                      config_label, describe, mhz_key, observer_cpu)
from .stats import placement


def has_iops(records, wl):
    return any(r["iops_median"] is not None for r in records if r["workload"] == wl)


def ratio_cell(value, ci):
    """A ratio to performance with its 95% interval, e.g. "1.09 (0.97-1.24)"."""
    return "n/a" if value is None else f"{value:.2f} ({fci(ci)})"


def governor_cell(rec):
    """The governor, marked when the config is a lab fault."""
    return rec["governor"] + (" (lab fault)" if rec["lab_fault"] else "")


def table_rows(records, wl):
    iops = has_iops(records, wl)
    rows = []
    for r in (x for x in records if x["workload"] == wl):
        runs = str(r["runs"]) + (f" (+{r['failed']} failed)" if r["failed"] else "")
        rt = "n/a" if r["median_s"] is None else \
            f"{r['median_s']:.3f} ({r['p25_s']:.3f}-{r['p75_s']:.3f})"
        row = [r["kernel"], governor_cell(r), fnum(r["io_is_busy"], "d", "-"), runs, rt]
        if iops:
            row += ["n/a" if r["iops_median"] is None else
                    f"{r['iops_median']:.0f} ({r['iops_p25']:.0f}-{r['iops_p75']:.0f})",
                    ratio_cell(r["iops_ratio_perf"], r["iops_ratio_perf_ci95"])]
        else:
            row.append(ratio_cell(r["ratio_perf"], r["ratio_perf_ci95"]))
        rows.append(row + [fnum(r["mean_busy_mhz"], ".0f"), fnum(r["iowait_share"], ".1%"),
                           fnum(r["efficiency"], ".2f"), fnum(r["energy_j"], ".2f"),
                           fnum(r["edp_js"], ".2f")])
    return rows


def table_header(records, wl, ocpu):
    """The header of a workload's table: IOPS columns when it has IOPS,
    else the runtime's ratio to performance; the energy is that of every
    CPU but the observer ocpu."""
    energy = "energy J (all CPUs)" if ocpu is None else f"energy J (all but CPU {ocpu})"
    return (["kernel", "governor", "io_is_busy", "runs", "median s (p25-p75)"]
            + (["IOPS (p25-p75)", "IOPS / performance (95% CI)"] if has_iops(records, wl)
               else ["time / performance (95% CI)"])
            + ["mean busy MHz", "iowait share", "efficiency", energy, "energy x delay J s"])


HEADLINE_NOTE = (
    "Each governor configuration's median runtime (IOPS for a fio workload) over the "
    "median of performance on the same kernel and workload, baseline beside patched, with "
    f"its 95% percentile-bootstrap interval ({RESAMPLES} resamples of the configuration's "
    "runs and of performance's). Performance holds fmax: a configuration whose interval "
    "lies wholly below 1 (IOPS: above 1) beats it, and is flagged as a lab fault: "
    f"{LAB_FAULT_TEXT}.")


def headline_blocks(records, workloads, heads):
    """The headline section: the note, each workload's headline figure
    and the lab faults; [] without a figure or a lab fault."""
    faults = [f"{r['workload']}: {r['kernel']} {r['label']}: {fault_detail(r)}"
              for r in records if r["lab_fault"]]
    figs = [heads[wl] for wl in workloads if heads.get(wl)]
    if not figs and not faults:
        return []
    blocks = [("h2", "Headline"), ("p", HEADLINE_NOTE)] + [("fig", f, False) for f in figs]
    if faults:
        blocks += [("p", f"Lab faults ({LAB_FAULT_TEXT}; no finding states them):"),
                   ("ul", faults)]
    return blocks


MISSED_NOTE = (f"Missed sampling deadlines (the sampler's summary at the end of each TSV): a run "
               f"missing more than {MISSED_FLAG_PCT:g}% of its deadlines is flagged; more than "
               f"{MISSED_EXCLUDE_PCT:g}%, its samples are left out of the mean busy frequency, the "
               "busy and iowait shares, time in state and energy (its runtime still counts).")


def missed_blocks(ctx, wl):
    """The runs of one workload whose sampler missed more than
    MISSED_FLAG_PCT % of its deadlines, and what became of them."""
    items = []
    for r in sorted(ctx.runs, key=lambda r: r.order):
        s = ctx.samples.get(r.order)
        if r.workload != wl or r.status != 0 or s is None or not s.flagged:
            continue
        what = (f"above {MISSED_EXCLUDE_PCT:g}%: left out of the frequency and energy "
                "statistics, its runtime counts" if s.excluded
                else f"above {MISSED_FLAG_PCT:g}%: flagged, kept")
        items.append(f"order {r.order}: {describe(r)}, {s.missed_pct:.2f}% of its deadlines "
                     f"missed ({what})")
    return [("p", MISSED_NOTE), ("ul", items)] if items else []


def meta_items(meta, runs, model):
    kernels = meta.get("kernels") or {}
    items = [f"started {meta.get('started', 'n/a')}, finished {meta.get('finished', 'not recorded')}",
             f"{'quick' if meta.get('quick') else 'full'} run, {meta.get('repeats', 'n/a')} repeats per configuration",
             f"patch series commit {meta.get('series_commit', 'n/a')}"]
    for k in KERNELS:
        info = kernels.get(k) or {}
        dflt = info.get("io_is_busy_default") or {}
        items.append(f"{k} kernel: {info.get('release', 'n/a')}, commit {info.get('commit', 'n/a')}, "
                     "default io_is_busy: " + (", ".join(f"{g} {'absent' if v is None else v}"
                                                         for g, v in dflt.items()) or "n/a"))
    items.append(f"QEMU: {meta.get('qemu', 'not recorded')}")
    obs = meta.get("observer")
    if isinstance(obs, dict) and "apart" in obs:
        obs = (f" (the observer, held at {obs.get('governor', 'n/a')} apart from the governor "
               "measured)" if obs["apart"] else
               " (the observer, under the governor measured: free placement or one"
               " cpufreq policy; energy counts every CPU)")
    else:
        obs = ""
    where = placement(meta)
    cpus = ", ".join(str(c) for c in where["wcpus"])
    items.append(f"placement {where['placement']} (workload CPUs {cpus}), policy "
                 f"{where['policy']}; sampler on CPU "
                 f"{meta.get('sampler_cpu', 'n/a')}{obs} at "
                 f"{meta.get('sampler_rate_hz', 'n/a')} Hz")
    if model:
        items.append("emulated P-states (MHz: modelled mW): " + ", ".join(
            f"{mhz_key(f)}: {p:g}" for f, p in zip(model.freqs_khz, model.power_mw))
            + f"; idle {model.idle_mw:g} mW")
    configs = {}
    for r in sorted(runs, key=lambda r: (KERNELS.index(r.kernel), GOVERNORS.index(r.governor))):
        key = (r.kernel, config_label(r.governor, r.io))
        configs[key] = configs.get(key, 0) + 1
    items.append(f"{len(runs)} runs in {len({r.workload for r in runs})} workloads; configurations "
                 "(runs over all workloads): "
                 + "; ".join(f"{k} {c} ({n})" for (k, c), n in configs.items()))
    return items


def run_items(runs, pred):
    return [f"order {r.order}: {describe(r)}, status {r.status}, {r.runtime:.3f} s"
            for r in sorted(runs, key=lambda r: r.order) if pred(r)]


def energy_note(ocpu):
    """The energy-model note; ocpu is the observer CPU or None."""
    cpus = ("every sampled CPU (meta.json names no observer)" if ocpu is None else
            f"every sampled CPU except the observer, CPU {ocpu} (meta.json sampler_cpu; its "
            "energy is energy_observer_j in summary.json)")
    return ("Energy is a model, not a measurement: for every valid sample of " + cpus + ", "
            "busy share x interval x the power of the emulated driver's table entry "
            "nearest the sampled frequency, plus the rest of the interval at the idle power "
            "(meta.json emu_cpufreq); samples without a frequency, and runs whose sampler "
            f"missed more than {MISSED_EXCLUDE_PCT:g}% of its deadlines, are left out. "
            "Efficiency is (t_powersave - t_gov) / (t_powersave - t_performance) with the "
            "medians of the same kernel and workload. plots/README.md gives every formula.")


TRUTH_NOTE = (
    "Each run recorded under perf (ondemand with each kernel's default io_is_busy, once with "
    "the sampler as in every run and once without it; neither enters the statistics above) "
    "held against the kernel's own event trace (power:cpu_idle, power:cpu_frequency, sched "
    "switches and wake-ups, sched_stat_iowait, interrupts from the kernel's tick_irq_enter() "
    "to tick_nohz_irq_exit(); scripts/trace-timeline). Errors are on the "
    "workload CPU {wcpu}: sampled minus traced busy and iowait share and the largest error of "
    "a P-state's share of busy time (time in state) in percentage points, mean busy frequency "
    "in %, over the sampler's window; the kernel's own idle and iowait share (timer_list "
    "deltas where the kernel prints them live, else /proc/stat) minus the trace's over the "
    "workload's window. Goals: sampler within 1 pp and 1%, the kernel's iowait within 0.5 pp. "
    "validation.json has every CPU.")

TRUTH_HEADER = ["kernel", "configuration", "workload", "run", "busy pp", "iowait pp",
                "time in state pp (max)", "mean busy MHz %", "kernel iowait pp",
                "kernel idle pp", "kernel source"]
BOUNDS_NOTE = (
    "The same runs against the trace cut at the kernel's own idle bounds (kprobes on "
    "tick_nohz_idle_enter() and tick_nohz_idle_exit(), trace-timeline --idle-bounds kernel) "
    "instead of cpu_idle's: the idle loop around cpu_idle, which the kernel books as idle, "
    "no longer counts busy, so what is left is the sampler's own error and the kernel's "
    "split of idle into idle and iowait. The difference from the table above is the idle "
    "loop's share of the run.")
BOUNDS_HEADER = TRUTH_HEADER[:-1]
OBSERVER_HEADER = ["kernel", "configuration", "workload", "sampler CPU busy (its window)",
                   "sampler CPU busy on / off", "workload CPU busy on / off",
                   "workload CPU busy on - off pp", "runtime s on / off"]


def truth_blocks(ctx, vrecs, truth_figs):
    """The ground-truth section: error table, observer effect, notes and
    the sampled/traced time charts side by side."""
    if not vrecs:
        return []
    wcpu = ctx.meta.get("workload_cpu", 0)
    rows, bounds, obs, notes, seen = [], [], [], [], set()
    for r in vrecs:
        label = config_label(r["governor"], r["io_is_busy"]) if r["governor"] else "?"
        what = "sampled" if r["sampler"] else "no sampler"
        kb = r.get("kernel_bounds")
        if kb:
            bounds.append([r["kernel"] or "?", label, r["workload"] or "?", what,
                           *(fnum(kb[k], ".2f" if k == "err_tis_pp_max" else "+.2f")
                             for k in ("err_busy_pp", "err_iowait_pp", "err_tis_pp_max",
                                       "err_mean_busy_mhz_pct", "err_kernel_iowait_pp",
                                       "err_kernel_idle_pp"))])
            if kb["error"]:
                notes.append(f"{r['dir']}: at the kernel's idle bounds: {kb['error']}")
        rows.append([r["kernel"] or "?", label, r["workload"] or "?",
                     what + (" (error)" if r["error"] else ""),
                     fnum(r["err_busy_pp"], "+.2f"), fnum(r["err_iowait_pp"], "+.2f"),
                     fnum(r["err_tis_pp_max"], ".2f"), fnum(r["err_mean_busy_mhz_pct"], "+.2f"),
                     fnum(r["err_kernel_iowait_pp"], "+.2f"), fnum(r["err_kernel_idle_pp"], "+.2f"),
                     r["kernel_source"] or "n/a"])
        if r["error"]:
            notes.append(f"{r['dir']}: {r['error']}")
        notes += [f"{r['dir']}: {n}" for n in r["notes"]]
        ob = r["observer"]
        key = (r["kernel"], r["governor"], r["io_is_busy"], r["workload"])
        if ob is None or key in seen:
            continue
        seen.add(key)
        obs.append([r["kernel"], label, r["workload"],
                     fnum(ob["sampler_cpu_busy_share"], ".2%"),
                     f"{fnum(ob['sampler_cpu_busy_share_on'], '.2%')} / "
                     f"{fnum(ob['sampler_cpu_busy_share_off'], '.2%')}",
                     f"{fnum(ob['workload_cpu_busy_share_on'], '.2%')} / "
                     f"{fnum(ob['workload_cpu_busy_share_off'], '.2%')}",
                     fnum(ob["workload_cpu_busy_delta_pp"], "+.2f"),
                     f"{fnum(ob['runtime_s_on'], '.3f')} / {fnum(ob['runtime_s_off'], '.3f')}"])
        if ob["reason"]:
            notes.append(f"{r['kernel']} {label} {r['workload']}: observer effect: {ob['reason']}")
    blocks = [("h2", "Ground truth: the sampler and the kernel against the perf trace"),
              ("p", TRUTH_NOTE.format(wcpu=wcpu)), ("table", TRUTH_HEADER, rows)]
    if bounds:
        blocks += [("h3", "At the kernel's own idle bounds"), ("p", BOUNDS_NOTE),
                   ("table", BOUNDS_HEADER, bounds)]
    blocks += [("h3", "Observer effect"),
               ("p", "Busy shares from the traces: the sampler's CPU over the sampler's "
                     "window; both CPUs over the workload's window, with the sampler (on) and "
                     "in the run without it (off)."),
               ("table", OBSERVER_HEADER, obs)]
    if notes:
        blocks += [("h3", "Notes"), ("ul", notes)]
    for r in vrecs:
        figs = truth_figs.get(r["name"])
        if not figs or not any(figs):
            continue
        blocks.append(("h3", f"Sampled and traced: {r['kernel']}, "
                             f"{config_label(r['governor'], r['io_is_busy'])}, {r['workload']}"))
        if figs[0] is None:
            blocks.append(("p", "No sampler TSV for this run: the traced time chart only."))
        blocks.append(("figrow", figs))
    return blocks


def build_blocks(ctx, workloads, figures, top, truth=()):
    """Every block of the report: figures are {workload: [Figure...]} of
    the workload sections, top {"headline": {workload: Figure or None},
    "before_after": the first workload's before/after Figure or None}."""
    blocks = [("h1", "iowait-freqmon experiment report")]
    blocks += headline_blocks(ctx.records, workloads, top["headline"])
    blocks += [("h2", "Setup"), ("ul", meta_items(ctx.meta, ctx.runs, ctx.model))]
    if top["before_after"]:
        blocks += [("h2", "Before / after"), ("fig", top["before_after"], False)]
    for wl in workloads:
        info = (ctx.meta.get("workloads") or {}).get(wl) or {}
        blocks.append(("h2", f"Workload {wl}"))
        if info.get("description") or info.get("command"):
            blocks.append(("p", " ".join(x for x in (
                str(info.get("description", "")).rstrip("."),
                f"(command: {info['command']})" if info.get("command") else "") if x) + "."))
        blocks.append(("p", finding(ctx.records, ctx.refs, wl, ctx.defaults)))
        blocks.append(("table", table_header(ctx.records, wl, observer_cpu(ctx.meta)),
                       table_rows(ctx.records, wl)))
        faults = fault_sentence([r for r in ctx.records if r["workload"] == wl])
        if faults:
            blocks.append(("p", faults))
        blocks += missed_blocks(ctx, wl)
        for fig in figures.get(wl, []):
            blocks.append(("fig", fig, "Time chart" in fig.caption))
    blocks += list(truth)
    blocks += [("h2", "Energy model"), ("p", energy_note(observer_cpu(ctx.meta)))]
    perf = sorted((ctx.rdir / "perf").glob("*.svg")) if (ctx.rdir / "perf").is_dir() else []
    if perf:
        blocks += [("h2", "perf timecharts"),
                   ("links", [(p.name, f"perf/{p.name}") for p in perf])]
    failed = run_items(ctx.runs, lambda r: r.status != 0)
    blocks += [("h2", "Failed runs"), ("ul", failed) if failed else ("p", "None.")]
    nosamp = run_items(ctx.runs, lambda r: r.status == 0 and r.order not in ctx.samples)
    if nosamp:
        blocks += [("h2", "Runs without samples"), ("ul", nosamp)]
    return blocks
