#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a synthetic results directory for scripts/report with known numbers.

Usage: make-fixture.py DIR

Every run samples 100 Hz (dt = 0.01 s) for as long as its runtime, the
workload CPU (0) repeating a short pattern of (busy, idle, iowait, freq_khz)
rows, CPU 1 always busy 0.1 at 800 MHz. test_report.py derives the expected
summary from these patterns by hand; change both together.
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

# (kernel, governor, io_is_busy, workload, pattern,
#  [(runtime_s, status, sample-file mode), ...]) where mode is
#  "ok", "invalid" (one extra invalid row), "nofreq" (one extra row without
#  a frequency), "dash" (samples column "-"), "missing" (a path that does
#  not exist).
RUNS = [
    ("baseline", "performance", "-", "wl-a", PERF,
     [(1.00, 0, "invalid"), (1.20, 0, "ok"), (1.10, 0, "nofreq")]),
    ("baseline", "powersave", "-", "wl-a", POWERSAVE,
     [(3.00, 0, "ok"), (3.20, 0, "ok"), (3.10, 0, "ok")]),
    ("baseline", "ondemand", "0", "wl-a", OD_IDLE,
     [(2.60, 0, "ok"), (2.40, 0, "ok"), (2.80, 0, "ok")]),
    ("baseline", "ondemand", "1", "wl-a", OD_BUSY,
     [(1.28, 0, "ok"), (1.32, 0, "ok"), (1.36, 0, "ok")]),
    ("patched", "performance", "-", "wl-a", PERF,
     [(1.00, 0, "ok"), (1.20, 0, "ok"), (1.10, 0, "ok")]),
    ("patched", "powersave", "-", "wl-a", POWERSAVE,
     [(3.00, 0, "ok"), (3.20, 0, "ok"), (3.10, 0, "ok")]),
    ("patched", "ondemand", "0", "wl-a", OD_IDLE,
     [(2.60, 0, "ok"), (2.60, 0, "ok"), (2.60, 0, "ok")]),
    ("patched", "ondemand", "1", "wl-a", OD_BUSY,
     [(1.20, 0, "ok"), (1.24, 0, "ok"), (1.16, 0, "ok"), (99.0, 1, "ok")]),
    ("baseline", "performance", "-", "wl-b", HALF_2400,
     [(2.00, 0, "ok"), (2.20, 0, "dash"), (2.10, 0, "ok")]),
    ("baseline", "ondemand", "0", "wl-b", HALF_1600,
     [(4.00, 0, "ok"), (4.40, 0, "missing"), (4.20, 0, "ok")]),
    ("patched", "performance", "-", "wl-b", HALF_2400,
     [(2.00, 0, "ok"), (2.20, 0, "ok"), (2.10, 0, "ok")]),
    ("patched", "ondemand", "1", "wl-b", HALF_2400,
     [(4.00, 0, "ok"), (4.40, 0, "ok"), (4.20, 0, "ok")]),
]

META = {
    "started": "2026-12-03T12:00:00Z",
    "finished": "2026-12-03T12:30:00Z",
    "quick": True,
    "repeats": 3,
    "workload_cpu": 0,
    "sampler_cpu": 1,
    "sampler_rate_hz": 100,
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
                           "command": "fixture-b"}},
    "disk": {"throttle": "fixture"},
    "extra_key": "passed through",
}

HEADER = ("# iowait-freqmon 0.1.0\n# command: fixture\n# kernel: {kernel}\n"
          "# timer_list: v0.9 live\n# cpus: 0-1\n# interval_us: 10000\n"
          "time_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid\n")
TRAILER = ("# end: 2026-12-03T12:00:01.000Z\n"
           "# cpu       busy_s     idle_s   iowait_s\n")


def row(t, cpu, busy, idle, iowait, freq, valid=1):
    """One sampler TSV row; freq None leaves the column empty."""
    f = "" if freq is None else str(freq)
    return f"{t:.6f}\t{cpu}\t{busy:.4f}\t{idle:.4f}\t{iowait:.4f}\t{f}\t{valid}\n"


def sample_text(kernel, pattern, runtime, mode):
    """The sampler TSV of one run: round(runtime / DT) valid samples."""
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
    lines.append(TRAILER)
    return "".join(lines)


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
        for rep, (runtime, status, mode) in enumerate(runs, 1):
            order += 1
            name = f"samples/{order:03d}-{kernel}-{gov}-{io}-{wl}-{rep}.tsv"
            if mode == "dash":
                name = "-"
            elif mode != "missing":
                (out / name).write_text(
                    sample_text(kernel, pattern, runtime, mode))
            rows.append(f"{kernel}\t{gov}\t{io}\t{wl}\t{rep}\t{order}\t"
                        f"{runtime:.3f}\t{status}\t{name}\n")
    (out / "runs.tsv").write_text("".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
