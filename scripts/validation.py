#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The ground truth of an experiment's results directory R: every run
recorded under perf (R/perf/NAME/run.json, written by scripts/experiment-guest
--perf) held against its own kernel event trace. scripts/report calls
validate() and writes R/validation.json; plots/README.md documents the
files, the formulas and the record's keys.

Alone:  scripts/validation.py R   writes R/validation.json, prints a table.

Per recorded run, from the trace (scripts/trace-timeline, imported):
  - the sampler's errors: the trace cut like the sampler TSV (--align),
    compared with it as `trace-timeline compare` does, per CPU;
  - the kernel's accounting's errors: each CPU's idle and iowait share over
    the workload's window ("now at" of the timer_list snapshots before and
    after it) from the timer_list deltas when the kernel prints them live
    (.idle_active present: the patched kernel), else from the /proc/stat
    deltas (USER_HZ ticks), against the trace's over the same window;
  - the observer effect: the sampler CPU's busy share in the trace, and the
    workload CPU's busy share over the workload's window with the sampler
    on and off, when the run without the sampler was recorded too.
"""

import importlib.machinery
import importlib.util
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TRACE_TIMELINE = HERE / "trace-timeline"
DEFAULT_CLK_TCK = 100
TIMER_LIST_KEYS = ("idle_sleeptime", "iowait_sleeptime", "idle_entrytime",
                   "idle_active", "nr_iowait", "tick_stopped")
STAT_COLUMNS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq",
                "steal")
# The issue's goals (README, issue 15), shown with the table.
GOALS = {"err_busy_pp": 1.0, "err_iowait_pp": 1.0, "err_tis_pp_max": 1.0,
         "err_mean_busy_mhz_pct": 1.0, "err_kernel_iowait_pp": 0.5}


def _load_trace_timeline():
    loader = importlib.machinery.SourceFileLoader("trace_timeline", str(TRACE_TIMELINE))
    spec = importlib.util.spec_from_loader("trace_timeline", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


tt = _load_trace_timeline()


class InputError(Exception):
    """A snapshot or run.json that cannot be used (a note, never fatal)."""


# ------------------------------------------------------------ snapshots

def read_text(path):
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path.name}: cannot read: {getattr(e, 'strerror', None) or e}") from e


def parse_timer_list(path):
    """{"now_ns", "cpus": {cpu: {field: int}}} of a /proc/timer_list copy.
    Only the tick_sched fields of each "cpu: N" block are read."""
    now = None
    cpus = {}
    cur = None
    for line in read_text(path).splitlines():
        if now is None:
            m = re.match(r"now at (\d+) nsecs\s*$", line)
            if m:
                now = int(m.group(1))
                continue
        m = re.match(r"cpu: (\d+)\s*$", line)
        if m:
            cur = cpus.setdefault(int(m.group(1)), {})
            continue
        if line.startswith(("Tick Device", "Broadcast device", "Per CPU device")):
            cur = None
            continue
        if cur is not None:
            m = re.match(r"\s+\.(\w+)\s*:\s*(\d+)(?: nsecs)?\s*$", line)
            if m and m.group(1) in TIMER_LIST_KEYS:
                cur.setdefault(m.group(1), int(m.group(2)))
    if now is None:
        raise InputError(f"{path.name}: no 'now at N nsecs' line")
    if not cpus:
        raise InputError(f"{path.name}: no 'cpu: N' block")
    return {"now_ns": now, "cpus": cpus}


def parse_stat(path):
    """{cpu: {column: ticks}} of a /proc/stat copy (the cpuN lines)."""
    out = {}
    for line in read_text(path).splitlines():
        m = re.match(r"cpu(\d+)\s+(.*)$", line)
        if not m:
            continue
        vals = m.group(2).split()
        try:
            out[int(m.group(1))] = dict(zip(STAT_COLUMNS, (int(v) for v in vals[:8])))
        except ValueError:
            raise InputError(f"{path.name}: malformed line: {line[:60]!r}") from None
    if not out:
        raise InputError(f"{path.name}: no cpuN line")
    return out


def parse_freq(path):
    """{cpu: kHz} of a freq.before file ("CPU KHZ" lines)."""
    out = {}
    for n, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        f = line.split()
        if len(f) != 2 or not all(x.isdigit() for x in f):
            raise InputError(f"{path.name}:{n}: want 'CPU KHZ': {line[:60]!r}")
        out[int(f[0])] = int(f[1])
    return out


def load_run_info(d):
    try:
        info = json.loads(read_text(d / "run.json"))
    except json.JSONDecodeError as e:
        raise InputError(f"run.json:{e.lineno}: invalid JSON: {e.msg}") from e
    if not isinstance(info, dict):
        raise InputError("run.json: not a JSON object")
    for k in ("kernel", "governor", "workload"):
        if not isinstance(info.get(k), str):
            raise InputError(f"run.json: no {k}")
    if info.get("io_is_busy") not in (0, 1, None):
        raise InputError("run.json: io_is_busy must be 0, 1 or null")
    return info


def trace_input(d):
    """The run's trace: a *.perf-script.txt (preferred; needs no perf) or
    perf.data; None when neither is there."""
    texts = sorted(d.glob("*.perf-script.txt"))
    if texts:
        return texts[0]
    if (d / "perf.data").is_file():
        return d / "perf.data"
    return None


# ------------------------------------------------------------ figures

def pp(a, b):
    return None if a is None or b is None else 100.0 * (a - b)


def share_subset(c):
    return {k: c.get(k) for k in ("busy_share", "idle_share", "iowait_share",
                                  "mean_busy_mhz", "time_in_state")}


def initial_freqs(trace, freqs, t_read):
    """Per-CPU frequency at the trace's start, from the scaling_cur_freq
    read at t_read (ns, trace clock): only for a CPU with no
    power:cpu_frequency event before t_read (then it held all along)."""
    changed = {e[5] for e in trace.events if e[2] == tt.K_FREQ and e[0] <= t_read}
    return {c: khz for c, khz in freqs.items() if c not in changed}


def kernel_shares(tl0, tl1, st0, st1, clk_tck, cpu):
    """{"timer_list": shares or None, "proc_stat": shares or None, "window_s"}
    of one CPU between two snapshots; None where not computable."""
    window_ns = tl1["now_ns"] - tl0["now_ns"]
    out = {"timer_list": None, "proc_stat": None, "timer_list_live": False}
    a, b = tl0["cpus"].get(cpu), tl1["cpus"].get(cpu)
    if a and b and all(k in a and k in b for k in ("idle_sleeptime", "iowait_sleeptime")):
        live = "idle_active" in a and "idle_active" in b
        out["timer_list_live"] = live
        out["timer_list"] = {
            "idle_share": (b["idle_sleeptime"] - a["idle_sleeptime"]) / window_ns,
            "iowait_share": (b["iowait_sleeptime"] - a["iowait_sleeptime"]) / window_ns,
        }
    if st0 is not None and st1 is not None and cpu in st0 and cpu in st1:
        s = 1e9 / clk_tck / window_ns   # ticks -> share of the window
        out["proc_stat"] = {
            "idle_share": (st1[cpu]["idle"] - st0[cpu]["idle"]) * s,
            "iowait_share": (st1[cpu]["iowait"] - st0[cpu]["iowait"]) * s,
        }
    return out


# ------------------------------------------------------------ one run

def new_record(d, rdir, info):
    rec = {
        "name": d.name, "dir": d.relative_to(rdir).as_posix(),
        "kernel": info.get("kernel"), "governor": info.get("governor"),
        "io_is_busy": info.get("io_is_busy"), "workload": info.get("workload"),
        "config": info.get("config"),
        "sampler": bool(info.get("sampler", (d / "samples.tsv").exists())),
        "status": info.get("status"), "runtime_s": info.get("runtime_s"),
        "workload_cpu": info.get("workload_cpu", 0),
        "sampler_cpu": info.get("sampler_cpu", 1),
        "error": None, "notes": [], "trace": None,
        "window": {"sampler_s": None, "workload_s": None},
        "err_busy_pp": None, "err_iowait_pp": None, "err_tis_pp_max": None,
        "err_mean_busy_mhz_pct": None,
        "err_kernel_iowait_pp": None, "err_kernel_idle_pp": None, "kernel_source": None,
        "kernel_bounds": None,
        "observer": None, "cpus": {},
        "plots": {"trace_tsv": None, "sampler_tsv": None},
    }
    return rec


def snapshots(d, notes):
    """(tl_before, tl_after, stat_before, stat_after, freq_before), each
    None when missing or unusable (with a note)."""
    got = []
    for name, parse in (("timer_list.before", parse_timer_list),
                        ("timer_list.after", parse_timer_list),
                        ("stat.before", parse_stat), ("stat.after", parse_stat),
                        ("freq.before", parse_freq)):
        p = d / name
        if not p.exists():
            got.append(None)
            continue
        try:
            got.append(parse(p))
        except InputError as e:
            notes.append(f"{e}; not used")
            got.append(None)
    tl0, tl1 = got[0], got[1]
    if tl0 is None or tl1 is None:
        notes.append("no timer_list snapshots before and after the workload: no workload"
                     " window, so no kernel accounting errors; the workload's figures"
                     " use the whole trace")
        tl0 = tl1 = None
    elif tl1["now_ns"] <= tl0["now_ns"]:
        notes.append("timer_list.after is not later than timer_list.before; not used")
        tl0 = tl1 = None
    return tl0, tl1, got[2], got[3], got[4]


def window_totals(trace, init, w0, w1, idle_bounds="cpu_idle"):
    """The trace's totals over [w0, w1) in one row (trace-timeline
    --start --end)."""
    return tt.analyse(trace, start_ns=w0, end_ns=w1, interval_ns=max(w1 - w0, 1),
                      initial_freq=init, idle_bounds=idle_bounds).totals


def aligned_compare(trace, init, tsv, idle_bounds="cpu_idle", command=None):
    """The trace cut like the sampler TSV (trace-timeline --align) and the
    sampler's errors against it per CPU (trace-timeline compare): (the
    analysis, the errors, the window's start, its row ends, the interval)."""
    start, edges, interval = tt.align_window(str(tsv))
    res = tt.analyse(trace, start_ns=start, edges=edges, interval_ns=interval,
                     initial_freq=init, idle_bounds=idle_bounds, command=command)
    return res, tt.compare(tt.sampler_totals(str(tsv)), res.totals), start, edges, interval


def validate_run(d, rdir, info, perf, plots):
    """The validation record of one recorded run and, for the figures,
    the trace-derived TSV (a Path or None)."""
    rec = new_record(d, rdir, info)
    notes = rec["notes"]
    wcpu, scpu = rec["workload_cpu"], rec["sampler_cpu"]
    src = trace_input(d)
    if src is None:
        rec["error"] = "no perf.data or *.perf-script.txt in the run's folder"
        return rec
    tl0, tl1, st0, st1, freqs = snapshots(d, notes)
    try:
        text, name = tt.read_input(str(src), perf)
        trace = tt.parse_trace(text, f"{rec['dir']}/{src.name}")
        tt.check_required(trace)
    except tt.TraceError as e:
        rec["error"] = str(e)
        return rec
    log = d / "perf.log"
    if log.is_file():
        lost = [ln.strip() for ln in log.read_text(errors="replace").splitlines()
                if re.search(r"\blost\b", ln, re.I)]
        if lost:
            notes.append(f"perf lost events: {lost[0]}")
    init = "unknown"
    if freqs and tl0:
        init = initial_freqs(trace, freqs, tl0["now_ns"])
    t_first, t_last = trace.events[0][0], trace.events[-1][0]
    w0, w1 = (tl0["now_ns"], tl1["now_ns"]) if tl0 else (t_first, t_last)
    try:
        tw = window_totals(trace, init, w0, w1)
    except tt.TraceError as e:
        rec["error"] = str(e)
        return rec
    rec["window"]["workload_s"] = (w1 - w0) / 1e9
    rec["trace"] = {k: tw[k] for k in ("source", "kernel", "iowait_source",
                                       "iowait_approximation", "events", "anomalies",
                                       "initial_freq_khz")}
    rec["trace"]["aligned"] = False
    if tw["iowait_approximation"]:
        notes.append("the trace has no sched:sched_stat_iowait: iowait counted from D"
                     " sleeps (an approximation; record with kernel.sched_schedstats=1)")
    cpus = {}
    for c, tc in sorted(tw["cpus"].items(), key=lambda kv: int(kv[0])):
        cpus[int(c)] = {"sampler": None, "trace": share_subset(tc), "kernel": None}

    # the sampler against the trace, cut like the sampler TSV
    trace_tsv = None
    tsv = d / "samples.tsv"
    if not rec["sampler"]:
        notes.append("recorded without the sampler (the observer-effect reference):"
                     " no sampler errors")
    elif not tsv.is_file():
        notes.append("no sampler TSV (samples.tsv): the sampler's errors are not computed")
    else:
        try:
            res_al, cmp, start, edges, interval = aligned_compare(
                trace, init, tsv, command=f"scripts/report (trace-timeline --align {tsv.name})")
        except tt.TraceError as e:
            notes.append(f"the sampler TSV cannot be held against the trace: {e}")
        else:
            notes.extend(tt.comparison_warnings(cmp))
            slack = max(10 * 1_000_000, 2 * interval)
            if t_first > start or t_last < edges[-1] - slack:
                notes.append(f"the trace ({t_first / 1e9:.6f} to {t_last / 1e9:.6f} s) does not"
                             f" cover the sampler's window ({start / 1e9:.6f} to"
                             f" {edges[-1] / 1e9:.6f} s): its state outside is a guess")
            rec["plots"]["sampler_tsv"] = tsv.relative_to(rdir).as_posix()
            rec["trace"]["aligned"] = True
            rec["window"]["sampler_s"] = res_al.totals["window"]["duration_s"]
            for c, e in cmp.items():
                cpus.setdefault(c, {"sampler": None, "trace": None, "kernel": None})
                cpus[c]["sampler"] = e
                cpus[c]["sampler_window_busy_share"] = \
                    res_al.totals["cpus"][str(c)]["busy_share"]
            trace_tsv = plots / f"truth-{d.name}-trace.tsv"
            trace_tsv.write_text(tt.tsv_text(res_al), encoding="utf-8")
    if trace_tsv is None:
        # no aligned cut: the trace's timeline of the workload's window,
        # at the sampler's rate (for the figure)
        rate = info.get("rate_hz") or 1000
        step = max(1000, round(1e9 / rate))
        res_p = tt.analyse(trace, start_ns=w0, end_ns=w1, interval_ns=step,
                           initial_freq=init,
                           command="scripts/report (trace-timeline, the workload's window)")
        trace_tsv = plots / f"truth-{d.name}-trace.tsv"
        trace_tsv.write_text(tt.tsv_text(res_p), encoding="utf-8")
    rec["plots"]["trace_tsv"] = trace_tsv.relative_to(rdir).as_posix()
    w = cpus.get(wcpu, {}).get("sampler")
    if w:
        for k in ("err_busy_pp", "err_iowait_pp", "err_tis_pp_max", "err_mean_busy_mhz_pct"):
            rec[k] = w[k]
    elif rec["sampler"] and tsv.is_file() and rec["trace"]["aligned"]:
        notes.append(f"the workload CPU {wcpu} is not in both the sampler TSV and the trace")

    # the kernel's accounting against the trace, over the workload's window
    if tl0:
        try:
            clk = int(info.get("clk_tck") or DEFAULT_CLK_TCK)
        except (TypeError, ValueError):
            clk = DEFAULT_CLK_TCK
        if st0 is None or st1 is None:
            notes.append("no /proc/stat snapshots: the kernel's accounting from"
                         " timer_list only")
        for c, cd in cpus.items():
            if cd["trace"] is None:
                continue
            ks = kernel_shares(tl0, tl1, st0, st1, clk, c)
            if ks["timer_list"] is not None and ks["timer_list_live"]:
                source = "timer_list"
            elif ks["proc_stat"] is not None:
                source = "proc_stat"
            elif ks["timer_list"] is not None:
                source = "timer_list (stale)"
            else:
                source = None
            best = ks["timer_list"] if source and source.startswith("timer_list") \
                else ks["proc_stat"]
            kd = {"source": source, "timer_list_live": ks["timer_list_live"]}
            for s in ("timer_list", "proc_stat"):
                v = ks[s]
                kd[s] = None if v is None else dict(v, **{
                    "err_idle_pp": pp(v["idle_share"], cd["trace"]["idle_share"]),
                    "err_iowait_pp": pp(v["iowait_share"], cd["trace"]["iowait_share"])})
            kd["idle_share"] = best and best["idle_share"]
            kd["iowait_share"] = best and best["iowait_share"]
            kd["err_idle_pp"] = best and pp(best["idle_share"], cd["trace"]["idle_share"])
            kd["err_iowait_pp"] = best and pp(best["iowait_share"], cd["trace"]["iowait_share"])
            cd["kernel"] = kd
        kw = (cpus.get(wcpu) or {}).get("kernel")
        if kw and kw["source"]:
            rec["kernel_source"] = kw["source"]
            rec["err_kernel_iowait_pp"] = kw["err_iowait_pp"]
            rec["err_kernel_idle_pp"] = kw["err_idle_pp"]
            if kw["source"] == "timer_list (stale)":
                notes.append("the kernel's accounting from a stale timer_list (no"
                             " /proc/stat): an idle period in progress at a snapshot is"
                             " missing from it")
        else:
            notes.append(f"no kernel accounting for the workload CPU {wcpu} in the snapshots")
    rec["cpus"] = {str(c): v for c, v in sorted(cpus.items())}
    rec["kernel_bounds"] = kernel_bounds(trace, init, w0, w1, tsv if rec["trace"]["aligned"]
                                         else None, (cpus.get(wcpu) or {}).get("kernel"), wcpu)
    sc = cpus.get(scpu) or {}
    rec["observer"] = {
        "sampler_cpu_busy_share": (sc.get("sampler_window_busy_share")
                                   if rec["sampler"] else None),
        "sampler_cpu_busy_share_on": None, "sampler_cpu_busy_share_off": None,
        "workload_cpu_busy_share_on": None, "workload_cpu_busy_share_off": None,
        "workload_cpu_busy_delta_pp": None,
        "runtime_s_on": None, "runtime_s_off": None, "reason": None,
    }
    return rec


def kernel_bounds(trace, init, w0, w1, tsv, kernel, cpu):
    """The errors of the workload CPU against the trace cut at the kernel's
    own idle bounds (trace-timeline --idle-bounds kernel), when the trace
    has their kprobes, else None: what is left is the sampler's own error
    and the kernel's classification, without the idle loop that the kernel
    books as idle and cpu_idle does not."""
    if not all(trace.counts.get(ev) for ev in tt.IDLE_BOUND_EVENTS):
        return None
    out = {"err_busy_pp": None, "err_iowait_pp": None, "err_tis_pp_max": None,
           "err_mean_busy_mhz_pct": None,
           "err_kernel_iowait_pp": None, "err_kernel_idle_pp": None, "error": None}
    try:
        return _kernel_bounds(out, trace, init, w0, w1, tsv, kernel, cpu)
    except tt.TraceError as e:
        out["error"] = str(e)
        return out


def _kernel_bounds(out, trace, init, w0, w1, tsv, kernel, cpu):
    tw = window_totals(trace, init, w0, w1, "kernel")["cpus"].get(str(cpu))
    if kernel and kernel["source"] and tw:
        out["err_kernel_iowait_pp"] = pp(kernel["iowait_share"], tw["iowait_share"])
        out["err_kernel_idle_pp"] = pp(kernel["idle_share"], tw["idle_share"])
    if tsv is not None:
        e = aligned_compare(trace, init, tsv, "kernel")[1].get(cpu)
        if e:
            for k in ("err_busy_pp", "err_iowait_pp", "err_tis_pp_max", "err_mean_busy_mhz_pct"):
                out[k] = e[k]
    return out


def fill_observer(recs):
    """The sampler on vs off: pair each run with its reference of the same
    kernel, configuration and workload."""
    def key(r):
        return (r["kernel"], r["governor"], r["io_is_busy"], r["workload"])

    def busy(r, cpu):
        c = r["cpus"].get(str(cpu)) or {}
        return (c.get("trace") or {}).get("busy_share")

    for r in recs:
        ob = r["observer"]
        if ob is None:
            continue
        on = r if r["sampler"] else next(
            (x for x in recs if x["sampler"] and key(x) == key(r) and x["observer"]), None)
        off = r if not r["sampler"] else next(
            (x for x in recs if not x["sampler"] and key(x) == key(r) and x["observer"]), None)
        if on is not None:
            ob["workload_cpu_busy_share_on"] = busy(on, r["workload_cpu"])
            ob["sampler_cpu_busy_share_on"] = busy(on, r["sampler_cpu"])
            ob["runtime_s_on"] = on["runtime_s"]
        if off is not None:
            ob["workload_cpu_busy_share_off"] = busy(off, r["workload_cpu"])
            ob["sampler_cpu_busy_share_off"] = busy(off, r["sampler_cpu"])
            ob["runtime_s_off"] = off["runtime_s"]
        ob["workload_cpu_busy_delta_pp"] = pp(ob["workload_cpu_busy_share_on"],
                                              ob["workload_cpu_busy_share_off"])
        if on is None or off is None:
            ob["reason"] = ("no run without the sampler was recorded for this configuration"
                            if off is None else
                            "no run with the sampler was recorded for this configuration")
        elif ob["workload_cpu_busy_delta_pp"] is None:
            ob["reason"] = "the workload CPU is missing from one of the two traces"


def validate(rdir, plots, perf=None, warn=None):
    """The validation records of every recorded run under rdir/perf (a
    list, in name order); writes the trace-derived TSVs to plots."""
    rdir = Path(rdir)
    base = rdir / "perf"
    dirs = sorted(p.parent for p in base.glob("*/run.json")) if base.is_dir() else []
    recs = []
    for d in dirs:
        try:
            info = load_run_info(d)
        except InputError as e:
            rec = new_record(d, rdir, {})
            rec["error"] = f"{rec['dir']}/{e}"
            if warn:
                warn(rec["error"])
            recs.append(rec)
            continue
        try:
            rec = validate_run(d, rdir, info, perf, plots)
        except (tt.TraceError, InputError, OSError) as e:
            rec = new_record(d, rdir, info)
            rec["error"] = str(e)
        except Exception as e:  # pylint: disable=broad-except
            # one bad run must not cost the whole report
            rec = new_record(d, rdir, info)
            rec["error"] = f"internal error ({type(e).__name__}: {e})"
        if rec["error"] and warn:
            warn(f"{rec['dir']}: {rec['error']}")
        recs.append(rec)
    fill_observer(recs)
    return recs


def fmt(v, spec, none="n/a"):
    return none if v is None else format(v, spec)


def errors_line(r):
    """A record's (or its kernel_bounds') errors, as main() prints them."""
    return (f"busy {fmt(r['err_busy_pp'], '+.2f')} pp, iowait {fmt(r['err_iowait_pp'], '+.2f')}"
            f" pp, tis max {fmt(r['err_tis_pp_max'], '.2f')} pp, mean busy MHz"
            f" {fmt(r['err_mean_busy_mhz_pct'], '+.2f')} %, kernel iowait"
            f" {fmt(r['err_kernel_iowait_pp'], '+.2f')} pp")


def main(argv):
    if len(argv) != 1 or argv[0].startswith("-"):
        sys.stderr.write("usage: scripts/validation.py R\n")
        return 2
    rdir = Path(argv[0])
    plots = rdir / "plots"
    plots.mkdir(parents=True, exist_ok=True)
    recs = validate(rdir, plots, warn=lambda m: print(f"validation: warning: {m}",
                                                      file=sys.stderr))
    (rdir / "validation.json").write_text(json.dumps(recs, indent=2) + "\n", encoding="utf-8")
    for r in recs:
        kb = r["kernel_bounds"]
        print(f"{r['name']}: {errors_line(r)}"
              + (f"; at the kernel's idle bounds {errors_line(kb)}" if kb else "")
              + (f" [error: {r['error']}]" if r["error"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
