# SPDX-License-Identifier: GPL-2.0
"""Statistics: the workload CPU's metrics pooled over runs, governor
efficiency, the modelled energy of a run (the workload's CPUs, the
observer apart), missed deadlines, fio's IOPS, the reference governors'
values, the summary.json record of each configuration in report order
(with its 95% intervals and ratios to performance, intervals.py), and
looking up a configuration's record and its representative run."""

from .intervals import iops_keys, is_lab_fault, ratio, runtime_keys
from .quantiles import median, percentile
from .results import (GOVERNORS, KERNELS, CpuTotals, config_label, mhz_key,
                      observer_cpu)


def cpu_metrics(samples, wcpus):
    """Workload-CPU metrics pooled over runs' RunSamples and the workload's
    CPUs wcpus (one with pinned placement, every CPU with free)."""
    tot = CpuTotals()
    for c in (s.cpus[w] for s in samples for w in wcpus if w in s.cpus):
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


def runtime_of(run):
    """A run's runtime (s): the default value of the references."""
    return run.runtime


def reference_values(runs, value=runtime_of):
    """{(workload, kernel, governor): [value(run), ...]} of performance and
    powersave, pooling every successful run of that governor whose value
    is not None (value: e.g. runtime_of, or a run's IOPS)."""
    pooled = {}
    for r in runs:
        v = value(r) if r.status == 0 and r.governor in ("performance", "powersave") else None
        if v is not None:
            pooled.setdefault((r.workload, r.kernel, r.governor), []).append(v)
    return pooled


def reference_medians(runs, value=runtime_of):
    """{(workload, kernel, governor): median of value} of performance and
    powersave, as reference_values pools them."""
    return {k: median(v) for k, v in reference_values(runs, value).items()}


def efficiency(t_gov, t_ps, t_perf):
    """(t_ps - t_gov) / (t_ps - t_perf); None when any is missing, when
    performance's is 0 or when t_ps == t_perf."""
    if None in (t_gov, t_ps, t_perf) or not t_perf or t_ps == t_perf:
        return None
    return (t_ps - t_gov) / (t_ps - t_perf)


def run_energy_j(s, ocpu, apart=True):
    """(energy of every CPU but the observer ocpu, the observer's) of one
    RunSamples in J; None for a part without samples with a frequency.
    With the observer not apart (free placement, shared policy: it ran
    under the governor measured, maybe the workload too) the first part
    is every CPU's."""
    rest = [mj for cpu, mj in s.energy_mj.items() if cpu != ocpu or not apart]
    return (sum(rest) / 1000.0 if rest else None,
            s.energy_mj[ocpu] / 1000.0 if ocpu in s.energy_mj else None)


def energy_per_io_mj(energy_j, iops, where):
    """The workload's CPUs' energy of one fio run per I/O (mJ): the run's
    energy energy_j over its I/Os, IOPS x meta.json fio_runtime_s; None
    without either."""
    if energy_j is None or not iops or not where["fio_runtime_s"]:
        return None
    return energy_j * 1000.0 / (iops * where["fio_runtime_s"])


def missed_stats(have):
    """The missed-deadline keys of a record from its runs' RunSamples."""
    pcts = [s.missed_pct for s in have if s.missed_pct is not None]
    return {"missed_pct_median": median(pcts),
            "missed_pct_max": max(pcts) if pcts else None,
            "runs_missed_over_1pct": sum(s.flagged for s in have),
            "runs_excluded_missed": sum(s.excluded for s in have)}


def iops_stats(values, perf_values):
    """The IOPS keys of a record: its runs' IOPS, performance's (pooled)."""
    mid = median(values)
    rec = {"iops_median": mid,
           "iops_p25": percentile(values, 0.25) if values else None,
           "iops_p75": percentile(values, 0.75) if values else None,
           "iops_ratio_perf": ratio(mid, median(perf_values)),
           "iops_runs": len(values)}
    rec.update(iops_keys(values, perf_values))
    return rec


def runtime_stats(times, perf_times):
    """The runtime keys of a record: its successful runs' runtimes,
    performance's (pooled); percentiles, 95% intervals, ratio."""
    rec = {"runtimes_s": times,
           "median_s": median(times),
           "p25_s": percentile(times, 0.25) if times else None,
           "p75_s": percentile(times, 0.75) if times else None}
    rec.update(runtime_keys(times, perf_times))
    return rec


def run_energies(ok, samples, where):
    """{order: (energy J of the workload's CPUs or None, the observer's or
    None)} of the successful runs with samples whose sampler missed no more
    than MISSED_EXCLUDE_PCT % of its deadlines, each computed once."""
    return {r.order: run_energy_j(samples[r.order], where["ocpu"], where["apart"])
            for r in ok if r.order in samples and not samples[r.order].excluded}


def energy_stats(ok, energies):
    """The energy keys of a record. edp_js is energy_j x the median runtime
    of the same runs: those energy_j is the median of."""
    with_energy = [r for r in ok if r.order in energies and energies[r.order][0] is not None]
    energy = median([energies[r.order][0] for r in with_energy])
    runtime = median([r.runtime for r in with_energy])
    return {"energy_j": energy,
            "energy_observer_j": median([o for _, o in energies.values() if o is not None]),
            "energy_runs": len(with_energy),
            "edp_js": energy * runtime if energy is not None else None}


def median_energy_per_io(ok, iops, energies, where):
    """energy_per_io_mj: the median over the runs with IOPS and an energy
    (run_energies) of the run's energy per I/O."""
    per_io = [energy_per_io_mj(energies[r.order][0], iops[r.order], where)
              for r in ok if r.order in iops and r.order in energies]
    return median([e for e in per_io if e is not None])


def summarize_config(config, runs, samples, where, iops, refs):
    """The summary.json record of one config; refs are the pooled
    reference values of its kernel and workload, {"runtime": {governor:
    [s...]}, "iops": {governor: [IOPS...]}}."""
    wl, kernel, gov, io = config
    ok = [r for r in runs if r.status == 0]
    times = [r.runtime for r in ok]
    have = [samples[r.order] for r in ok if r.order in samples]
    # runs whose sampler missed too many deadlines: runtime only
    kept = [s for s in have if not s.excluded]
    energies = run_energies(ok, samples, where)
    rec = {"kernel": kernel, "governor": gov, "io_is_busy": io, "workload": wl,
           "label": config_label(gov, io),
           "runs": len(ok), "failed": len(runs) - len(ok),
           "no_samples": len(ok) - len(have)}
    rec.update(runtime_stats(times, refs["runtime"]["performance"]))
    rec["placement"], rec["policy"] = where["placement"], where["policy"]
    rec.update(cpu_metrics(kept, where["wcpus"]))
    rec["efficiency"] = efficiency(rec["median_s"],
                                   median(refs["runtime"]["powersave"]),
                                   median(refs["runtime"]["performance"]))
    rec.update(energy_stats(ok, energies))
    rec["samples_no_freq"] = sum(s.nofreq_rows for s in kept)
    rec.update(missed_stats(have))
    rec.update(iops_stats([iops[r.order] for r in ok if r.order in iops],
                          refs["iops"]["performance"]))
    rec["energy_per_io_mj"] = None
    if rec["iops_median"] is not None:
        # fio runs for a fixed time: efficiency by time and energy x delay
        # mean nothing; throughput and energy per I/O do
        rec["efficiency"] = efficiency(rec["iops_median"],
                                       median(refs["iops"]["powersave"]),
                                       median(refs["iops"]["performance"]))
        rec["edp_js"] = None
        rec["energy_per_io_mj"] = median_energy_per_io(ok, iops, energies, where)
    rec["lab_fault"] = is_lab_fault(rec)
    return rec


def placement(meta):
    """Where the workload and the observer ran, from meta.json: the
    workload's CPUs, the observer's, whether it was held apart from the
    governor measured, and the placement and policy names."""
    wcpus = meta.get("workload_cpus")
    if not (isinstance(wcpus, list) and wcpus
            and all(isinstance(c, int) and not isinstance(c, bool) for c in wcpus)):
        wcpus = [meta.get("workload_cpu", 0)]
    obs = meta.get("observer")
    apart = not isinstance(obs, dict) or obs.get("apart", True) is not False
    return {"wcpus": wcpus, "ocpu": observer_cpu(meta), "apart": apart,
            "placement": meta.get("placement", "pinned"),
            "fio_runtime_s": meta.get("fio_runtime_s"),
            "policy": meta.get("policy", "per-cpu")}


def kernel_refs(pools, wl, kernel):
    """{governor: values} of one workload and kernel from reference_values."""
    return {g: pools.get((wl, kernel, g), []) for g in ("performance", "powersave")}


def summarize(runs, samples, meta, iops):
    """The summary.json records; iops is {order: IOPS} of the fio runs."""
    times = reference_values(runs)
    ios = reference_values(runs, lambda r: iops.get(r.order))
    by_config = {}
    for r in runs:
        by_config.setdefault(r.config, []).append(r)
    where = placement(meta)
    return [summarize_config(c, by_config[c], samples, where, iops,
                             {"runtime": kernel_refs(times, c[0], c[1]),
                              "iops": kernel_refs(ios, c[0], c[1])})
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
    median (ties: the earlier run), one whose sampler missed too many
    deadlines only when there is no other."""
    cands = [r for r in runs if r.status == 0 and r.order in samples
             and (r.workload, r.kernel, r.governor, r.io) ==
             (rec["workload"], rec["kernel"], rec["governor"], rec["io_is_busy"])]
    if not cands:
        return None
    return min(cands, key=lambda r: (samples[r.order].excluded,
                                     abs(r.runtime - rec["median_s"]), r.order))
