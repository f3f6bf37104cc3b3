#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a synthetic results directory for scripts/report with known numbers.

Usage: make-fixture.py DIR

Every run samples 100 Hz (dt = 0.01 s) for as long as its runtime, the
workload CPU (0) repeating a short pattern of (busy, idle, iowait, freq_khz)
rows, CPU 1 (the observer, meta.json sampler_cpu) always busy 0.1 at 800
MHz. The TSVs of wl-a and fio-psync-qd1 end with the sampler's summary,
its missed deadlines 0 unless a run says otherwise (MISSED: 24 of 160,
15.00%, in a run of another pattern; 3 of 127, 2.36%; 1 of 117, 0.85%);
wl-b's have no summary, as older files. The fio-psync-qd1 runs have fio's
JSON beside their TSV (NNN-....fio.json) with known IOPS, one of them two
jobs, one missing, one malformed. test_report.py derives the expected
summary from these patterns by hand; change both together.

Plus three runs recorded under perf (R/perf/NAME/, as scripts/experiment-guest
--perf writes them, with the trace as perf script text instead of a
perf.data): patched ondemand-io1 with the sampler and without it, baseline
ondemand-io0 with it. TRUTH below describes them; test_validation.py derives
the expected validation.json from it by hand.
"""
import json
import sys
from pathlib import Path

DT = 0.01
PERF = [(0.8, 0.1, 0.1, 2400000)]
POWERSAVE = [(0.8, 0.1, 0.1, 800000)]
# Ondemand that drops the clock on iowait: half busy at 2400, half at 800.
OD_IDLE = [(1.0, 0.0, 0.0, 2400000), (0.0, 0.0, 1.0, 2400000),
           (1.0, 0.0, 0.0, 800000), (0.0, 1.0, 0.0, 800000)]
# Ondemand counting iowait busy: 3/4 of busy time at 2400, 1/4 at 1200.
OD_BUSY = [PERF[0]] * 3 + [(0.8, 0.1, 0.1, 1200000)]
HALF_2400 = [(0.5, 0.5, 0.0, 2400000)]
HALF_1600 = [(0.5, 0.5, 0.0, 1600000)]
# The run whose sampler missed 15% of its deadlines: mostly iowait at 800.
MISSED = [(0.2, 0.0, 0.8, 800000)]

# (kernel, governor, io_is_busy, workload, pattern,
#  [(runtime_s, status, sample-file mode[, extra]), ...]) where mode is
#  "ok", "invalid" (one extra invalid row), "nofreq" (one extra row without
#  a frequency), "dash" (samples column "-"), "missing" (a path that does
#  not exist), and extra a dict: "missed" (deadlines missed, in the
#  summary), "pattern" (instead of the config's), "iops" (fio's JSON: a
#  list of read IOPS, one per job; "missing" no file, "malformed" a
#  truncated one).
RUNS = [
    ("baseline", "performance", "-", "wl-a", PERF,
     [(1.00, 0, "invalid"), (1.20, 0, "ok"), (1.10, 0, "nofreq")]),
    ("baseline", "powersave", "-", "wl-a", POWERSAVE,
     [(3.00, 0, "ok"), (3.20, 0, "ok"), (3.10, 0, "ok")]),
    ("baseline", "ondemand", "0", "wl-a", OD_IDLE,
     [(2.60, 0, "ok"), (2.40, 0, "ok"), (2.80, 0, "ok")]),
    ("baseline", "ondemand", "1", "wl-a", OD_BUSY,
     [(1.28, 0, "ok"), (1.32, 0, "ok"),
      (1.36, 0, "ok", {"missed": 24, "pattern": MISSED})]),
    ("patched", "performance", "-", "wl-a", PERF,
     [(1.00, 0, "ok"), (1.20, 0, "ok"), (1.10, 0, "ok")]),
    ("patched", "powersave", "-", "wl-a", POWERSAVE,
     [(3.00, 0, "ok"), (3.20, 0, "ok"), (3.10, 0, "ok")]),
    ("patched", "ondemand", "0", "wl-a", OD_IDLE,
     [(2.60, 0, "ok"), (2.60, 0, "ok"), (2.60, 0, "ok")]),
    ("patched", "ondemand", "1", "wl-a", OD_BUSY,
     [(1.20, 0, "ok"), (1.24, 0, "ok", {"missed": 3}), (1.16, 0, "ok", {"missed": 1}),
      (99.0, 1, "ok")]),
    ("baseline", "performance", "-", "wl-b", HALF_2400,
     [(2.00, 0, "ok"), (2.20, 0, "dash"), (2.10, 0, "ok")]),
    ("baseline", "ondemand", "0", "wl-b", HALF_1600,
     [(4.00, 0, "ok"), (4.40, 0, "missing"), (4.20, 0, "ok")]),
    ("patched", "performance", "-", "wl-b", HALF_2400,
     [(2.00, 0, "ok"), (2.20, 0, "ok"), (2.10, 0, "ok")]),
    ("patched", "ondemand", "1", "wl-b", HALF_2400,
     [(4.00, 0, "ok"), (4.40, 0, "ok"), (4.20, 0, "ok")]),
    ("patched", "performance", "-", "fio-psync-qd1", HALF_2400,
     [(0.50, 0, "ok", {"iops": [480.0]}), (0.51, 0, "ok", {"iops": [500.0]}),
      (0.50, 0, "ok", {"iops": [540.0]}), (0.52, 0, "ok", {"iops": "missing"})]),
    ("patched", "ondemand", "1", "fio-psync-qd1", OD_IDLE,
     [(0.50, 0, "ok", {"iops": [150.25, 150.25]}), (0.52, 0, "ok", {"iops": [360.0]}),
      (0.51, 0, "ok", {"iops": "malformed"})]),
]
# Deadlines missed by default (None: no sampler summary, as older files).
MISSED_DEFAULT = {"wl-a": 0, "wl-b": None, "fio-psync-qd1": 0}

META = {
    "started": "2026-12-03T12:00:00Z",
    "finished": "2026-12-03T12:30:00Z",
    "quick": True,
    "repeats": 3,
    "fio_runtime_s": 0.5,
    "workload_cpu": 0,
    "sampler_cpu": 1,
    "sampler_rate_hz": 100,
    "observer": {"cpu": 1, "governor": "performance", "apart": True},
    "kernels": {
        "baseline": {"release": "6.1.192-gbase", "commit": "b" * 40,
                     "io_is_busy_default": {"ondemand": 0,
                                            "conservative": None}},
        "patched": {"release": "6.1.192-gpatch", "commit": "c" * 40,
                    "io_is_busy_default": {"ondemand": 1,
                                           "conservative": 1}},
    },
    "series_commit": "a" * 40,
    "qemu": "QEMU emulator version 7.2.99 (fixture)",
    "emu_cpufreq": {"freqs_khz": [800000, 1200000, 1600000, 2000000, 2400000],
                    "power_mw": [1500, 2600, 4100, 6200, 9000],
                    "idle_power_mw": 300, "period_us": 4000},
    "workloads": {"wl-a": {"description": "alternating CPU and disk",
                           "command": "fixture-a"},
                  "wl-b": {"description": "second workload",
                           "command": "fixture-b"},
                  "fio-psync-qd1": {"description": "fio, 4k random reads at queue depth 1, psync",
                                    "command": "fio --name=qd1 --ioengine=psync"}},
    "disk": {"throttle": "fixture"},
    "extra_key": "passed through",
}

HEADER = ("# iowait-freqmon 0.1.0\n# command: fixture\n# kernel: {kernel}\n"
          "# timer_list: v0.9 live\n# cpus: 0-1\n# interval_us: 10000\n"
          "time_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid\n")
TRAILER = ("# end: 2026-12-03T12:00:01.000Z\n"
           "# cpu       busy_s     idle_s   iowait_s\n")
# iowait-freqmon's summary (summary.c), as its TSV output ends
SUMMARY = ("# end: 2026-12-03T12:00:01.000Z\n"
           "# summary: {n} samples over {span:.6f} s, rate 100 Hz (interval 10000000.000 ns),"
           " tick 4000 us\n"
           "# idle/iowait source: timer_list, resolution 1 ns\n"
           "# missed deadlines: {missed} ({pct:.2f}%), dropped samples: 0, truncated reads: 0,"
           " read errors: 0, max wake-up latency: 87 us\n"
           "# sampler CPU: 0.50% of one CPU (sampler thread), 0.60% (whole process)\n"
           "# cpu       busy_s     idle_s   iowait_s\n")


def row(t, cpu, busy, idle, iowait, freq, valid=1):
    """One sampler TSV row; freq None leaves the column empty."""
    f = "" if freq is None else str(freq)
    return f"{t:.6f}\t{cpu}\t{busy:.4f}\t{idle:.4f}\t{iowait:.4f}\t{f}\t{valid}\n"


def sample_text(kernel, pattern, runtime, mode, missed=None):
    """The sampler TSV of one run: round(runtime / DT) valid samples, then
    the summary with MISSED deadlines missed (None: no summary)."""
    lines = [HEADER.format(kernel=kernel)]
    n = round(runtime / DT)
    t = 0.0
    for i in range(n):
        if mode == "invalid" and i == n // 2:
            t += DT
            lines += [row(t, 0, 0, 0, 0, 2400000, 0),
                      row(t, 1, 0, 0, 0, 800000, 0)]
        if mode == "nofreq" and i == n // 2:
            t += DT
            busy, idle, iowait, _ = pattern[0]
            lines += [row(t, 0, busy, idle, iowait, None),
                      row(t, 1, 0.1, 0.9, 0.0, None)]
        t += DT
        busy, idle, iowait, freq = pattern[i % len(pattern)]
        lines += [row(t, 0, busy, idle, iowait, freq),
                  row(t, 1, 0.1, 0.9, 0.0, 800000)]
    if missed is None:
        lines.append(TRAILER)
    else:
        lines.append(SUMMARY.format(n=n, span=n * DT, missed=missed,
                                    pct=100 * missed / (missed + n)))
    return "".join(lines)


def fio_text(iops):
    """fio --output-format=json of one run: one job per read IOPS."""
    jobs = [{"jobname": "qd1", "groupid": 0, "error": 0,
             "read": {"io_bytes": round(x * 4096 * 5), "bw": round(x * 4), "iops": x,
                      "runtime": 5000, "total_ios": round(x * 5)},
             "write": {"io_bytes": 0, "bw": 0, "iops": 0.0, "runtime": 0, "total_ios": 0}}
            for x in iops]
    return json.dumps({"fio version": "fio-3.33", "timestamp": 1796299200,
                       "time": "Thu Dec  3 12:00:00 2026", "jobs": jobs}, indent=1) + "\n"


# ---------------------------------------------------------------- perf runs
#
# Times in ms after the run's T0 (its sampler's start_monotonic_ns, and the
# trace's clock). The sampler samples 100 Hz for 100 ms; the workload window
# (the timer_list snapshots' "now at") is [10, 90].
#
# sampled runs (patched T0 = 5 s, baseline T0 = 3 s), the same trace:
#   cpu0 (pid 300 git): busy [0, 20) at 800 MHz; blocks in D at 20, idle
#     (iowait: sched_stat_iowait at its wake-up) until the wake-up at 50;
#     busy [50, 80), at 2400 MHz from 55; sleeps in S at 80, idle to 100
#   cpu1 (pid 500 iowait-freqmon): busy [10k, 10k + 1) for k = 0..9, else
#     idle; 1200 MHz
# the run without the sampler (patched, T0 = 7 s):
#   cpu0: busy [0, 20), iowait [20, 51), busy [51, 80), idle after; its only
#     frequency event is 2400 MHz at 55 (800 before: from freq.before)
#   cpu1: idle from -1.9 on

T_SAMPLED = {"patched": 5_000_000_000, "baseline": 3_000_000_000}
T_NOSAMPLER = 7_000_000_000
MS = 1_000_000

# The sampler's rows of cpu0 (end ms, busy, idle, iowait, freq_khz); cpu1
# is busy 0.1 at 1200 MHz in every row.
TRUTH_SAMPLES = [(10, 0.95, 0.05, 0, 800000), (20, 1, 0, 0, 800000),
                 (30, 0, 0, 1, 800000), (40, 0, 0, 1, 800000),
                 (50, 0, 0.1, 0.9, 800000), (60, 1, 0, 0, 2400000),
                 (70, 1, 0, 0, 2400000), (80, 1, 0, 0, 2400000),
                 (90, 0, 1, 0, 2400000), (100, 0, 1, 0, 2400000)]

# The kernel's counters (ns for timer_list, ticks of 10 ms for /proc/stat):
# (cpu, idle before, idle after, iowait before, iowait after).
TIMER_LIST = {
    "patched": [(0, 1_000_000_000, 1_009_000_000, 500_000_000, 531_000_000),
                (1, 2_000_000_000, 2_072_000_000, 0, 0)],
    "baseline": [(0, 1_000_000_000, 1_005_000_000, 500_000_000, 520_000_000),
                 (1, 2_000_000_000, 2_060_000_000, 0, 0)],
    "nosampler": [(0, 1_000_000_000, 1_010_000_000, 500_000_000, 531_000_000),
                  (1, 2_000_000_000, 2_080_000_000, 0, 0)],
}
STAT = {
    "patched": [(0, 100, 101, 50, 53), (1, 200, 207, 0, 0)],
    "baseline": [(0, 100, 100, 50, 54), (1, 200, 207, 0, 0)],
    "nosampler": [(0, 100, 101, 50, 53), (1, 200, 208, 0, 0)],
}

PERF_HEADER = """# ========
# os release : {release}
# event : name = power:cpu_idle, , id = {{ 1, 2 }}, type = 2, size = 128
# event : name = power:cpu_frequency, , id = {{ 3, 4 }}, type = 2, size = 128
# event : name = sched:sched_switch, , id = {{ 5, 6 }}, type = 2, size = 128
# event : name = sched:sched_wakeup, , id = {{ 7, 8 }}, type = 2, size = 128
# event : name = sched:sched_stat_iowait, , id = {{ 9, 10 }}, type = 2, size = 128
# event : name = block:block_rq_issue, , id = {{ 11, 12 }}, type = 2, size = 128
# event : name = block:block_rq_complete, , id = {{ 13, 14 }}, type = 2, size = 128
# ========
#
"""


def ev(t0, ms, comm, tid, cpu, event, trace):
    t = t0 + round(ms * MS)
    return (f"{comm:>16} {tid:>5} [{cpu:03d}] {t // 10**9}.{t % 10**9:09d}: "
            f"{event:>20}: {trace}\n")


def idle(t0, ms, cpu, enter, comm="swapper", tid=0, line_cpu=None):
    state = 1 if enter else 4294967295
    return ev(t0, ms, comm, tid, cpu if line_cpu is None else line_cpu,
              "power:cpu_idle", f"state={state} cpu_id={cpu}")


def switch(t0, ms, cpu, prev, prev_pid, state, nxt, next_pid):
    return ev(t0, ms, prev, prev_pid, cpu, "sched:sched_switch",
              f"prev_comm={prev} prev_pid={prev_pid} prev_prio=120 prev_state={state}"
              f" ==> next_comm={nxt} next_pid={next_pid} next_prio=120")


def wakeup(t0, ms, cpu, comm, pid, target, by="swapper", by_pid=0):
    return ev(t0, ms, by, by_pid, cpu, "sched:sched_wakeup",
              f"comm={comm} pid={pid} prio=120 target_cpu={target:03d}")


def freq(t0, ms, khz, cpu_id, line_cpu, comm="kworker/0:1", tid=50):
    return ev(t0, ms, comm, tid, line_cpu, "power:cpu_frequency",
              f"state={khz} cpu_id={cpu_id}")


def workload_cpu0(t0, wake_ms, freq_before):
    """cpu0's lines: busy, a D block until wake_ms, busy, S sleep at 80."""
    lines = []
    if freq_before:
        lines.append(freq(t0, -1, 800000, 0, 0))
    lines += [
        ev(t0, 19.9, "git", 300, 0, "block:block_rq_issue", "254,0 R 4096 () 2048 + 8 [git]"),
        switch(t0, 20, 0, "git", 300, "D", "swapper/0", 0),
        idle(t0, 20, 0, True),
        idle(t0, wake_ms, 0, False),
        ev(t0, wake_ms, "swapper", 0, 0, "block:block_rq_complete", "254,0 R () 2048 + 8 [0]"),
        ev(t0, wake_ms, "swapper", 0, 0, "sched:sched_stat_iowait",
           f"comm=git pid=300 delay={round((wake_ms - 20) * MS)} [ns]"),
        wakeup(t0, wake_ms, 0, "git", 300, 0),
        switch(t0, wake_ms, 0, "swapper/0", 0, "R", "git", 300),
        freq(t0, 55, 2400000, 0, 0, "git", 300),
        switch(t0, 80, 0, "git", 300, "S", "swapper/0", 0),
        idle(t0, 80, 0, True),
    ]
    return lines


def sampler_cpu1(t0):
    lines = [freq(t0, -1, 1200000, 1, 1)]
    for k in range(10):
        a = 10 * k
        lines += [idle(t0, a, 1, False),
                  wakeup(t0, a, 1, "iowait-freqmon", 500, 1),
                  switch(t0, a, 1, "swapper/1", 0, "R", "iowait-freqmon", 500),
                  switch(t0, a + 1, 1, "iowait-freqmon", 500, "S", "swapper/1", 0),
                  idle(t0, a + 1, 1, True)]
    return lines


def timer_list(now, counters, live):
    """A /proc/timer_list with one clock base and the tick_sched fields."""
    out = ["Timer List Version: v0.9", "HRTIMER_MAX_CLOCK_BASES: 8",
           f"now at {now} nsecs", ""]
    for cpu, idle_ns, iowait_ns in counters:
        out += [f"cpu: {cpu}", " clock 0:", "  .base:       ffff88803ec1e000",
                "  .offset:     0 nsecs", "active timers:",
                "  .expires_next   : 1 nsecs", "  .nohz_mode      : 2",
                "  .tick_stopped   : 1",
                f"  .idle_entrytime : {now - 500_000} nsecs",
                f"  .idle_sleeptime : {idle_ns} nsecs",
                f"  .iowait_sleeptime: {iowait_ns} nsecs"]
        if live:
            out += ["  .idle_active    : 1", "  .nr_iowait      : 0"]
        out += ["  .last_jiffies   : 4294917288", "jiffies: 4294917300", ""]
    out += ["Tick Device: mode:     1", "Per CPU device: 0",
            "  .idle_sleeptime : 1 nsecs", ""]
    return "\n".join(out) + "\n"


def proc_stat(counters):
    out = ["cpu  1 2 3 4 5 6 7 8 0 0"]
    for cpu, idle_t, iowait_t in counters:
        out.append(f"cpu{cpu} 10 0 5 {idle_t} {iowait_t} 0 1 0 0 0")
    out += ["intr 12345", "ctxt 678"]
    return "\n".join(out) + "\n"


def truth_samples(t0, release):
    lines = [f"# iowait-freqmon 0.1.0\n# command: fixture\n# kernel: {release}\n"
             "# timer_list: v0.9 live\n# cpus: 0-1\n# interval_us: 10000\n"
             f"# start_monotonic_ns: {t0}\n"
             "time_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid\n"]
    for end, busy, idle_, iowait, khz in TRUTH_SAMPLES:
        lines.append(row(end / 1000, 0, busy, idle_, iowait, khz))
        lines.append(row(end / 1000, 1, 0.1, 0.9, 0.0, 1200000))
    lines.append("# end: fixture\n")
    return "".join(lines)


def write_perf_run(out, kernel, sampled):
    cfg = "ondemand-io1" if kernel == "patched" else "ondemand-io0"
    name = f"{kernel}-{cfg}-wl-a" + ("" if sampled else "-nosampler")
    d = out / "perf" / name
    d.mkdir(parents=True, exist_ok=True)
    release = META["kernels"][kernel]["release"]
    key = kernel if sampled else "nosampler"
    t0 = T_SAMPLED[kernel] if sampled else T_NOSAMPLER
    if sampled:
        lines = workload_cpu0(t0, 50, True) + sampler_cpu1(t0)
        (d / "samples.tsv").write_text(truth_samples(t0, release))
        (d / "freq.before").write_text("0 800000\n1 1200000\n")
    else:
        lines = workload_cpu0(t0, 51, False) + [idle(t0, -2, 1, False), idle(t0, -1.9, 1, True)]
        (d / "freq.before").write_text("0 800000\n1 800000\n")
    (d / "perf.perf-script.txt").write_text(PERF_HEADER.format(release=release) + "".join(lines))
    for when, now, i in (("before", t0 + 10 * MS, 0), ("after", t0 + 90 * MS, 1)):
        tl = [(x[0], x[1 + i], x[3 + i]) for x in TIMER_LIST[key]]
        (d / f"timer_list.{when}").write_text(timer_list(now, tl, kernel == "patched"))
        st = [(x[0], x[1 + i], x[3 + i]) for x in STAT[key]]
        (d / f"stat.{when}").write_text(proc_stat(st))
    (d / "perf.log").write_text("[ perf record: Woken up 1 times to write data ]\n"
                                + ("Processed 1234 events and lost 2 chunks!\n"
                                   if kernel == "baseline" else ""))
    info = {"kernel": kernel, "governor": "ondemand", "io_is_busy": 1 if kernel == "patched" else 0,
            "workload": "wl-a", "config": cfg, "sampler": sampled, "workload_cpu": 0,
            "sampler_cpu": 1, "rate_hz": 100, "runtime_s": 0.081 if sampled else 0.079,
            "status": 0, "perf_status": 0, "schedstats_before": "0", "clk_tck": 100,
            "release": release}
    (d / "run.json").write_text(json.dumps(info, indent=1) + "\n")


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: make-fixture.py DIR\n")
        return 2
    out = Path(argv[1])
    (out / "samples").mkdir(parents=True, exist_ok=True)
    (out / "perf").mkdir(exist_ok=True)
    (out / "meta.json").write_text(json.dumps(META, indent=2) + "\n")
    (out / "perf" / "baseline-ondemand-wl-a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg"/>\n')
    rows = ["kernel\tgovernor\tio_is_busy\tworkload\trepeat\torder\t"
            "runtime_s\tstatus\tsamples\n"]
    order = 0
    for kernel, gov, io, wl, pattern, runs in RUNS:
        for rep, (runtime, status, mode, *extra) in enumerate(runs, 1):
            extra = extra[0] if extra else {}
            order += 1
            name = f"samples/{order:03d}-{kernel}-{gov}-{io}-{wl}-{rep}.tsv"
            if mode == "dash":
                name = "-"
            elif mode != "missing":
                (out / name).write_text(sample_text(
                    kernel, extra.get("pattern", pattern), runtime, mode,
                    extra.get("missed", MISSED_DEFAULT[wl])))
            iops = extra.get("iops", "missing")
            if name != "-" and iops != "missing":
                (out / name).with_suffix("").with_suffix(".fio.json").write_text(
                    fio_text(iops) if iops != "malformed"
                    else '{\n "fio version": "fio-3.33",\n "jobs": [\n')
            rows.append(f"{kernel}\t{gov}\t{io}\t{wl}\t{rep}\t{order}\t"
                        f"{runtime:.3f}\t{status}\t{name}\n")
    (out / "runs.tsv").write_text("".join(rows))
    write_perf_run(out, "patched", True)
    write_perf_run(out, "patched", False)
    write_perf_run(out, "baseline", True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
