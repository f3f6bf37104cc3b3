# SPDX-License-Identifier: GPL-2.0
"""Statistics: percentiles and medians, the workload CPU's metrics pooled
over runs, governor efficiency, the summary.json record of each
configuration in report order, and looking up a configuration's record
and its representative run."""

import math

from .results import GOVERNORS, KERNELS, CpuTotals, config_label, mhz_key


def percentile(values, q):
    """Linear interpolation between closest ranks (numpy's default)."""
    v = sorted(values)
    pos = (len(v) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def median(values):
    return percentile(values, 0.5) if values else None



def cpu_metrics(samples, wcpu):
    """Workload-CPU metrics pooled over runs' RunSamples."""
    tot = CpuTotals()
    for s in samples:
        c = s.cpus.get(wcpu)
        if c is None:
            continue
        tot.total_s += c.total_s
        tot.busy_s += c.busy_s
        tot.iowait_s += c.iowait_s
        tot.busy_freq_s += c.busy_freq_s
        tot.busy_mhz_s += c.busy_mhz_s
        for k, v in c.tis.items():
            tot.tis[k] = tot.tis.get(k, 0.0) + v
    if tot.total_s <= 0:
        return {"mean_busy_mhz": None, "iowait_share": None, "busy_share": None,
                "time_in_state": {}, "sampled_s": 0.0}
    tis = {}
    if tot.busy_freq_s > 0:
        tis = {mhz_key(k): tot.tis[k] / tot.busy_freq_s for k in sorted(tot.tis)}
    return {
        "mean_busy_mhz": tot.busy_mhz_s / tot.busy_freq_s if tot.busy_freq_s > 0 else None,
        "iowait_share": tot.iowait_s / tot.total_s,
        "busy_share": tot.busy_s / tot.total_s,
        "time_in_state": tis,
        "sampled_s": tot.total_s,
    }


def ordered_configs(runs, meta):
    """Configs (workload, kernel, governor, io) in report order."""
    wls = [w for w in (meta.get("workloads") or {}) if any(r.workload == w for r in runs)]
    wls += [w for w in dict.fromkeys(r.workload for r in runs) if w not in wls]
    io_rank = {None: 0, 0: 1, 1: 2}
    return sorted({r.config for r in runs},
                  key=lambda c: (wls.index(c[0]), KERNELS.index(c[1]),
                                 GOVERNORS.index(c[2]), io_rank[c[3]]))


def reference_medians(runs):
    """{(workload, kernel, governor): median runtime} of performance and
    powersave, pooling every successful run of that governor."""
    pooled = {}
    for r in runs:
        if r.status == 0 and r.governor in ("performance", "powersave"):
            pooled.setdefault((r.workload, r.kernel, r.governor), []).append(r.runtime)
    return {k: median(v) for k, v in pooled.items()}


def efficiency(t_gov, t_ps, t_perf):
    if None in (t_gov, t_ps, t_perf) or t_ps == t_perf:
        return None
    return (t_ps - t_gov) / (t_ps - t_perf)


def summarize_config(config, runs, samples, refs, wcpu):
    """The summary.json record of one config."""
    wl, kernel, gov, io = config
    ok = [r for r in runs if r.status == 0]
    times = [r.runtime for r in ok]
    have = [samples[r.order] for r in ok if r.order in samples]
    energies = [s.energy_mj / 1000.0 for s in have if s.energy_rows > 0]
    rec = {
        "kernel": kernel, "governor": gov, "io_is_busy": io, "workload": wl,
        "label": config_label(gov, io),
        "runs": len(ok), "failed": len(runs) - len(ok),
        "no_samples": len(ok) - len(have),
        "runtimes_s": times,
        "median_s": median(times),
        "p25_s": percentile(times, 0.25) if times else None,
        "p75_s": percentile(times, 0.75) if times else None,
    }
    rec.update(cpu_metrics(have, wcpu))
    rec["efficiency"] = efficiency(rec["median_s"], refs.get((wl, kernel, "powersave")),
                                   refs.get((wl, kernel, "performance")))
    rec["energy_j"] = median(energies)
    rec["energy_runs"] = len(energies)
    rec["samples_no_freq"] = sum(s.nofreq_rows for s in have)
    rec["edp_js"] = (rec["energy_j"] * rec["median_s"]
                     if rec["energy_j"] is not None and rec["median_s"] is not None else None)
    return rec


def summarize(runs, samples, meta):
    refs = reference_medians(runs)
    wcpu = meta.get("workload_cpu", 0)
    by_config = {}
    for r in runs:
        by_config.setdefault(r.config, []).append(r)
    return [summarize_config(c, by_config[c], samples, refs, wcpu)
            for c in ordered_configs(runs, meta)]


def find(records, workload, kernel, governor, io=...):
    """The record of a config; io=... matches any (first one)."""
    for rec in records:
        if (rec["workload"], rec["kernel"], rec["governor"]) == (workload, kernel, governor) \
                and (io is ... or rec["io_is_busy"] == io):
            return rec
    return None


def representative_run(runs, samples, rec):
    """The successful run with samples whose runtime is nearest the config's
    median (ties: the earlier run)."""
    cands = [r for r in runs if r.status == 0 and r.order in samples
             and (r.workload, r.kernel, r.governor, r.io) ==
             (rec["workload"], rec["kernel"], rec["governor"], rec["io_is_busy"])]
    if not cands:
        return None
    return min(cands, key=lambda r: (abs(r.runtime - rec["median_s"]), r.order))
